import CDBus

/// A D-Bus error: a dotted error name plus a human-readable message.
///
/// Thrown by calls whose reply is an error, and thrown by method handlers to
/// send that exact error back to the caller.
public struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The D-Bus error name, e.g. `org.freedesktop.DBus.Error.InvalidArgs`.
    public var name: String
    /// The human-readable explanation carried in the error reply.
    public var message: String

    /// Creates an error with a D-Bus error name and a message.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// `name: message`, the form `gdbus` and `dbus-send` print.
    public var description: String { "\(name): \(message)" }

    /// Standard `org.freedesktop.DBus.Error.*` names used by this library.
    public enum Name {
        /// A generic failure.
        public static let failed = "org.freedesktop.DBus.Error.Failed"
        /// Arguments had the wrong type or an invalid value.
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        /// The method does not exist on the object.
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        /// No object at the path.
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        /// The interface does not exist on the object.
        public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        /// The property does not exist.
        public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        /// The property cannot be written.
        public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        /// The caller is not allowed to do this.
        public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        /// Out of memory inside libdbus.
        public static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
        /// No reply arrived within the timeout.
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        /// The connection is closed.
        public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        /// The bus name has no owner.
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    }

    /// A generic `org.freedesktop.DBus.Error.Failed` error.
    public static func failed(_ message: String) -> DBusError {
        DBusError(name: Name.failed, message: message)
    }

    /// An `org.freedesktop.DBus.Error.InvalidArgs` error.
    public static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: Name.invalidArgs, message: message)
    }

    /// The error for an exhausted libdbus allocation.
    static let noMemory = DBusError(name: Name.noMemory, message: "libdbus ran out of memory")
}

/// Owns a C `DBusError`, freeing it on every path.
final class CErrorBox {
    var raw = CDBus.DBusError()

    init() { dbus_error_init(&raw) }
    deinit { dbus_error_free(&raw) }

    /// Whether libdbus filled the error in.
    var isSet: Bool { dbus_error_is_set(&raw) != 0 }

    /// The Swift error for what libdbus reported, or a fallback naming `context`.
    func swiftError(_ context: String) -> DBusError {
        guard isSet else { return DBusError.failed("\(context) failed") }
        let name = raw.name.map { String(cString: $0) } ?? DBusError.Name.failed
        let message = raw.message.map { String(cString: $0) } ?? "\(context) failed"
        return DBusError(name: name, message: message)
    }
}

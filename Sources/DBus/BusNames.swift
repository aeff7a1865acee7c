import CDBus

/// Flags for `DBusConnection.requestName(_:flags:)`.
public struct DBusNameFlags: OptionSet, Sendable {
    /// The raw `DBUS_NAME_FLAG_*` bits.
    public let rawValue: UInt32
    /// Creates flags from raw bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Let a later `replaceExisting` request take the name from us.
    public static let allowReplacement = DBusNameFlags(rawValue: UInt32(DBUS_NAME_FLAG_ALLOW_REPLACEMENT))
    /// Take the name from its owner if that owner allowed replacement.
    public static let replaceExisting = DBusNameFlags(rawValue: UInt32(DBUS_NAME_FLAG_REPLACE_EXISTING))
    /// Fail with `.exists` rather than wait in the queue.
    public static let doNotQueue = DBusNameFlags(rawValue: UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE))
}

/// What the bus answered to a name request.
public enum DBusNameRequestResult: Sendable, Equatable {
    /// We now own the name.
    case primaryOwner
    /// Someone else owns it; we wait in the queue.
    case inQueue
    /// Someone else owns it and we asked not to queue.
    case exists
    /// We already owned it.
    case alreadyOwner

    /// Whether this connection owns the name after the request.
    public var isOwner: Bool { self == .primaryOwner || self == .alreadyOwner }
}

/// What the bus answered to a name release.
public enum DBusNameReleaseResult: Sendable, Equatable {
    /// We no longer own or queue for the name.
    case released
    /// Nobody owned the name.
    case nonExistent
    /// Someone else owns it.
    case notOwner
}

extension DBusConnection {
    /// Asks the bus for a well-known name. Default flags: do not queue, so a running owner gives `.exists`.
    public func requestName(_ name: String, flags: DBusNameFlags = [.doNotQueue]) throws -> DBusNameRequestResult {
        try Names.checkBusName(name)
        let error = CErrorBox()
        let result = dbus_bus_request_name(raw, name, flags.rawValue, &error.raw)
        switch result {
        case DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: return .primaryOwner
        case DBUS_REQUEST_NAME_REPLY_IN_QUEUE: return .inQueue
        case DBUS_REQUEST_NAME_REPLY_EXISTS: return .exists
        case DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return .alreadyOwner
        default: throw error.swiftError("RequestName \(name)")
        }
    }

    /// Gives up a well-known name.
    @discardableResult
    public func releaseName(_ name: String) throws -> DBusNameReleaseResult {
        try Names.checkBusName(name)
        let error = CErrorBox()
        switch dbus_bus_release_name(raw, name, &error.raw) {
        case DBUS_RELEASE_NAME_REPLY_RELEASED: return .released
        case DBUS_RELEASE_NAME_REPLY_NON_EXISTENT: return .nonExistent
        case DBUS_RELEASE_NAME_REPLY_NOT_OWNER: return .notOwner
        default: throw error.swiftError("ReleaseName \(name)")
        }
    }

    /// Whether any connection currently owns `name`.
    public func nameHasOwner(_ name: String) throws -> Bool {
        try Names.checkBusName(name)
        let error = CErrorBox()
        let owned = dbus_bus_name_has_owner(raw, name, &error.raw) != 0
        if error.isSet { throw error.swiftError("NameHasOwner \(name)") }
        return owned
    }

    /// The process id of the connection owning `busName`, as the bus daemon saw it.
    public func processID(of busName: String) throws -> UInt32 {
        let reply = try callBus("GetConnectionUnixProcessID", [.string(busName)])
        guard let pid = reply.first?.uint32 else {
            throw DBusError.failed("GetConnectionUnixProcessID returned (\(DBusValue.signature(of: reply)))")
        }
        return pid
    }

    /// The Unix user id of the connection owning `busName`.
    public func userID(of busName: String) throws -> UInt32 {
        let reply = try callBus("GetConnectionUnixUser", [.string(busName)])
        guard let uid = reply.first?.uint32 else {
            throw DBusError.failed("GetConnectionUnixUser returned (\(DBusValue.signature(of: reply)))")
        }
        return uid
    }

    private func callBus(_ method: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
        try call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            method: method, arguments: arguments)
    }
}

import CDBus

/// Owns one reference to a libdbus message and unrefs it on deinit.
final class Message {
    let raw: OpaquePointer

    /// Adopts a reference the caller already owns (e.g. from `dbus_message_new_*`).
    init(adopting raw: OpaquePointer) { self.raw = raw }

    /// Takes an extra reference to a message libdbus lends us (e.g. in a filter).
    init(retaining raw: OpaquePointer) {
        self.raw = raw
        dbus_message_ref(raw)
    }

    deinit { dbus_message_unref(raw) }

    /// A method call, with every name validated first because libdbus aborts on bad ones.
    static func methodCall(destination: String?, path: String, interface: String?, method: String) throws -> Message {
        if let destination { try Names.checkBusName(destination) }
        try Names.checkPath(path)
        if let interface { try Names.checkInterface(interface) }
        try Names.checkMember(method)
        guard let raw = dbus_message_new_method_call(destination, path, interface, method) else {
            throw DBusError.noMemory
        }
        return Message(adopting: raw)
    }

    /// A signal, with names validated first.
    static func signal(path: String, interface: String, name: String) throws -> Message {
        try Names.checkPath(path)
        try Names.checkInterface(interface)
        try Names.checkMember(name)
        guard let raw = dbus_message_new_signal(path, interface, name) else { throw DBusError.noMemory }
        return Message(adopting: raw)
    }

    /// The method-return for this call.
    func methodReturn() throws -> Message {
        guard let reply = dbus_message_new_method_return(raw) else { throw DBusError.noMemory }
        return Message(adopting: reply)
    }

    /// The error reply for this call; an invalid error name degrades to `Failed`.
    /// The longest error message sent whole.
    static let maximumErrorBytes = 4096

    func errorReply(_ error: DBusError) -> Message? {
        let name = Names.isValidErrorName(error.name) ? error.name : DBusError.Name.failed
        var text = (try? DBusValue.validateString(error.message)) == nil ? "(unprintable error message)" : error.message
        // A message quoting a 10 MB argument once came back 10 MB long: it is cut, and says so.
        if text.utf8.count > Self.maximumErrorBytes {
            text = String(decoding: text.utf8.prefix(Self.maximumErrorBytes / 2), as: UTF8.self) + "… (\(text.utf8.count) bytes in all)"
        }
        return dbus_message_new_error(raw, name, text).map { Message(adopting: $0) }
    }

    /// Validates then appends values as the message body.
    func append(_ values: [DBusValue]) throws {
        for value in values { try value.validate() }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        for value in values where !value.append(to: &iter) { throw DBusError.noMemory }
    }

    /// The body as values.
    func arguments() throws -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return [] }
        return try DBusValue.readAll(from: &iter)
    }

    var type: Int32 { dbus_message_get_type(raw) }
    var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    var signature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }
    var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    var noReplyExpected: Bool { dbus_message_get_no_reply(raw) != 0 }

    /// The thrown form of an error reply.
    func asError() -> DBusError {
        let text = (try? arguments())?.first?.string ?? ""
        return DBusError(name: errorName ?? DBusError.Name.failed, message: text)
    }
}

/// Validation of D-Bus names; libdbus aborts the process when handed invalid ones.
enum Names {
    static func checkBusName(_ name: String) throws {
        guard !name.utf8.contains(0), name.withCString({ dbus_validate_bus_name($0, nil) }) != 0 else {
            throw DBusError.invalidArgs("invalid bus name \(String(reflecting: name))")
        }
    }

    static func checkPath(_ path: String) throws {
        guard DBusValue.isValidObjectPath(path) else {
            throw DBusError.invalidArgs("invalid object path \(String(reflecting: path))")
        }
    }

    static func checkInterface(_ name: String) throws {
        guard !name.utf8.contains(0), name.withCString({ dbus_validate_interface($0, nil) }) != 0 else {
            throw DBusError.invalidArgs("invalid interface name \(String(reflecting: name))")
        }
    }

    static func checkMember(_ name: String) throws {
        guard !name.utf8.contains(0), name.withCString({ dbus_validate_member($0, nil) }) != 0 else {
            throw DBusError.invalidArgs("invalid member name \(String(reflecting: name))")
        }
    }

    static func isValidErrorName(_ name: String) -> Bool {
        !name.utf8.contains(0) && name.withCString({ dbus_validate_error_name($0, nil) }) != 0
    }
}

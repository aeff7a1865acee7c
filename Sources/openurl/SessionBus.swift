// libdbus, directly: one private connection to the session bus, and the three calls the client
// makes (Router1.Open, and GetCapabilities + Notify to show a failure). The DBus module is not
// used here because it is built for the full Swift runtime, which this client does without.
import CDBus
import COpenurl
import CRouterContract

/// An error reply, or a failure libdbus reported for a call.
struct BusError {
    /// The D-Bus error name, e.g. `org.freedesktop.DBus.Error.ServiceUnknown`.
    var name: String
    /// The human-readable message.
    var message: String

    /// True when no service could answer: the fallback is to route in-process, not to report.
    var meansServiceUnavailable: Bool { openurl_means_service_unavailable(name) != 0 }

    /// True when the daemon did not answer in time (stopped or hung).
    var isTimeout: Bool { openurl_is_timeout(name) != 0 }

    init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// Takes the contents of a filled-in C error and frees it.
    init(taking error: inout CDBus.DBusError, context: String) {
        name = error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
        message = error.message.map { String(cString: $0) } ?? "\(context) failed"
        dbus_error_free(&error)
    }
}

/// One value of an `a{sv}` option or hint.
enum OptionValue {
    case string(String)
    case bool(Bool)
    case byte(UInt8)
    case uint32(UInt32)
    case uint64(UInt64)
    /// An `a{ss}`.
    case stringMap([(String, String)])
}

/// A method call being built with libdbus's iterators.
struct Call {
    let message: OpaquePointer
    private var iterator = DBusMessageIter()

    init?(destination: String, path: String, interface: String, method: String) {
        guard let message = dbus_message_new_method_call(destination, path, interface, method) else { return nil }
        self.message = message
        dbus_message_iter_init_append(message, &iterator)
    }

    mutating func append(_ text: String) { Call.appendString(&iterator, text) }

    mutating func append(uint32 value: UInt32) {
        var copy = value
        dbus_message_iter_append_basic(&iterator, CDBUS_TYPE_UINT32, &copy)
    }

    mutating func append(int32 value: Int32) {
        var copy = value
        dbus_message_iter_append_basic(&iterator, CDBUS_TYPE_INT32, &copy)
    }

    mutating func append(strings: [String]) {
        var array = DBusMessageIter()
        dbus_message_iter_open_container(&iterator, CDBUS_TYPE_ARRAY, "s", &array)
        for text in strings { Call.appendString(&array, text) }
        dbus_message_iter_close_container(&iterator, &array)
    }

    /// Appends an `a{sv}`, entries in the given order.
    mutating func append(options: [(String, OptionValue)]) {
        var array = DBusMessageIter()
        dbus_message_iter_open_container(&iterator, CDBUS_TYPE_ARRAY, "{sv}", &array)
        for (key, value) in options {
            var entry = DBusMessageIter()
            dbus_message_iter_open_container(&array, CDBUS_TYPE_DICT_ENTRY, nil, &entry)
            Call.appendString(&entry, key)
            var variant = DBusMessageIter()
            switch value {
            case .string(let text):
                dbus_message_iter_open_container(&entry, CDBUS_TYPE_VARIANT, "s", &variant)
                Call.appendString(&variant, text)
            case .bool(let flag):
                dbus_message_iter_open_container(&entry, CDBUS_TYPE_VARIANT, "b", &variant)
                var raw: dbus_bool_t = flag ? 1 : 0
                dbus_message_iter_append_basic(&variant, CDBUS_TYPE_BOOLEAN, &raw)
            case .byte(let byte):
                dbus_message_iter_open_container(&entry, CDBUS_TYPE_VARIANT, "y", &variant)
                var raw = byte
                dbus_message_iter_append_basic(&variant, CDBUS_TYPE_BYTE, &raw)
            case .uint32(let number):
                dbus_message_iter_open_container(&entry, CDBUS_TYPE_VARIANT, "u", &variant)
                var raw = number
                dbus_message_iter_append_basic(&variant, CDBUS_TYPE_UINT32, &raw)
            case .uint64(let number):
                dbus_message_iter_open_container(&entry, CDBUS_TYPE_VARIANT, "t", &variant)
                var raw = number
                dbus_message_iter_append_basic(&variant, CDBUS_TYPE_UINT64, &raw)
            case .stringMap(let pairs):
                dbus_message_iter_open_container(&entry, CDBUS_TYPE_VARIANT, "a{ss}", &variant)
                var map = DBusMessageIter()
                dbus_message_iter_open_container(&variant, CDBUS_TYPE_ARRAY, "{ss}", &map)
                for (name, text) in pairs {
                    var pair = DBusMessageIter()
                    dbus_message_iter_open_container(&map, CDBUS_TYPE_DICT_ENTRY, nil, &pair)
                    Call.appendString(&pair, name)
                    Call.appendString(&pair, text)
                    dbus_message_iter_close_container(&map, &pair)
                }
                dbus_message_iter_close_container(&variant, &map)
            }
            dbus_message_iter_close_container(&entry, &variant)
            dbus_message_iter_close_container(&array, &entry)
        }
        dbus_message_iter_close_container(&iterator, &array)
    }

    /// A string is appended as a pointer to a `char *`. Arguments are valid UTF-8 without NUL
    /// (String(cString:) repairs argv), which is what libdbus requires of a string.
    private static func appendString(_ iterator: inout DBusMessageIter, _ text: String) {
        text.withCString { pointer in
            var value: UnsafePointer<CChar>? = pointer
            _ = dbus_message_iter_append_basic(&iterator, CDBUS_TYPE_STRING, &value)
        }
    }
}

/// A private connection to the session bus.
final class SessionBus {
    private let raw: OpaquePointer

    /// Connects to `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`; nil when there is no
    /// bus (never autolaunches one, as DBusConnection.session).
    static func connect() -> SessionBus? {
        var address = environment("DBUS_SESSION_BUS_ADDRESS") ?? ""
        if address.isEmpty, let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty, access(runtime + "/bus", F_OK) == 0 {
            address = "unix:path=" + runtime + "/bus"
        }
        guard !address.isEmpty else { return nil }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let raw = dbus_connection_open_private(address, &error) else {
            dbus_error_free(&error)
            return nil
        }
        guard dbus_bus_register(raw, &error) != 0 else {
            dbus_error_free(&error)
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            return nil
        }
        dbus_connection_set_exit_on_disconnect(raw, 0)
        return SessionBus(raw: raw)
    }

    private init(raw: OpaquePointer) { self.raw = raw }

    deinit {
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    /// Sends `call` and waits up to `timeoutMilliseconds` for the reply (owned by the caller).
    func send(_ call: Call, timeoutMilliseconds: Int32) -> (reply: OpaquePointer?, error: BusError?) {
        defer { dbus_message_unref(call.message) }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(raw, call.message, timeoutMilliseconds, &error) else {
            return (nil, BusError(taking: &error, context: "calling \(String(cString: dbus_message_get_member(call.message)))"))
        }
        return (reply, nil)
    }
}

/// The string values of the first argument of `reply` when it is an `a{sv}`.
func stringEntries(of reply: OpaquePointer) -> [(String, String)] {
    var result: [(String, String)] = []
    var top = DBusMessageIter()
    guard dbus_message_iter_init(reply, &top) != 0, dbus_message_iter_get_arg_type(&top) == CDBUS_TYPE_ARRAY else { return result }
    var array = DBusMessageIter()
    dbus_message_iter_recurse(&top, &array)
    while dbus_message_iter_get_arg_type(&array) == CDBUS_TYPE_DICT_ENTRY {
        var entry = DBusMessageIter()
        dbus_message_iter_recurse(&array, &entry)
        if let key = basicString(&entry), dbus_message_iter_next(&entry) != 0 {
            var value = entry
            while dbus_message_iter_get_arg_type(&value) == CDBUS_TYPE_VARIANT {
                var inner = DBusMessageIter()
                dbus_message_iter_recurse(&value, &inner)
                value = inner
            }
            if let text = basicString(&value) { result.append((key, text)) }
        }
        dbus_message_iter_next(&array)
    }
    return result
}

/// The strings of the first argument of `reply` when it is an `as`.
func stringArray(of reply: OpaquePointer) -> [String] {
    var result: [String] = []
    var top = DBusMessageIter()
    guard dbus_message_iter_init(reply, &top) != 0, dbus_message_iter_get_arg_type(&top) == CDBUS_TYPE_ARRAY else { return result }
    var array = DBusMessageIter()
    dbus_message_iter_recurse(&top, &array)
    while let text = basicString(&array) {
        result.append(text)
        dbus_message_iter_next(&array)
    }
    return result
}

private func basicString(_ iterator: inout DBusMessageIter) -> String? {
    guard dbus_message_iter_get_arg_type(&iterator) == CDBUS_TYPE_STRING else { return nil }
    var value: UnsafePointer<CChar>?
    dbus_message_iter_get_basic(&iterator, &value)
    return value.map { String(cString: $0) }
}

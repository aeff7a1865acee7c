import CDBus
import Platform

/// One private connection to a message bus.
///
/// Blocking calls (`call`, `requestName`, …) may be made from any thread; incoming
/// method calls and signals are handled when `dispatch()` runs, normally from an
/// `EventLoop` that watches the connection's file descriptor.
public final class DBusConnection: @unchecked Sendable {
    let raw: OpaquePointer
    let state = Lock()
    var objects: [String: DBusObject] = [:]
    private var signalHandlers: [Int: SignalHandler] = [:]
    private var nextHandlerID = 1
    private var disconnectHandler: (() -> Void)?
    /// Hears of each method call served and answered (see `onMethodCall`).
    var callObserver: ((MethodCallEvent) -> Void)?
    /// The serial of the next reply or signal written whole (`WireMessage`); under `state`.
    private var nextWireSerial = WireMessage.firstSerial

    /// A serial for a message written whole, never 0 (guarded by `state`).
    func takeWireSerial() -> UInt32 {
        state.withLock {
            let serial = nextWireSerial
            nextWireSerial = nextWireSerial == UInt32.max ? WireMessage.firstSerial : nextWireSerial + 1
            return serial
        }
    }

    private struct SignalHandler {
        var interface: String?
        var member: String?
        var path: String?
        var arg0: String?
        var matchRule: String
        var handler: (DBusSignal) -> Void
    }

    /// Connects to the session bus: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`.
    ///
    /// Unlike libdbus's default it never autolaunches a bus (that would spawn `dbus-launch`
    /// on X11); with no bus it throws `org.freedesktop.DBus.Error.NoServer` so callers can
    /// fall back to working without one.
    public static func session() throws -> DBusConnection {
        if let address = Environment.value("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty {
            return try DBusConnection(address: address)
        }
        if let runtime = Environment.value("XDG_RUNTIME_DIR"), !runtime.isEmpty,
           FileSystem.exists(runtime + "/bus") {
            return try DBusConnection(address: "unix:path=" + runtime + "/bus")
        }
        throw DBusError(
            name: "org.freedesktop.DBus.Error.NoServer",
            message: "no session bus: DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus does not exist")
    }

    /// The system bus's address: `DBUS_SYSTEM_BUS_ADDRESS` (from `environment`), else the
    /// standard socket.
    public static func systemAddress(environment: [String: String]) -> String {
        if let address = environment["DBUS_SYSTEM_BUS_ADDRESS"], !address.isEmpty { return address }
        return "unix:path=/run/dbus/system_bus_socket"
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS` honoured).
    public static func system(environment: [String: String]) throws -> DBusConnection {
        try DBusConnection(address: systemAddress(environment: environment))
    }

    /// Connects to the bus at `address` (e.g. `unix:path=/run/user/1000/bus`) and registers with it.
    public convenience init(address: String) throws {
        ensureThreadsInitialised
        let error = CErrorBox()
        guard !address.utf8.contains(0), let raw = dbus_connection_open_private(address, &error.raw) else {
            throw error.swiftError("connecting to \(address)")
        }
        guard dbus_bus_register(raw, &error.raw) != 0 else {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw error.swiftError("registering with the bus at \(address)")
        }
        self.init(raw: raw)
    }

    private init(raw: OpaquePointer) {
        self.raw = raw
        dbus_connection_set_exit_on_disconnect(raw, 0)
        dbus_connection_add_filter(raw, connectionFilter, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    deinit {
        dbus_connection_remove_filter(raw, connectionFilter, Unmanaged.passUnretained(self).toOpaque())
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    /// The bus-assigned unique name of this connection, e.g. `:1.42`.
    public var uniqueName: String {
        dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
    }

    /// Whether the connection is still open.
    public var isConnected: Bool { dbus_connection_get_is_connected(raw) != 0 }

    /// Calls `observer` when an exported object starts serving a method call (on the
    /// dispatching thread) and when its reply goes out (from whichever thread sends it, for a
    /// deferred reply): the daemon gives freed memory back once a burst of calls is over.
    public func onMethodCall(_ observer: @escaping (MethodCallEvent) -> Void) {
        state.withLock { callObserver = observer }
    }

    /// Runs `handler` (from `dispatch()`) once the bus connection is lost.
    public func onDisconnect(_ handler: @escaping () -> Void) {
        state.withLock { disconnectHandler = handler }
    }

    /// Calls a method and waits for its reply; an error reply is thrown as `DBusError`.
    ///
    /// `timeout` is in seconds; `nil` uses libdbus's default (25 s).
    public func call(
        destination: String?, path: String, interface: String?, method: String,
        arguments: [DBusValue] = [], timeout: Double? = nil
    ) throws -> [DBusValue] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, method: method)
        try message.append(arguments)
        let error = CErrorBox()
        guard let reply = dbus_connection_send_with_reply_and_block(
            raw, message.raw, Self.milliseconds(timeout), &error.raw)
        else {
            throw error.swiftError("calling \(interface ?? "").\(method)")
        }
        return try Message(adopting: reply).arguments()
    }

    /// Sends a method call without waiting for (or wanting) a reply.
    public func callNoReply(
        destination: String?, path: String, interface: String?, method: String, arguments: [DBusValue] = []
    ) throws {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, method: method)
        try message.append(arguments)
        dbus_message_set_no_reply(message.raw, 1)
        try send(message)
    }

    /// Emits a signal from `path`; `destination` makes it unicast.
    public func emitSignal(
        path: String, interface: String, name: String, arguments: [DBusValue] = [], destination: String? = nil
    ) throws {
        try Names.checkPath(path)
        try Names.checkInterface(interface)
        try Names.checkMember(name)
        if let destination { try Names.checkBusName(destination) }
        for argument in arguments { try argument.validate() }
        if let whole = WireMessage.signal(path: path, interface: interface, name: name, destination: destination, values: arguments,
                                          serial: takeWireSerial()) {
            return try send(whole)
        }
        let message = try Message.signal(path: path, interface: interface, name: name)
        if let destination { dbus_message_set_destination(message.raw, destination) }
        try message.append(arguments)
        try send(message)
    }

    func send(_ message: Message) throws {
        guard dbus_connection_send(raw, message.raw, nil) != 0 else { throw DBusError.noMemory }
    }

    /// Blocks until every queued outgoing message has been written.
    public func flush() { dbus_connection_flush(raw) }

    /// Handles every message already received; returns whether any was handled.
    @discardableResult
    public func dispatch() -> Bool {
        var handled = false
        while dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS {
            dbus_connection_dispatch(raw)
            handled = true
        }
        return handled
    }

    /// Reads from the socket (waiting at most `timeout` seconds), then dispatches. For loops without `EventLoop`.
    public func readWriteDispatch(timeout: Double) -> Bool {
        let connected = dbus_connection_read_write(raw, Self.milliseconds(timeout)) != 0
        dispatch()
        return connected
    }

    static func milliseconds(_ seconds: Double?) -> Int32 {
        guard let seconds else { return Int32(CDBUS_TIMEOUT_USE_DEFAULT) }
        let ms = (seconds * 1000).rounded(.up)
        return ms >= Double(Int32.max) ? Int32.max : Int32(max(0, ms))
    }

    // MARK: Signals

    /// Subscribes to signals: adds a bus match rule and runs `handler` for each match during `dispatch()`.
    ///
    /// `sender` is only passed to the bus (signals arrive from unique names, so it is not re-checked locally).
    /// `arg0` matches signals whose first argument is that string (e.g. one name's `NameOwnerChanged`),
    /// so the bus does not wake us for the others.
    @discardableResult
    public func onSignal(
        interface: String?, member: String?, path: String? = nil, sender: String? = nil, arg0: String? = nil,
        _ handler: @escaping (DBusSignal) -> Void
    ) throws -> DBusSignalSubscription {
        var parts = ["type='signal'"]
        if let sender { try Names.checkBusName(sender); parts.append("sender='\(sender)'") }
        if let interface { try Names.checkInterface(interface); parts.append("interface='\(interface)'") }
        if let member { try Names.checkMember(member); parts.append("member='\(member)'") }
        if let path { try Names.checkPath(path); parts.append("path='\(path)'") }
        if let arg0 {
            guard !arg0.contains("'"), !arg0.utf8.contains(0) else { throw DBusError.invalidArgs("arg0 match contains a quote or NUL") }
            parts.append("arg0='\(arg0)'")
        }
        let rule = parts.joined(separator: ",")
        try addMatch(rule)
        let id = state.withLock { () -> Int in
            let id = nextHandlerID
            nextHandlerID += 1
            signalHandlers[id] = SignalHandler(
                interface: interface, member: member, path: path, arg0: arg0, matchRule: rule, handler: handler)
            return id
        }
        return DBusSignalSubscription(id: id)
    }

    /// Stops a subscription made with `onSignal` and removes its match rule.
    public func cancel(_ subscription: DBusSignalSubscription) {
        let removed = state.withLock { signalHandlers.removeValue(forKey: subscription.id) }
        if let removed { try? removeMatch(removed.matchRule) }
    }

    /// Adds a raw match rule (`type='signal',interface='…'`) on the bus.
    public func addMatch(_ rule: String) throws {
        let error = CErrorBox()
        guard !rule.utf8.contains(0) else { throw DBusError.invalidArgs("match rule contains NUL") }
        dbus_bus_add_match(raw, rule, &error.raw)
        if error.isSet { throw error.swiftError("AddMatch") }
    }

    /// Removes a match rule added with `addMatch`.
    public func removeMatch(_ rule: String) throws {
        let error = CErrorBox()
        guard !rule.utf8.contains(0) else { throw DBusError.invalidArgs("match rule contains NUL") }
        dbus_bus_remove_match(raw, rule, &error.raw)
        if error.isSet { throw error.swiftError("RemoveMatch") }
    }

    // MARK: Incoming messages

    fileprivate func handle(_ rawMessage: OpaquePointer) -> Bool {
        let message = Message(retaining: rawMessage)
        switch message.type {
        case DBUS_MESSAGE_TYPE_METHOD_CALL:
            return handleMethodCall(message)
        case DBUS_MESSAGE_TYPE_SIGNAL:
            if message.interface == "org.freedesktop.DBus.Local", message.member == "Disconnected" {
                state.withLock { disconnectHandler }?()
                return true
            }
            deliverSignal(message)
            return false
        default:
            return false
        }
    }

    private func deliverSignal(_ message: Message) {
        let interface = message.interface, member = message.member, path = message.path
        let matching = state.withLock { () -> [SignalHandler] in
            signalHandlers.keys.sorted().compactMap { id -> SignalHandler? in
                guard let entry = signalHandlers[id] else { return nil }
                if let wanted = entry.interface, wanted != interface { return nil }
                if let wanted = entry.member, wanted != member { return nil }
                if let wanted = entry.path, wanted != path { return nil }
                return entry
            }
        }
        guard !matching.isEmpty, let arguments = try? message.arguments() else { return }
        let signal = DBusSignal(
            sender: message.sender ?? "", path: path ?? "", interface: interface ?? "", member: member ?? "",
            arguments: arguments)
        for entry in matching where entry.arg0 == nil || entry.arg0 == arguments.first?.string { entry.handler(signal) }
    }
}

/// libdbus calls this for every incoming message; `userData` is the unretained `DBusConnection`.
private func connectionFilter(
    _ connection: OpaquePointer?, _ message: OpaquePointer?, _ userData: UnsafeMutableRawPointer?
) -> DBusHandlerResult {
    guard let message, let userData else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let owner = Unmanaged<DBusConnection>.fromOpaque(userData).takeUnretainedValue()
    return owner.handle(message) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

/// libdbus must be told once, before any connection, that it is used from several threads.
private let ensureThreadsInitialised: Void = { _ = dbus_threads_init_default() }()

/// A received signal.
public struct DBusSignal: Sendable {
    /// Unique bus name of the emitter.
    public var sender: String
    /// Object path it was emitted from.
    public var path: String
    /// Interface name.
    public var interface: String
    /// Signal name.
    public var member: String
    /// The signal's arguments.
    public var arguments: [DBusValue]
}

/// A handle for `DBusConnection.cancel(_:)`.
public struct DBusSignalSubscription: Hashable, Sendable {
    let id: Int
}

/// What `DBusConnection.onMethodCall` hears.
public enum MethodCallEvent: Sendable {
    /// A call is being served; its arguments hold about this many bytes (`DBusValue.payloadSize`).
    case served(argumentBytes: Int)
    /// A call's reply went out (or none was expected).
    case answered
}

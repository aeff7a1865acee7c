import CDBus
import Platform

extension DBusConnection {
    /// Sends a method call and returns at once; `completion` runs once with the reply or error,
    /// on the thread that dispatches this connection (the `EventLoop`), never from this call.
    ///
    /// Use it from handlers that must not stall the loop, e.g. `Notify` to a slow notification server.
    public func callAsync(
        destination: String?, path: String, interface: String?, method: String,
        arguments: [DBusValue] = [], timeout: Double? = nil,
        completion: @escaping (Result<[DBusValue], DBusError>) -> Void
    ) throws {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, method: method)
        try message.append(arguments)
        var pendingCall: OpaquePointer?
        guard dbus_connection_send_with_reply(raw, message.raw, &pendingCall, Self.milliseconds(timeout)) != 0 else {
            throw DBusError.noMemory
        }
        guard let pendingCall else {
            throw DBusError(name: DBusError.Name.disconnected, message: "the connection is closed")
        }
        let waiter = PendingReply(completion: completion)
        let box = Unmanaged.passRetained(waiter).toOpaque()
        guard dbus_pending_call_set_notify(pendingCall, pendingCallNotify, box, releasePendingReply) != 0 else {
            Unmanaged<PendingReply>.fromOpaque(box).release()
            dbus_pending_call_cancel(pendingCall)
            dbus_pending_call_unref(pendingCall)
            throw DBusError.noMemory
        }
        // Another thread may have completed the call before the notify function was set.
        if dbus_pending_call_get_completed(pendingCall) != 0 { waiter.finish(pendingCall) }
        dbus_pending_call_unref(pendingCall)
    }
}

/// Carries a completion through libdbus; `finish` runs it at most once.
private final class PendingReply {
    private let lock = Lock()
    private var completion: ((Result<[DBusValue], DBusError>) -> Void)?

    init(completion: @escaping (Result<[DBusValue], DBusError>) -> Void) { self.completion = completion }

    func finish(_ pendingCall: OpaquePointer) {
        guard let completion = lock.withLock({ () -> ((Result<[DBusValue], DBusError>) -> Void)? in
            defer { self.completion = nil }
            return self.completion
        }) else { return }
        guard let raw = dbus_pending_call_steal_reply(pendingCall) else {
            completion(.failure(DBusError(name: DBusError.Name.noReply, message: "no reply")))
            return
        }
        let reply = Message(adopting: raw)
        if reply.type == DBUS_MESSAGE_TYPE_ERROR {
            completion(.failure(reply.asError()))
        } else {
            do { completion(.success(try reply.arguments())) } catch {
                completion(.failure(DBusConnection.asDBusError(error)))
            }
        }
    }
}

private func pendingCallNotify(_ pendingCall: OpaquePointer?, _ data: UnsafeMutableRawPointer?) {
    guard let pendingCall, let data else { return }
    Unmanaged<PendingReply>.fromOpaque(data).takeUnretainedValue().finish(pendingCall)
}

private func releasePendingReply(_ data: UnsafeMutableRawPointer?) {
    guard let data else { return }
    Unmanaged<PendingReply>.fromOpaque(data).release()
}

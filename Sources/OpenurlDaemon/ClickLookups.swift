import ConfigFiles
import DBus
import Execution
import Launching
import Platform
import RouterContract
import Routing

/// What a click needs that its call may not say (who sent it, on which display) is looked up
/// without the loop ever waiting: the caller's process id comes with the handler's call (or is
/// asked of the bus asynchronously), the systemd manager's environment is read asynchronously,
/// and the method's reply is deferred until the answers are in. A warm `openurl` click with a
/// display costs the caller its one `Open` and the daemon no call at all.
extension Daemon {
    /// Runs `body`, which answers once through the sink it is given: an answer given before
    /// `body` returns becomes the method's return values, a later one a deferred reply.
    func answering(_ context: DBusMessageContext, _ body: (@escaping (Result<[DBusValue], Error>) -> Void) throws -> Void) throws -> [DBusValue] {
        let pending = PendingReply()
        try body { result in pending.give(result) }
        if let immediate = pending.takeImmediate() { return try immediate.get() }
        pending.deferred = context.deferReply()
        return []
    }

    /// `options` completed, when `wantsOpener`, with the opener (if a rule matches on it) and,
    /// when `wantsDisplay`, the click's display variables (those the daemon lacks); `then` runs
    /// on the loop's thread, at once when nothing needs looking up.
    func completing(_ options: OpenOptions, context: DBusMessageContext, wantsOpener: Bool, wantsDisplay: Bool,
                    then: @escaping (OpenOptions) -> Void) {
        var options = options
        let sender = context.sender
        var wantsOpener = wantsOpener && options.opener == nil && rules.engine.usesOpener
        if wantsOpener, let known = openers[sender] {
            options.opener = known
            wantsOpener = false
        }
        let needsDisplay = wantsDisplay && session.needsLookup(sent: options.environment)
        if wantsDisplay { options.environment = session.missing(sent: options.environment) }
        guard wantsOpener || needsDisplay else { return then(options) }
        callerProcessID(sent: options.processID, sender: sender, needed: wantsOpener) { [weak self] pid in
            guard let self else { return }
            if wantsOpener, let pid {
                let opener = OpenerDetector().detect(pid: Int32(bitPattern: pid)).routingOpener
                if self.openers.count >= 256 { self.openers.removeAll() }
                self.openers[sender] = opener
                options.opener = opener
            }
            guard needsDisplay else { return then(options) }
            self.systemdDisplay { systemd in
                if SessionEnvironment.hasDisplay(systemd) {
                    options.environment = systemd
                    return then(options)
                }
                self.callerProcessID(sent: pid, sender: sender, needed: true) { pid in
                    let caller = pid.map(SessionEnvironment.processEnvironment) ?? [:]
                    options.environment = SessionEnvironment.hasDisplay(caller) ? caller : [:]
                    then(options)
                }
            }
        }
    }

    /// The caller's process id: the one it sent, else (when `needed`) the bus's answer.
    private func callerProcessID(sent: UInt32?, sender: String, needed: Bool, completion: @escaping (UInt32?) -> Void) {
        if let sent, sent > 0 { return completion(sent) }
        guard needed else { return completion(nil) }
        do {
            try connection.callAsync(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                     method: "GetConnectionUnixProcessID", arguments: [.string(sender)], timeout: 1) { result in
                completion((try? result.get())?.first?.uint32.flatMap { $0 > 0 ? $0 : nil })
            }
        } catch {
            completion(nil)
        }
    }

    /// The display variables of the systemd user manager, read without waiting; empty when no
    /// systemd manager owns its name on this bus (it is never activated for this).
    private func systemdDisplay(_ completion: @escaping ([String: String]) -> Void) {
        let name = "org.freedesktop.systemd1"
        do {
            try connection.callAsync(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                     method: "NameHasOwner", arguments: [.string(name)], timeout: 1) { [connection] owned in
                guard (try? owned.get())?.first?.bool == true else { return completion([:]) }
                do {
                    try connection.callAsync(destination: name, path: "/org/freedesktop/systemd1", interface: "org.freedesktop.DBus.Properties",
                                             method: "Get", arguments: [.string("org.freedesktop.systemd1.Manager"), .string("Environment")],
                                             timeout: 1) { reply in
                        completion(SessionEnvironment.displayVariables((try? reply.get())?.first?.unwrapped.stringArray ?? []))
                    }
                } catch {
                    completion([:])
                }
            }
        } catch {
            completion([:])
        }
    }
}

/// A method's answer, returned at once when it is ready before the handler returns, else sent
/// later as a deferred reply. Used on the loop's thread only.
private final class PendingReply: @unchecked Sendable {
    private var immediate: Result<[DBusValue], Error>?
    private var returned = false
    var deferred: DBusDeferredReply?

    func give(_ result: Result<[DBusValue], Error>) {
        guard returned else { immediate = result; return }
        switch result {
        case .success(let values): deferred?.send(values)
        case .failure(let error): deferred?.fail(error)
        }
    }

    func takeImmediate() -> Result<[DBusValue], Error>? {
        returned = true
        defer { immediate = nil }
        return immediate
    }
}

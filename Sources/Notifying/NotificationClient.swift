import RouterContract
import DBus
import Platform
import URLModel

/// One desktop notification to send (freedesktop Desktop Notifications `Notify`).
public struct NotificationRequest: Sendable, Equatable {
    /// How insistent the notification is (the `urgency` hint, a byte).
    public enum Urgency: UInt8, Sendable {
        /// Background information.
        case low = 0
        /// The default.
        case normal = 1
        /// Errors the user must see; many servers keep these until dismissed.
        case critical = 2
    }

    /// The title line (never markup).
    public var summary: String
    /// The text; escaped before sending when the server interprets markup.
    public var body: String
    /// Action buttons as (key, label); the key comes back in `ActionInvoked`.
    public var actions: [(key: String, label: String)]
    /// Urgency.
    public var urgency: Urgency
    /// Milliseconds until it expires: -1 the server's default, 0 never.
    public var timeout: Int32
    /// A freedesktop icon name.
    public var icon: String

    /// Creates a request; the defaults suit a copy confirmation.
    public init(summary: String, body: String, actions: [(key: String, label: String)] = [],
                urgency: Urgency = .normal, timeout: Int32 = -1, icon: String = NotificationClient.Icon.browser) {
        self.summary = summary
        self.body = body
        self.actions = actions
        self.urgency = urgency
        self.timeout = timeout
        self.icon = icon
    }

    /// Field-by-field equality (tuples are not `Equatable`).
    public static func == (lhs: NotificationRequest, rhs: NotificationRequest) -> Bool {
        lhs.summary == rhs.summary && lhs.body == rhs.body && lhs.urgency == rhs.urgency && lhs.timeout == rhs.timeout
            && lhs.icon == rhs.icon && lhs.actions.map(\.key) == rhs.actions.map(\.key)
            && lhs.actions.map(\.label) == rhs.actions.map(\.label)
    }
}

/// Why a notification went away (`NotificationClosed` reason).
public enum NotificationCloseReason: Equatable, Sendable {
    /// It timed out.
    case expired
    /// The user dismissed it.
    case dismissed
    /// `CloseNotification` was called.
    case closedByCall
    /// Undefined.
    case undefined
    /// The server left the bus (it crashed, or was stopped) with it on screen: nobody answered.
    case serverGone

    init(code: UInt32) {
        switch code {
        case 1: self = .expired
        case 2: self = .dismissed
        case 3: self = .closedByCall
        default: self = .undefined
        }
    }
}

/// What `GetServerInformation` said.
public struct NotificationServerInfo: Sendable, Equatable, CustomStringConvertible {
    /// Server name (`dunst`).
    public var name: String
    /// Vendor.
    public var vendor: String
    /// Server version.
    public var version: String
    /// Spec version it implements.
    public var specVersion: String

    /// `dunst 1.9.0 (knopwob, spec 1.2)`, for `openurl status`.
    public var description: String { "\(name) \(version) (\(vendor), spec \(specVersion))" }
}

/// Why a notification could not be shown.
public struct NotificationError: Error, Equatable, CustomStringConvertible {
    /// The explanation, ready to log.
    public var message: String
    /// The D-Bus error name behind it, if any.
    public var dbusName: String?

    /// The message.
    public var description: String { message }

    static func from(_ error: DBusError) -> NotificationError {
        switch error.name {
        case DBusError.Name.serviceUnknown, "org.freedesktop.DBus.Error.NameHasNoOwner":
            return NotificationError(
                message: "no notification server on the session bus (\(NotificationClient.busName) has no owner): "
                    + "start one, e.g. dunst, mako or your desktop's", dbusName: error.name)
        case DBusError.Name.noReply:
            return NotificationError(message: "the notification server did not answer in time", dbusName: error.name)
        default:
            return NotificationError(message: "notification failed: \(error)", dbusName: error.name)
        }
    }
}

/// A client of the desktop's notification server, on the daemon's own connection: servers send
/// `ActionInvoked` and `NotificationClosed` only to the connection that called `Notify`, so the
/// connection must live as long as the notifications do.
///
/// Callbacks run on the thread that dispatches the connection (the daemon's `EventLoop`).
/// Capabilities are fetched once and cached until the server's bus name changes owner.
public final class NotificationClient: @unchecked Sendable {
    /// The well-known name of the notification server.
    public static let busName = "org.freedesktop.Notifications"
    /// Its object path.
    public static let objectPath = "/org/freedesktop/Notifications"
    /// Its interface.
    public static let interface = "org.freedesktop.Notifications"
    /// The app name sent with every notification.
    public static let appName = "openurld"
    /// The `desktop-entry` hint: our desktop id without `.desktop`.
    public static let desktopEntry = Router1.busName

    /// Icon names used by openurld.
    public enum Icon {
        /// For links and ask prompts.
        public static let browser = "web-browser"
        /// For copy confirmations.
        public static let copy = "edit-copy"
        /// For errors.
        public static let error = "dialog-error"
    }

    /// The connection notifications are sent on.
    public let connection: DBusConnection
    /// Seconds to wait for the server to answer a call.
    public var callTimeout: Double
    /// Seconds to wait for `Notify` sent by `notifyAsync` (nil: `callTimeout`). Nothing waits
    /// on it, so it can be long enough for a loaded desktop.
    public var notifyTimeout: Double?

    private let lock = Lock()
    private var cachedCapabilities: Set<String>?
    private var pending: [UInt32: Handlers] = [:]
    private var subscriptions: [DBusSignalSubscription] = []
    /// Called once each when a server next takes the name, by token.
    private var appearanceWaiters: [Int: () -> Void] = [:]
    private var nextWaiter = 0

    private struct Handlers {
        var onAction: ((String) -> Void)?
        var onClose: ((NotificationCloseReason) -> Void)?
    }

    /// Subscribes to the server's signals and to owner changes of its name on `connection`.
    public init(connection: DBusConnection, callTimeout: Double = 2) throws {
        self.connection = connection
        self.callTimeout = callTimeout
        let actionSub = try connection.onSignal(
            interface: Self.interface, member: "ActionInvoked", path: Self.objectPath, sender: Self.busName
        ) { [weak self] signal in
            guard let id = signal.arguments.first?.uint32, let key = signal.arguments.dropFirst().first?.string else { return }
            self?.actionInvoked(id: id, key: key)
        }
        let closedSub = try connection.onSignal(
            interface: Self.interface, member: "NotificationClosed", path: Self.objectPath, sender: Self.busName
        ) { [weak self] signal in
            guard let id = signal.arguments.first?.uint32 else { return }
            self?.closed(id: id, reason: NotificationCloseReason(code: signal.arguments.dropFirst().first?.uint32 ?? 4))
        }
        let ownerSub = try connection.onSignal(
            interface: "org.freedesktop.DBus", member: "NameOwnerChanged", path: "/org/freedesktop/DBus",
            sender: "org.freedesktop.DBus", arg0: Self.busName
        ) { [weak self] signal in
            // NameOwnerChanged(name, old owner, new owner): an empty new owner means the server left.
            self?.serverChanged(newOwner: signal.arguments.dropFirst(2).first?.string ?? "")
        }
        subscriptions = [actionSub, closedSub, ownerSub]
    }

    deinit {
        for subscription in subscriptions { connection.cancel(subscription) }
    }

    /// The server's capabilities (`actions`, `body-markup`, …), fetched once and cached.
    public func capabilities() throws -> Set<String> {
        if let cached = lock.withLock({ cachedCapabilities }) { return cached }
        let reply = try call("GetCapabilities")
        let capabilities = Set(reply.first?.stringArray ?? [])
        lock.withLock { cachedCapabilities = capabilities }
        return capabilities
    }

    /// Whether the server shows action buttons (false when there is no server).
    public var supportsActions: Bool { (try? capabilities())?.contains("actions") ?? false }

    /// `GetServerInformation`, for `openurl status`.
    public func serverInformation() throws -> NotificationServerInfo {
        let reply = try call("GetServerInformation")
        let strings = reply.map { $0.string ?? "" }
        guard strings.count >= 4 else {
            throw NotificationError(message: "GetServerInformation returned (\(DBusValue.signature(of: reply)))", dbusName: nil)
        }
        return NotificationServerInfo(name: strings[0], vendor: strings[1], version: strings[2], specVersion: strings[3])
    }

    /// Shows `request` and returns its id. `onAction` gets the key of a chosen action,
    /// `onClose` the reason it went away; both run on the connection's dispatching thread.
    /// With no server it throws a `NotificationError` at once (the bus answers `ServiceUnknown`).
    @discardableResult
    public func notify(_ request: NotificationRequest, replacing: UInt32 = 0,
                       onAction: ((String) -> Void)? = nil,
                       onClose: ((NotificationCloseReason) -> Void)? = nil) throws -> UInt32 {
        let arguments = try notifyArguments(request, replacing: replacing)
        let reply = try call("Notify", arguments)
        guard let id = reply.first?.uint32 else {
            throw NotificationError(message: "Notify returned (\(DBusValue.signature(of: reply)))", dbusName: nil)
        }
        register(id: id, onAction: onAction, onClose: onClose)
        return id
    }

    /// `notify` without blocking the caller: `completion` runs on the dispatching thread with the id.
    /// Capabilities, when not yet known, are fetched first without blocking either, so a hung
    /// notification server never stalls the caller's loop.
    public func notifyAsync(_ request: NotificationRequest, replacing: UInt32 = 0,
                            onAction: ((String) -> Void)? = nil,
                            onClose: ((NotificationCloseReason) -> Void)? = nil,
                            completion: @escaping (Result<UInt32, NotificationError>) -> Void) {
        capabilitiesAsync { [weak self] capabilities in
            guard let self else { return }
            switch capabilities {
            case .failure(let error):
                completion(.failure(error))
            case .success(let capabilities):
                self.sendNotify(self.notifyArguments(request, replacing: replacing, markup: capabilities.contains("body-markup")),
                                onAction: onAction, onClose: onClose, completion: completion)
            }
        }
    }

    /// The capabilities, from the cache or fetched without blocking; `completion` runs on the
    /// dispatching thread (at once when cached).
    public func capabilitiesAsync(_ completion: @escaping (Result<Set<String>, NotificationError>) -> Void) {
        if let cached = lock.withLock({ cachedCapabilities }) { return completion(.success(cached)) }
        do {
            try connection.callAsync(destination: Self.busName, path: Self.objectPath, interface: Self.interface,
                                     method: "GetCapabilities", timeout: callTimeout) { [weak self] result in
                switch result {
                case .success(let reply):
                    let capabilities = Set(reply.first?.stringArray ?? [])
                    self?.lock.withLock { self?.cachedCapabilities = capabilities }
                    completion(.success(capabilities))
                case .failure(let error):
                    completion(.failure(NotificationError.from(error)))
                }
            }
        } catch let error as DBusError {
            completion(.failure(NotificationError.from(error)))
        } catch {
            completion(.failure(NotificationError(message: "\(error)", dbusName: nil)))
        }
    }

    private func sendNotify(_ arguments: [DBusValue], onAction: ((String) -> Void)?, onClose: ((NotificationCloseReason) -> Void)?,
                            completion: @escaping (Result<UInt32, NotificationError>) -> Void) {
        do {
            try connection.callAsync(
                destination: Self.busName, path: Self.objectPath, interface: Self.interface, method: "Notify",
                arguments: arguments, timeout: notifyTimeout ?? callTimeout
            ) { [weak self] result in
                switch result {
                case .success(let reply):
                    guard let id = reply.first?.uint32 else {
                        completion(.failure(NotificationError(message: "Notify returned (\(DBusValue.signature(of: reply)))", dbusName: nil)))
                        return
                    }
                    self?.register(id: id, onAction: onAction, onClose: onClose)
                    completion(.success(id))
                case .failure(let error):
                    completion(.failure(NotificationError.from(error)))
                }
            }
        } catch let error as DBusError {
            completion(.failure(NotificationError.from(error)))
        } catch {
            completion(.failure(NotificationError(message: "\(error)", dbusName: nil)))
        }
    }

    /// Asks the server to close notification `id` (its `onClose` then gets `.closedByCall`).
    public func close(id: UInt32) throws {
        _ = try call("CloseNotification", [.uint32(id)])
    }

    /// Asks the server to close notification `id` without waiting for its answer (safe on the loop thread).
    public func dismiss(id: UInt32) {
        try? connection.callNoReply(destination: Self.busName, path: Self.objectPath, interface: Self.interface,
                                    method: "CloseNotification", arguments: [.uint32(id)])
    }

    /// Ids of notifications whose callbacks are still waiting.
    public var pendingIDs: [UInt32] { lock.withLock { pending.keys.sorted() } }

    /// The `Notify` arguments: app name, replaces id, icon, summary, body (escaped when the server
    /// reads markup), actions as key/label pairs, hints (`urgency`, `desktop-entry`), timeout.
    func notifyArguments(_ request: NotificationRequest, replacing: UInt32) throws -> [DBusValue] {
        notifyArguments(request, replacing: replacing, markup: try capabilities().contains("body-markup"))
    }

    /// The `Notify` arguments for a server that does (`markup`) or does not read markup.
    func notifyArguments(_ request: NotificationRequest, replacing: UInt32, markup: Bool) -> [DBusValue] {
        let body = markup ? NotificationText.escapeMarkup(request.body) : request.body
        let actions = request.actions.flatMap { [$0.key, $0.label] }
        return [
            .string(Self.appName), .uint32(replacing), .string(request.icon), .string(request.summary),
            .string(body), .stringArray(actions),
            .vardict(["urgency": .byte(request.urgency.rawValue), "desktop-entry": .string(Self.desktopEntry)]),
            .int32(request.timeout),
        ]
    }

    private func call(_ method: String, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
        do {
            return try connection.call(destination: Self.busName, path: Self.objectPath, interface: Self.interface,
                                       method: method, arguments: arguments, timeout: callTimeout)
        } catch let error as DBusError {
            throw NotificationError.from(error)
        }
    }

    /// Keeps the handlers of notification `id`; a notification that replaced another under the
    /// same id replaces its handlers too (with none: the old ones go).
    private func register(id: UInt32, onAction: ((String) -> Void)?, onClose: ((NotificationCloseReason) -> Void)?) {
        lock.withLock { pending[id] = onAction != nil || onClose != nil ? Handlers(onAction: onAction, onClose: onClose) : nil }
    }

    /// Calls `callback` on the dispatching thread the next time a server takes
    /// `org.freedesktop.Notifications` (started, or restarted after a crash); returns a token
    /// for `cancelWaiting`.
    public func whenServerAppears(_ callback: @escaping () -> Void) -> Int {
        lock.withLock {
            nextWaiter += 1
            appearanceWaiters[nextWaiter] = callback
            return nextWaiter
        }
    }

    /// Forgets a `whenServerAppears` callback that is no longer wanted.
    public func cancelWaiting(_ token: Int) {
        _ = lock.withLock { appearanceWaiters.removeValue(forKey: token) }
    }

    private func actionInvoked(id: UInt32, key: String) {
        // Servers follow an action with NotificationClosed; the action is the answer, so the entry
        // stays until the close arrives but its action fires once.
        let handler = lock.withLock { () -> ((String) -> Void)? in
            defer { pending[id]?.onAction = nil }
            return pending[id]?.onAction
        }
        handler?(key)
    }

    private func closed(id: UInt32, reason: NotificationCloseReason) {
        lock.withLock { pending.removeValue(forKey: id) }?.onClose?(reason)
    }

    /// A new (or no) server: its capabilities may differ and old ids mean nothing to it. What
    /// the old one showed is gone (`.serverGone`, which is nobody's answer); a new one wakes
    /// whoever waits for it.
    private func serverChanged(newOwner: String) {
        let (orphaned, waiters) = lock.withLock { () -> ([Handlers], [() -> Void]) in
            cachedCapabilities = nil
            defer { pending = [:] }
            var waiters: [() -> Void] = []
            if !newOwner.isEmpty {
                waiters = appearanceWaiters.keys.sorted().compactMap { appearanceWaiters[$0] }
                appearanceWaiters = [:]
            }
            return (pending.keys.sorted().compactMap { pending[$0] }, waiters)
        }
        for handlers in orphaned { handlers.onClose?(.serverGone) }
        for waiter in waiters { waiter() }
    }
}

import CDBus
import Platform

/// A `poll(2)` loop over D-Bus connections plus the caller's own file descriptors and timers.
///
/// libdbus tells the loop which descriptors and timeouts it needs (watch and timeout
/// functions), so an idle loop sleeps in `poll` with no timeout: zero wake-ups.
/// `stop()` and `perform(_:)` may be called from any thread; everything else runs on
/// the thread that calls `run`.
public final class EventLoop: @unchecked Sendable {
    private let lock = Lock()
    /// A self-pipe: writing a byte to it interrupts `poll`.
    private let wakePipe: WakePipe
    private var connections: [DBusConnection] = []
    private var watches: [Int: OpaquePointer] = [:]
    private var dbusTimeouts: [Int: (timeout: OpaquePointer, deadline: UInt64?)] = [:]
    private var sources: [Int: Source] = [:]
    private var timers: [Int: Timer] = [:]
    private var pending: [() -> Void] = []
    private var nextID = 1
    private var stopRequested = false
    private var polling = false
    /// How many times `poll` returned; tests use it to prove an idle loop does not wake.
    public private(set) var wakeUps = 0

    private struct Source { var fd: Int32; var events: Int16; var handler: (Int16) -> Void }
    private struct Timer { var deadline: UInt64; var interval: UInt64?; var handler: () -> Void }

    /// The clock the loop's own timers (`addTimer`) run on; libdbus's call timeouts always use
    /// the monotonic clock.
    public let clock: LoopClock

    /// Creates a loop whose timers run on `clock`; throws if the kernel refuses a pipe.
    public init(clock: LoopClock = .monotonic) throws {
        wakePipe = try WakePipe()
        self.clock = clock
    }

    /// Moves a manual clock on by `seconds` and runs the timers that fall due (tests drive
    /// timeouts of minutes this way, in no time). Any thread.
    public func advanceClock(by seconds: Double) {
        clock.advance(by: Self.nanoseconds(seconds))
        wake()
    }

    deinit {
        for connection in connections {
            dbus_connection_set_watch_functions(connection.raw, nil, nil, nil, nil, nil)
            dbus_connection_set_timeout_functions(connection.raw, nil, nil, nil, nil, nil)
            dbus_connection_set_dispatch_status_function(connection.raw, nil, nil, nil)
            dbus_connection_set_wakeup_main_function(connection.raw, nil, nil, nil)
        }
        wakePipe.close()
    }

    /// Serves `connection` from this loop: its socket is polled and its messages dispatched.
    public func add(_ connection: DBusConnection) throws {
        lock.withLock { connections.append(connection) }
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard dbus_connection_set_watch_functions(connection.raw, addWatch, removeWatch, toggleWatch, me, nil) != 0,
              dbus_connection_set_timeout_functions(
                connection.raw, addTimeout, removeTimeout, toggleTimeout, me, nil) != 0
        else { throw DBusError.noMemory }
        dbus_connection_set_dispatch_status_function(connection.raw, dispatchStatusChanged, me, nil)
        dbus_connection_set_wakeup_main_function(connection.raw, wakeUpLoop, me, nil)
        wake()
    }

    /// Calls `handler` with the returned `revents` whenever `fd` is ready for `events` (default: readable).
    @discardableResult
    public func watch(fd: Int32, events: Int16 = PollEvent.readable, _ handler: @escaping (Int16) -> Void) -> EventLoopToken {
        let id = lock.withLock { () -> Int in
            let id = takeID()
            sources[id] = Source(fd: fd, events: events, handler: handler)
            return id
        }
        wake()
        return EventLoopToken(id: id)
    }

    /// Calls `handler` after `seconds`, and then every `repeating` seconds if given.
    @discardableResult
    public func addTimer(after seconds: Double, repeating: Double? = nil, _ handler: @escaping () -> Void) -> EventLoopToken {
        let id = lock.withLock { () -> Int in
            let id = takeID()
            timers[id] = Timer(
                deadline: clock.now() + Self.nanoseconds(seconds), interval: repeating.map(Self.nanoseconds),
                handler: handler)
            return id
        }
        wake()
        return EventLoopToken(id: id)
    }

    /// Removes a descriptor watch or timer.
    public func remove(_ token: EventLoopToken) {
        lock.withLock {
            sources[token.id] = nil
            timers[token.id] = nil
        }
        wake()
    }

    /// Runs `block` on the loop's thread during its next iteration (thread-safe).
    public func perform(_ block: @escaping () -> Void) {
        lock.withLock { pending.append(block) }
        wake()
    }

    /// Makes the current `run` return after this iteration, or the next `run` return at once (thread-safe).
    public func stop() {
        lock.withLock { stopRequested = true }
        wake()
    }

    /// Runs until `stop()` is called or, if given, `timeout` seconds have passed; returns false on timeout.
    @discardableResult
    public func run(timeout: Double? = nil) -> Bool {
        let end = timeout.map { Self.now() + Self.nanoseconds($0) }
        while true {
            let stopping = lock.withLock { () -> Bool in
                defer { stopRequested = false }
                return stopRequested
            }
            if stopping { return true }
            let now = Self.now()
            if let end, now >= end { return false }
            iterate(limit: end.map { $0 - now })
        }
    }

    /// One poll, its handlers, due timers, queued blocks and message dispatch; waits at most `limit` ns.
    func iterate(limit: UInt64?) {
        var fds: [(fd: Int32, events: Int16)] = [(wakePipe.readFD, PollEvent.readable)]
        var owners: [Owner] = [.wake]
        var wait = lock.withLock { () -> UInt64? in
            for (key, watch) in watches where dbus_watch_get_enabled(watch) != 0 {
                let flags = dbus_watch_get_flags(watch)
                var events: Int16 = 0
                if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= PollEvent.readable }
                if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= PollEvent.writable }
                fds.append((dbus_watch_get_unix_fd(watch), events))
                owners.append(.dbus(key))
            }
            for (id, source) in sources {
                fds.append((source.fd, source.events))
                owners.append(.source(id))
            }
            polling = true
            let now = Self.now(), clockNow = clock.now()
            // Under a manual clock real time moves no timer: only `advanceClock` (which wakes the loop) does.
            let timerWaits = clock.isManual ? [] : timers.values.map { $0.deadline > clockNow ? $0.deadline - clockNow : 0 }
            let dbusWaits = dbusTimeouts.values.compactMap(\.deadline).map { $0 > now ? $0 - now : 0 }
            return (timerWaits + dbusWaits).min()
        }
        if connections.contains(where: { dbus_connection_get_dispatch_status($0.raw) == DBUS_DISPATCH_DATA_REMAINS }) {
            wait = 0
        }
        if let limit { wait = min(wait ?? limit, limit) }
        let millis: Int32 = wait.map { Int32(clamping: ($0 + 999_999) / 1_000_000) } ?? -1
        let revents = Sys.poll(fds, timeoutMilliseconds: millis)
        lock.withLock {
            polling = false
            wakeUps += 1
        }
        if let revents { handleReady(revents, owners) }
        fireDueTimers()
        for block in lock.withLock({ () -> [() -> Void] in defer { pending = [] }; return pending }) { block() }
        for connection in lock.withLock({ connections }) { connection.dispatch() }
    }

    private enum Owner { case wake, dbus(Int), source(Int) }

    private func handleReady(_ revents: [Int16], _ owners: [Owner]) {
        for (revents, owner) in zip(revents, owners) where revents != 0 {
            switch owner {
            case .wake:
                wakePipe.drain()
            case .dbus(let key):
                guard let watch = lock.withLock({ watches[key] }) else { continue }
                var flags: UInt32 = 0
                if revents & PollEvent.readable != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
                if revents & PollEvent.writable != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
                if revents & PollEvent.error != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
                if revents & PollEvent.hangup != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
                _ = dbus_watch_handle(watch, flags)
            case .source(let id):
                guard let source = lock.withLock({ sources[id] }) else { continue }
                source.handler(revents)
            }
        }
    }

    private func fireDueTimers() {
        let now = Self.now(), clockNow = clock.now()
        let (due, dueTimeouts) = lock.withLock { () -> ([() -> Void], [OpaquePointer]) in
            var handlers: [() -> Void] = []
            for (id, timer) in timers.sorted(by: { $0.value.deadline < $1.value.deadline }) where timer.deadline <= clockNow {
                handlers.append(timer.handler)
                if let interval = timer.interval { timers[id]?.deadline = clockNow + interval } else { timers[id] = nil }
            }
            var expired: [OpaquePointer] = []
            for (key, entry) in dbusTimeouts {
                guard let deadline = entry.deadline, deadline <= now else { continue }
                expired.append(entry.timeout)
                // libdbus timeouts repeat until removed or disabled.
                dbusTimeouts[key]?.deadline = now + Self.interval(of: entry.timeout)
            }
            return (handlers, expired)
        }
        for handler in due { handler() }
        for timeout in dueTimeouts where lock.withLock({ dbusTimeouts[Self.key(timeout)] != nil }) {
            _ = dbus_timeout_handle(timeout)
        }
    }

    private func takeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Interrupts a blocked `poll` so it sees new sources, timers, blocks or stop requests.
    func wake() {
        wakePipe.signal()
    }

    // MARK: libdbus callbacks (called through the global functions below)

    fileprivate func watchAdded(_ watch: OpaquePointer) {
        lock.withLock { watches[Self.key(watch)] = watch }
        wake()
    }

    fileprivate func watchRemoved(_ watch: OpaquePointer) {
        _ = lock.withLock { watches.removeValue(forKey: Self.key(watch)) }
        wake()
    }

    fileprivate func watchToggled(_ watch: OpaquePointer) {
        if lock.withLock({ polling }) { wake() }
    }

    fileprivate func timeoutChanged(_ timeout: OpaquePointer, present: Bool) {
        lock.withLock {
            guard present else { dbusTimeouts[Self.key(timeout)] = nil; return }
            let enabled = dbus_timeout_get_enabled(timeout) != 0
            dbusTimeouts[Self.key(timeout)] = (timeout, enabled ? Self.now() + Self.interval(of: timeout) : nil)
        }
        wake()
    }

    private static func key(_ pointer: OpaquePointer) -> Int { Int(bitPattern: UnsafeRawPointer(pointer)) }

    private static func interval(of timeout: OpaquePointer) -> UInt64 {
        UInt64(max(0, dbus_timeout_get_interval(timeout))) * 1_000_000
    }

    static func now() -> UInt64 {
        UInt64(MonotonicClock.nanoseconds())
    }

    static func nanoseconds(_ seconds: Double) -> UInt64 {
        seconds <= 0 ? 0 : UInt64(min(seconds, 1e9) * 1e9)
    }
}

/// Identifies a descriptor watch or timer for `EventLoop.remove(_:)`.
public struct EventLoopToken: Hashable, Sendable {
    let id: Int
}

private func loop(_ data: UnsafeMutableRawPointer?) -> EventLoop? {
    data.map { Unmanaged<EventLoop>.fromOpaque($0).takeUnretainedValue() }
}

private func addWatch(_ watch: OpaquePointer?, _ data: UnsafeMutableRawPointer?) -> dbus_bool_t {
    if let watch { loop(data)?.watchAdded(watch) }
    return 1
}

private func removeWatch(_ watch: OpaquePointer?, _ data: UnsafeMutableRawPointer?) {
    if let watch { loop(data)?.watchRemoved(watch) }
}

private func toggleWatch(_ watch: OpaquePointer?, _ data: UnsafeMutableRawPointer?) {
    if let watch { loop(data)?.watchToggled(watch) }
}

private func addTimeout(_ timeout: OpaquePointer?, _ data: UnsafeMutableRawPointer?) -> dbus_bool_t {
    if let timeout { loop(data)?.timeoutChanged(timeout, present: true) }
    return 1
}

private func removeTimeout(_ timeout: OpaquePointer?, _ data: UnsafeMutableRawPointer?) {
    if let timeout { loop(data)?.timeoutChanged(timeout, present: false) }
}

private func toggleTimeout(_ timeout: OpaquePointer?, _ data: UnsafeMutableRawPointer?) {
    if let timeout { loop(data)?.timeoutChanged(timeout, present: true) }
}

private func dispatchStatusChanged(
    _ connection: OpaquePointer?, _ status: DBusDispatchStatus, _ data: UnsafeMutableRawPointer?
) {
    if status == DBUS_DISPATCH_DATA_REMAINS { loop(data)?.wake() }
}

private func wakeUpLoop(_ data: UnsafeMutableRawPointer?) {
    loop(data)?.wake()
}

/// The time an event loop's timers run on: the monotonic clock, or a manual one that only
/// moves when a test says (`EventLoop.advanceClock(by:)`).
public final class LoopClock: @unchecked Sendable {
    /// `CLOCK_MONOTONIC`.
    public static let monotonic = LoopClock(manual: false)
    private let lock = Lock()
    private var manualNanoseconds: UInt64 = 0
    /// True for a clock that moves only when advanced.
    public let isManual: Bool

    private init(manual: Bool) { isManual = manual }

    /// A clock at zero that moves only when advanced.
    public static func manual() -> LoopClock { LoopClock(manual: true) }

    /// Now, in nanoseconds.
    public func now() -> UInt64 {
        isManual ? lock.withLock { manualNanoseconds } : UInt64(MonotonicClock.nanoseconds())
    }

    func advance(by nanoseconds: UInt64) {
        guard isManual else { return }
        lock.withLock { manualNanoseconds += nanoseconds }
    }
}

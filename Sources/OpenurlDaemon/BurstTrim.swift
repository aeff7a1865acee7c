import DBus
import Platform

/// Gives the memory a burst of calls freed back to the system once the daemon is idle again.
/// glibc keeps what a burst frees for reuse: 10,000 parallel calls once left the daemon at
/// 51 MB instead of 24, and 10 MB arguments at 83 MB instead of 44, until the next burst. After
/// a burst (`callsPerBurst` calls, or `bytesPerBurst` of arguments, since the last trim), the
/// first second in which no call starts or is answered runs `Memory.returnFreedPages()`
/// (malloc_trim). Answers count: an `Open` is answered after its routing, which 10,000 queued
/// ones keep busy for seconds after the last arrived (a trim then freed nothing yet). A quiet
/// daemon never trims; a busy one at most once a second, never in the middle of a burst.
final class BurstTrim: @unchecked Sendable {
    /// Calls since the last trim that make a burst.
    static let callsPerBurst = 200
    /// Argument bytes since the last trim that make a burst (one 10 MB URL is one).
    static let bytesPerBurst = 1 << 20
    /// How long no call starts or ends before the trim.
    static let idleSeconds = 1.0

    private let loop: EventLoop
    private let trim: () -> Void
    /// Guards the counts: a deferred reply may go out from another thread.
    private let lock = Lock()
    private var calls = 0
    private var bytes = 0
    private var lastActivity = 0.0
    private var waiting = false
    /// The start is the burst waiting for its trim.
    private var started = false

    /// Trims (by default `Memory.returnFreedPages`) on `loop`'s timers.
    init(loop: EventLoop, trim: @escaping () -> Void = Memory.returnFreedPages) {
        self.loop = loop
        self.trim = trim
    }

    /// Counts the start as a burst: reading the config, the lists and the first clicks free
    /// pieces glibc would keep (3.6 MB on a desktop with real apps), given back once the daemon
    /// has had a quiet second.
    func afterStart() {
        let start = lock.withLock { () -> Bool in
            started = true
            guard !waiting else { return false }
            waiting = true
            return true
        }
        if start { wait(Self.idleSeconds) }
    }

    /// What the connection heard: a call started (with its arguments' size) or was answered.
    func note(_ event: MethodCallEvent) {
        let start = lock.withLock { () -> Bool in
            if case .served(let size) = event {
                calls += 1
                bytes += size
            }
            lastActivity = MonotonicClock.seconds()
            guard !waiting, calls >= Self.callsPerBurst || bytes >= Self.bytesPerBurst else { return false }
            waiting = true
            return true
        }
        if start { wait(Self.idleSeconds) }
    }

    /// One timer at a time: when it fires early (a call came meanwhile) it waits out the rest.
    private func wait(_ seconds: Double) {
        loop.addTimer(after: seconds) { [weak self] in self?.idleCheck() }
    }

    private func idleCheck() {
        let (quiet, burst) = lock.withLock { () -> (Double, (calls: Int, bytes: Int, start: Bool)?) in
            let quiet = MonotonicClock.seconds() - lastActivity
            guard quiet >= Self.idleSeconds else { return (quiet, nil) }
            defer { (calls, bytes, waiting, started) = (0, 0, false, false) }
            return (quiet, (calls, bytes, started))
        }
        guard let burst else { return wait(Self.idleSeconds - quiet) }
        trim()
        if burst.start, burst.calls < Self.callsPerBurst {
            Log.info("gave freed memory back after the start")
        } else {
            Log.info("gave freed memory back after a burst of \(burst.calls) call\(burst.calls == 1 ? "" : "s") (\(burst.bytes >> 10) KiB of arguments)")
        }
    }
}

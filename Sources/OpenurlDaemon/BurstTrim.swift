import DBus
import Platform

/// Gives the memory a burst of calls freed back to the system once the daemon is idle again.
/// glibc keeps what a burst frees for reuse: 10,000 parallel calls once left the daemon at
/// 51 MB instead of 24, and 10 MB arguments at 83 MB instead of 44, until the next burst. After
/// a burst (`callsPerBurst` calls, or `bytesPerBurst` of arguments, since the last trim), the
/// first second without a call runs `Memory.returnFreedPages()` (malloc_trim). A quiet daemon
/// never trims; a busy one trims at most once a second, and never in the middle of a burst.
final class BurstTrim {
    /// Calls since the last trim that make a burst.
    static let callsPerBurst = 200
    /// Argument bytes since the last trim that make a burst (one 10 MB URL is one).
    static let bytesPerBurst = 1 << 20
    /// How long the loop stays without a call before the trim.
    static let idleSeconds = 1.0

    private let loop: EventLoop
    private let trim: () -> Void
    private var calls = 0
    private var bytes = 0
    private var lastCall = 0.0
    private var waiting = false
    /// How many trims ran (for the log and tests).
    private(set) var trims = 0

    /// Trims (by default `Memory.returnFreedPages`) on `loop`'s timers.
    init(loop: EventLoop, trim: @escaping () -> Void = Memory.returnFreedPages) {
        self.loop = loop
        self.trim = trim
    }

    /// A call was served with `argumentBytes` of arguments: on the loop.
    func noteCall(argumentBytes: Int) {
        calls += 1
        bytes += argumentBytes
        lastCall = MonotonicClock.seconds()
        guard !waiting, calls >= Self.callsPerBurst || bytes >= Self.bytesPerBurst else { return }
        wait(Self.idleSeconds)
    }

    /// One timer at a time: when it fires early (a call came meanwhile) it waits out the rest.
    private func wait(_ seconds: Double) {
        waiting = true
        loop.addTimer(after: seconds) { [weak self] in self?.idleCheck() }
    }

    private func idleCheck() {
        waiting = false
        let quiet = MonotonicClock.seconds() - lastCall
        guard quiet >= Self.idleSeconds else { return wait(Self.idleSeconds - quiet) }
        Log.info("gave freed memory back after a burst of \(calls) call\(calls == 1 ? "" : "s") (\(bytes >> 10) KiB of arguments)")
        calls = 0
        bytes = 0
        trims += 1
        trim()
    }
}

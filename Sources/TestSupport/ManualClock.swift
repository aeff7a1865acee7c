import Platform

/// A clock a test moves by hand, for a session whose duplicates, `ask_timeout` and pending
/// questions' expiry it drives without waiting: time passing moves both of its readings, the
/// wall clock being set (back or forward) moves only the wall.
public final class ManualClock: @unchecked Sendable {
    private let seconds: Locked<(wall: Double, elapsed: Double)>

    /// A clock whose wall stands at `seconds` since the epoch (its monotonic reading at 1,000).
    public init(at seconds: Double) { self.seconds = Locked((seconds, 1000)) }

    /// Now on this clock's wall.
    public var now: Double { seconds.value.wall }

    /// Now on this clock's monotonic reading.
    public var elapsed: Double { seconds.value.elapsed }

    /// Moves time on by `interval` seconds: both readings.
    public func advance(by interval: Double) { seconds.update { $0.wall += interval; $0.elapsed += interval } }

    /// Sets the wall clock by `interval` seconds (negative: back), as `date -s` does; no time passes.
    public func setWall(by interval: Double) { seconds.update { $0.wall += interval } }

    /// The clock a `Session` reads.
    public var clock: Clock { Clock(now: { [seconds] in seconds.value.wall }, elapsed: { [seconds] in seconds.value.elapsed }) }
}

import Platform

/// A clock a test moves by hand, for a session whose duplicates, `ask_timeout` and pending
/// questions' expiry it drives without waiting.
public final class ManualClock: @unchecked Sendable {
    private let seconds: Locked<Double>

    /// A clock standing at `seconds` since the epoch.
    public init(at seconds: Double) { self.seconds = Locked(seconds) }

    /// Now on this clock.
    public var now: Double { seconds.value }

    /// Moves the clock on by `interval` seconds.
    public func advance(by interval: Double) { seconds.update { $0 += interval } }

    /// The clock a `Session` reads.
    public var clock: Clock { Clock { [seconds] in seconds.value } }
}

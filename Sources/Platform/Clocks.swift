/// A point in time as whole seconds and nanoseconds, as `timespec` holds it.
public struct Timestamp: Equatable, Comparable, Hashable, Sendable {
    /// Whole seconds.
    public var seconds: Int64
    /// Nanoseconds within the second, 0..<1e9.
    public var nanoseconds: Int64

    /// A timestamp of `seconds` and `nanoseconds`.
    public init(seconds: Int64, nanoseconds: Int64) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The time in seconds, as a Double.
    public var secondsValue: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

    /// The time in nanoseconds.
    public var totalNanoseconds: Int64 { seconds &* 1_000_000_000 &+ nanoseconds }

    /// Whether `a` is earlier than `b`.
    public static func < (a: Timestamp, b: Timestamp) -> Bool { (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds) }
}

/// Time of day since the Unix epoch (CLOCK_REALTIME): for records and file ages, never for timeouts.
public enum WallClock {
    /// Now.
    public static func now() -> Timestamp { Sys.clock(monotonic: false) }
    /// Seconds since the epoch, as Foundation's `Date().timeIntervalSince1970` gave them.
    public static func secondsSinceEpoch() -> Double { now().secondsValue }
}

/// A clock that never jumps (CLOCK_MONOTONIC): for deadlines and durations.
public enum MonotonicClock {
    /// Now.
    public static func now() -> Timestamp { Sys.clock(monotonic: true) }
    /// Nanoseconds since an arbitrary start.
    public static func nanoseconds() -> Int64 { now().totalNanoseconds }
    /// Seconds since an arbitrary start.
    public static func seconds() -> Double { now().secondsValue }
}

/// A monotonic deadline: `Deadline(after: 2).hasPassed`.
public struct Deadline: Sendable {
    /// When it passes, in monotonic nanoseconds.
    public var nanoseconds: Int64

    /// The deadline `seconds` from now (an infinite or huge timeout is ~31 years, NaN is now).
    public init(after seconds: Double) { nanoseconds = MonotonicClock.nanoseconds() + Deadline.clampedNanoseconds(seconds) }

    /// `seconds` in nanoseconds, within ±1e9 s so the conversion cannot trap.
    static func clampedNanoseconds(_ seconds: Double) -> Int64 {
        guard !seconds.isNaN else { return 0 }
        return Int64(min(max(seconds, -1e9), 1e9) * 1e9)
    }

    /// Whether now is at or past the deadline.
    public var hasPassed: Bool { MonotonicClock.nanoseconds() >= nanoseconds }

    /// Seconds left (negative once passed).
    public var remainingSeconds: Double { Double(nanoseconds - MonotonicClock.nanoseconds()) / 1e9 }
}

/// Sleeps the calling thread, resuming after signals.
public func pause(seconds: Double) { Sys.sleep(nanoseconds: Deadline.clampedNanoseconds(seconds)) }

/// Sleeps the calling thread for `microseconds`, as usleep did.
public func pause(microseconds: Int) { Sys.sleep(nanoseconds: Int64(microseconds) * 1000) }

/// A civil date and time, in UTC or the local time zone (TZ, /etc/localtime).
public struct CalendarTime: Equatable, Sendable {
    /// The year, e.g. 2026.
    public var year: Int
    /// 1...12.
    public var month: Int
    /// 1...31.
    public var day: Int
    /// 0...23.
    public var hour: Int
    /// 0...59.
    public var minute: Int
    /// 0...60.
    public var second: Int
    /// Seconds east of UTC (0 for UTC).
    public var utcOffsetSeconds: Int

    /// All fields.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, utcOffsetSeconds: Int) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// `secondsSinceEpoch` in UTC.
    public static func utc(_ secondsSinceEpoch: Int64) -> CalendarTime { Sys.calendar(seconds: secondsSinceEpoch, local: false) }

    /// `secondsSinceEpoch` in the local time zone.
    public static func local(_ secondsSinceEpoch: Int64) -> CalendarTime { Sys.calendar(seconds: secondsSinceEpoch, local: true) }

    /// "2026-12-01".
    public var dateText: String { "\(Text.zeroPadded(year, width: 4))-\(Text.zeroPadded(month, width: 2))-\(Text.zeroPadded(day, width: 2))" }

    /// "13:38:51".
    public var timeText: String { "\(Text.zeroPadded(hour, width: 2)):\(Text.zeroPadded(minute, width: 2)):\(Text.zeroPadded(second, width: 2))" }

    /// ISO 8601 as ISO8601DateFormatter wrote it: "2026-12-01T13:38:51Z" in UTC, else "+01:00".
    public var iso8601: String {
        guard utcOffsetSeconds != 0 else { return dateText + "T" + timeText + "Z" }
        let offset = abs(utcOffsetSeconds) / 60
        let sign = utcOffsetSeconds < 0 ? "-" : "+"
        return dateText + "T" + timeText + sign + Text.zeroPadded(offset / 60, width: 2) + ":" + Text.zeroPadded(offset % 60, width: 2)
    }

    /// Whether `other` is on the same calendar day.
    public func isSameDay(as other: CalendarTime) -> Bool { (year, month, day) == (other.year, other.month, other.day) }
}

/// The time a session's clicks are judged at: the wall clock for what is recorded and for a
/// click's age across a restart, the monotonic clock for every time limit while running
/// (duplicates, `ask_timeout`), so that setting the clock back or forward moves no limit. The
/// system's clocks, or ones a test moves by hand.
public struct Clock: Sendable {
    /// Now, in seconds since the epoch (CLOCK_REALTIME: may jump).
    public let now: @Sendable () -> Double
    /// Seconds on a clock that never jumps (CLOCK_MONOTONIC: an arbitrary start, only differences mean anything).
    public let elapsed: @Sendable () -> Double

    /// A clock reading `now` for the wall and `elapsed` for time limits.
    public init(now: @escaping @Sendable () -> Double, elapsed: @escaping @Sendable () -> Double) {
        self.now = now
        self.elapsed = elapsed
    }

    /// The system's wall and monotonic clocks.
    public static let system = Clock(now: { WallClock.secondsSinceEpoch() }, elapsed: { MonotonicClock.seconds() })

    /// How long ago, in seconds, a moment the wall clock read as `wallTime` was: never less than
    /// 0 (a time in the future, from before the clock was set back, counts as now).
    public func age(ofWallTime wallTime: Double) -> Double {
        let age = now() - wallTime
        return age.isFinite ? max(0, age) : 0
    }
}

/// Timestamps held as Double seconds (recent links, D-Bus `time`), shown as Foundation's date
/// formatters showed them, so `openurl recent` prints what it printed before Foundation left.
extension CalendarTime {
    /// The whole second Foundation's `ISO8601DateFormatter` and `DateFormatter` showed for
    /// `Date(timeIntervalSince1970: seconds)`: rounded to the millisecond (half to even),
    /// then floored: 59.9994 → 59, 59.9995 → 60, -0.0005 → 0, -0.0006 → -1.
    public static func wholeSeconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else { return 0 }
        let milliseconds = (seconds * 1000).rounded(.toNearestOrEven)
        guard abs(milliseconds) < 9.0e18 else { return 0 }
        let whole = Int64(milliseconds)
        return whole >= 0 ? whole / 1000 : -((-whole + 999) / 1000)
    }

    /// `seconds` since the epoch in UTC, as a Date of them was formatted.
    public static func utc(seconds: Double) -> CalendarTime { utc(wholeSeconds(seconds)) }

    /// `seconds` since the epoch in the local time zone, as a Date of them was formatted.
    public static func local(seconds: Double) -> CalendarTime { local(wholeSeconds(seconds)) }

    /// "13:38", as the format "HH:mm".
    public var hourMinuteText: String { "\(Text.zeroPadded(hour, width: 2)):\(Text.zeroPadded(minute, width: 2))" }
}

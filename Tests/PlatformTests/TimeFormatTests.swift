import Foundation
import Testing
import Platform

/// `openurl recent` printed its times with Foundation's formatters; Platform's must print the same.
@Suite struct TimeFormatTests {
    /// Seconds since the epoch as recent.tsv holds them (Double), including the millisecond edges
    /// where Foundation rounds before it drops the fraction.
    static let times: [Double] = [
        0, 0.999, 59.9994, 59.99949, 59.9995, 59.99951, 59.9999999, 86399.99, 951_782_400.5,
        1_764_596_331.0, 1_764_596_331.9, 1_764_596_331.99949, 1_764_596_331.9995, 1_764_596_331.9996,
        1_780_000_000.123456, 253_402_300_799.9, -0.0004, -0.0005, -0.0006, -0.5,
    ]

    @Test(arguments: [
        (0, 0), (0.999, 0), (59.9994, 59), (59.9995, 60), (59.9999999, 60), (1_764_596_331.9995, 1_764_596_332),
        (-0.0004, 0), (-0.0005, 0), (-0.0006, -1), (-0.5, -1), (.nan, 0), (.infinity, 0),
    ] as [(Double, Int64)])
    func wholeSecondsAsFoundationShowedThem(_ seconds: Double, _ expected: Int64) {
        #expect(CalendarTime.wholeSeconds(seconds) == expected)
    }

    @Test(arguments: times)
    func utcMatchesISO8601DateFormatter(_ seconds: Double) {
        let expected = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds))
        #expect(CalendarTime.utc(seconds: seconds).iso8601 == expected, "\(seconds)")
    }

    @Test(arguments: times)
    func localMatchesDateFormatter(_ seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        // The zone comes with the fields: another test may change TZ meanwhile.
        let local = CalendarTime.local(seconds: seconds)
        let zone = TimeZone(secondsFromGMT: local.utcOffsetSeconds)
        #expect(local.timeText == Self.foundation("HH:mm:ss", date, zone), "\(seconds)")
        #expect(local.dateText + " " + local.hourMinuteText == Self.foundation("yyyy-MM-dd HH:mm", date, zone), "\(seconds)")
        for offset in [-12_600, 19_800, 50_400] {
            let shifted = CalendarTime.utc(seconds: seconds + Double(offset))
            let zone = TimeZone(secondsFromGMT: offset)
            #expect(shifted.timeText == Self.foundation("HH:mm:ss", date, zone), "\(seconds) at \(offset)")
            #expect(shifted.dateText + " " + shifted.hourMinuteText == Self.foundation("yyyy-MM-dd HH:mm", date, zone), "\(seconds) at \(offset)")
        }
    }

    @Test(arguments: [(1_764_596_331.0, 1_764_633_599.0, true), (1_764_596_331.0, 1_764_633_600.0, false), (1_764_596_331.0, 1_764_509_931.0, false)])
    func sameDayAsCalendar(_ a: Double, _ b: Double, _ sameInUTC: Bool) {
        let (localA, localB) = (CalendarTime.local(seconds: a), CalendarTime.local(seconds: b))
        var calendar = Calendar(identifier: .gregorian)
        if let zone = TimeZone(secondsFromGMT: localA.utcOffsetSeconds), localA.utcOffsetSeconds == localB.utcOffsetSeconds {
            calendar.timeZone = zone
            let expected = calendar.isDate(Date(timeIntervalSince1970: a), inSameDayAs: Date(timeIntervalSince1970: b))
            #expect(localA.isSameDay(as: localB) == expected)
        }
        #expect(CalendarTime.utc(seconds: a).isSameDay(as: CalendarTime.utc(seconds: b)) == sameInUTC)
    }

    static func foundation(_ format: String, _ date: Date, _ zone: TimeZone?) -> String {
        let formatter = DateFormatter()
        if let zone { formatter.timeZone = zone }
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = format
        return formatter.string(from: date)
    }
}

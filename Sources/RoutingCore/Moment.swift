/// What was true at the moment of a click, beside the URL and its opener: the network, the local
/// time, the opener's window title, the keys held, and which programs run. `RuleEngine.decide`
/// stays pure: the daemon, embedded mode and `openurl test` gather these facts (or take them as
/// options) and pass them in. A fact that could not be known is nil with the reason, and every
/// condition on it is false.
public struct Moment: Sendable, Equatable {
    /// The network as NetworkManager reported it last, or why it is not known.
    public var network: Known<NetworkFacts>
    /// The local civil time of the click.
    public var time: Known<LocalTime>
    /// The title of the window that had the focus when the click arrived (X11 only).
    public var window: Known<String>
    /// The modifier keys held when the click arrived (X11 only).
    public var modifiers: Known<Set<Modifier>>
    /// The names of the programs running for this user (`comm` and argv[0]'s basename), for
    /// `open = [a, b]`; unknown when nobody looked.
    public var running: Known<Set<String>>

    /// A moment where nothing is known, each fact saying `why`.
    public init(network: Known<NetworkFacts> = .unknown("not looked up"), time: Known<LocalTime> = .unknown("not looked up"),
                window: Known<String> = .unknown("not looked up"), modifiers: Known<Set<Modifier>> = .unknown("not looked up"),
                running: Known<Set<String>> = .unknown("not looked up")) {
        self.network = network
        self.time = time
        self.window = window
        self.modifiers = modifiers
        self.running = running
    }
}

/// A fact of the moment, or why it is not known.
public enum Known<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The fact.
    case known(Value)
    /// Not known, and why (`no NetworkManager on the system bus`, `Wayland session`).
    case unknown(String)

    /// The fact, nil when unknown.
    public var value: Value? {
        if case .known(let value) = self { return value }
        return nil
    }
}

/// Which facts of the moment a config's rules look at, so callers gather only those.
public struct MomentNeeds: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates needs from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `match.network`, `match.vpn`.
    public static let network = MomentNeeds(rawValue: 1)
    /// `match.time`, `match.days`.
    public static let time = MomentNeeds(rawValue: 2)
    /// `match.window`.
    public static let window = MomentNeeds(rawValue: 4)
    /// `match.modifiers`, `[settings] shift_asks`.
    public static let modifiers = MomentNeeds(rawValue: 8)
    /// `open = [a, b]`: which of them runs.
    public static let running = MomentNeeds(rawValue: 16)
}

/// The active connections NetworkManager reports.
public struct NetworkFacts: Sendable, Equatable {
    /// Each active connection.
    public var connections: [ActiveConnection]

    /// Facts with these connections.
    public init(connections: [ActiveConnection]) { self.connections = connections }

    /// The VPN connections among them (NetworkManager's `Vpn`, or a WireGuard connection).
    public var vpns: [ActiveConnection] { connections.filter(\.isVPN) }

    /// `Office (wifi, SSID Office-5G), Corp (vpn)`, or `none`.
    public var summary: String {
        connections.isEmpty ? "no active connection" : connections.map(\.summary).joined(separator: ", ")
    }
}

/// One active NetworkManager connection.
public struct ActiveConnection: Sendable, Equatable {
    /// The connection's `Id` (its name in nmcli and the applet).
    public var id: String
    /// Its `Type` (`802-11-wireless`, `802-3-ethernet`, `vpn`, `wireguard`).
    public var type: String
    /// NetworkManager's `Vpn` property.
    public var vpn: Bool
    /// The SSID of a Wi-Fi connection's access point.
    public var ssid: String?

    /// A connection.
    public init(id: String, type: String, vpn: Bool = false, ssid: String? = nil) {
        self.id = id
        self.type = type
        self.vpn = vpn
        self.ssid = ssid
    }

    /// A VPN: NetworkManager says so, or it is WireGuard (which NetworkManager does not flag).
    public var isVPN: Bool { vpn || type == "wireguard" || type == "vpn" }

    /// `Office (802-11-wireless, SSID Office-5G)`.
    public var summary: String {
        "\"\(id)\" (\(isVPN ? "vpn" : type)\(ssid.map { ", SSID \"\($0)\"" } ?? ""))"
    }
}

/// A local civil time, to the minute.
public struct LocalTime: Sendable, Equatable {
    /// The year.
    public var year: Int
    /// 1...12.
    public var month: Int
    /// 1...31.
    public var day: Int
    /// 0...23.
    public var hour: Int
    /// 0...59.
    public var minute: Int

    /// A time.
    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int) {
        (self.year, self.month, self.day, self.hour, self.minute) = (year, month, day, hour, minute)
    }

    /// Minutes since midnight.
    public var minuteOfDay: Int { hour * 60 + minute }

    /// The day of the week (by the proleptic Gregorian calendar).
    public var weekday: Weekday {
        // Days from civil (H. Hinnant): 1970-01-01 was a Thursday.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let index = ((days % 7) + 7 + 3) % 7  // 0 = Monday
        return Weekday.allCases[index]
    }

    /// `2026-12-01 18:30` (a string `openurl test --at` takes), or nil.
    public init?(parsing text: String) {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard date.count == 3, let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]),
              (1...12).contains(month), (1...31).contains(day), let minutes = TimeRange.minutes(parts[1]) else { return nil }
        self.init(year: year, month: month, day: day, hour: minutes / 60, minute: minutes % 60)
    }

    /// `Tue 2026-12-01 18:30`.
    public var text: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(weekday.rawValue) \(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute))"
    }
}

/// A day of the week as `match.days` names it.
public enum Weekday: String, Sendable, CaseIterable {
    case mon, tue, wed, thu, fri, sat, sun
}

/// A modifier key as `match.modifiers` names it.
public enum Modifier: String, Sendable, CaseIterable, Comparable {
    case shift, ctrl, alt, `super`

    /// The X11 key-and-button mask bit (Shift, Control, Mod1, Mod4).
    public var x11Mask: UInt16 {
        switch self {
        case .shift: return 1
        case .ctrl: return 4
        case .alt: return 8
        case .super: return 64
        }
    }

    /// The modifiers held in an X11 state mask.
    public static func held(x11Mask mask: UInt16) -> Set<Modifier> {
        Set(allCases.filter { mask & $0.x11Mask != 0 })
    }

    /// In `allCases` order.
    public static func < (a: Modifier, b: Modifier) -> Bool {
        (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }
}

/// A `match.time` range: `09:00-17:30`, from the first minute up to (not including) the last;
/// a range whose end comes before its start runs over midnight (`22:00-06:00`).
public struct TimeRange: Sendable, Equatable {
    /// Minutes since midnight the range starts at.
    public var start: Int
    /// Minutes since midnight the range ends at (excluded).
    public var end: Int

    /// A range.
    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// `HH:MM-HH:MM` (24:00 is allowed as an end), or nil.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Self.minutes(parts[0]), let end = Self.minutes(parts[1], allowMidnightEnd: true),
              start < 24 * 60, start != end else { return nil }
        self.init(start: start, end: end)
    }

    /// Whether `minute` (since midnight) is in the range.
    public func contains(_ minute: Int) -> Bool {
        start < end ? (start <= minute && minute < end) : (minute >= start || minute < end)
    }

    /// `H:MM` or `HH:MM` as minutes since midnight.
    static func minutes(_ text: Substring, allowMidnightEnd: Bool = false) -> Int? {
        let parts = text.trimmingSpaces.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...59).contains(minute) else { return nil }
        if hour == 24, minute == 0, allowMidnightEnd { return 24 * 60 }
        guard (0...23).contains(hour) else { return nil }
        return hour * 60 + minute
    }

    /// `09:00-17:30`.
    public var text: String {
        func clock(_ m: Int) -> String { "\(m / 60 < 10 ? "0" : "")\(m / 60):\(m % 60 < 10 ? "0" : "")\(m % 60)" }
        return "\(clock(start))-\(clock(end))"
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        guard let first = firstIndex(where: { $0 != " " }), let last = lastIndex(where: { $0 != " " }) else { return self[endIndex...] }
        return self[first...last]
    }
}

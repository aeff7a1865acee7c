import URLModel
import Patterns
import SiteLists

/// Who a link came from: any of these can be matched by `match.opener`.
public struct Opener: Sendable, Equatable {
    /// The desktop id of the app (`org.gnome.Evolution.desktop`), if known.
    public var desktopID: String?
    /// The Flatpak app id (`com.slack.Slack`), if known.
    public var flatpakID: String?
    /// The process name (`slack`), if known.
    public var processName: String?
    /// The Snap name (`firefox` of `snap.firefox.firefox-….scope`), if known.
    public var snapID: String?

    /// Creates an opener description.
    public init(desktopID: String? = nil, flatpakID: String? = nil, processName: String? = nil, snapID: String? = nil) {
        self.desktopID = desktopID
        self.flatpakID = flatpakID
        self.processName = processName
        self.snapID = snapID
    }

    /// Every name the opener is known by; a desktop id counts with and without `.desktop`.
    public var names: [String] {
        var names: [String] = []
        if let desktopID {
            names.append(desktopID)
            names.append(desktopID.hasSuffix(".desktop") ? String(desktopID.dropLast(8)) : desktopID + ".desktop")
        }
        if let flatpakID, !names.contains(flatpakID) { names.append(flatpakID) }
        if let snapID, !names.contains(snapID) { names.append(snapID) }
        if let processName, !names.contains(processName) { names.append(processName) }
        return names
    }
}

/// What a matcher looks at: the URL after rewrites, who opened it, and the moment of the click.
public struct MatchSubject {
    /// The parsed URL.
    public let url: ParsedURL
    /// The normalised URL text.
    public let text: String
    /// The opener, if known.
    public let opener: Opener?
    /// The mailto fields, for mailto URLs.
    public let mailto: MailtoURL?
    /// The network, time, window, keys and programs at the moment of the click.
    public let moment: Moment

    /// Prepares a URL for matching.
    public init(url: ParsedURL, opener: Opener?, moment: Moment = Moment()) {
        self.url = url
        self.text = url.string
        self.opener = opener
        self.mailto = url.scheme == "mailto" ? MailtoURL(url) : nil
        self.moment = moment
    }
}

/// `match.vpn`: any VPN (`true`), none (`false`), or one whose connection id matches.
public enum VPNCondition: Sendable {
    /// `true`: some VPN is active; `false`: none is.
    case active(Bool)
    /// A VPN connection whose id matches one of these globs is active.
    case named([Glob])
}

/// One `match.KEY` of a rule or rewrite. A list value holds when any item holds.
public enum Matcher: Sendable {
    /// `scheme`: one of these schemes (lowercased).
    case scheme(Set<String>)
    /// `domain`: the host or a subdomain of one of these (ASCII form, lowercased).
    case domain([String])
    /// `host`: a glob on the exact host (ASCII or Unicode form).
    case host([Glob])
    /// `path`: a glob on the path.
    case path([Glob])
    /// `query`: every named parameter present with a value matching its glob.
    case query([(name: String, value: Glob)])
    /// `url`: a glob on the whole URL.
    case url([Glob])
    /// `regex`: a PCRE2 regex searched in the whole URL.
    case regex([PatternRegex])
    /// `to`: any mailto recipient (to, cc or bcc) matches a glob, in its display form
    /// (`a@bücher.de`) or its ASCII form (`a@xn--bcher-kva.de`).
    case to([Glob])
    /// `opener`: the desktop id, Flatpak or Snap app id, or process name matches a glob.
    case opener([Glob])
    /// A `[[sitelist]]`: the list switches the URL (see `SiteList.verdict`).
    case siteList(SiteListMatch)
    /// `network`: an active connection's id or Wi-Fi SSID matches a glob.
    case network([Glob])
    /// `vpn`: a VPN is (or is not) active, or one with a matching id is.
    case vpn(VPNCondition)
    /// `time`: the local time is in one of these ranges.
    case time([TimeRange])
    /// `days`: the local day of the week is one of these.
    case days(Set<Weekday>)
    /// `window`: the title of the window that had the focus matches a glob (X11).
    case window([Glob])
    /// `modifiers`: every one of these keys is held (X11).
    case modifiers(Set<Modifier>)
    /// `any`: the matchers of at least one of these tables all hold.
    case any([[Matcher]])
    /// `not`: the matchers of this table do not all hold.
    case not([Matcher])

    /// The config key (`domain`).
    public var key: String {
        switch self {
        case .scheme: return "scheme"
        case .domain: return "domain"
        case .host: return "host"
        case .path: return "path"
        case .query: return "query"
        case .url: return "url"
        case .regex: return "regex"
        case .to: return "to"
        case .opener: return "opener"
        case .siteList: return "sitelist"
        case .network: return "network"
        case .vpn: return "vpn"
        case .time: return "time"
        case .days: return "days"
        case .window: return "window"
        case .modifiers: return "modifiers"
        case .any: return "any"
        case .not: return "not"
        }
    }

    /// True when the matcher holds for `subject`.
    public func holds(for subject: MatchSubject) -> Bool {
        switch self {
        case .scheme(let schemes):
            return schemes.contains(subject.url.scheme)
        case .domain(let domains):
            let host = subject.url.matchingHost
            return domains.contains { Self.host(host, isWithin: $0) }
        case .host(let globs):
            let host = subject.url.matchingHost, unicode = subject.url.matchingUnicodeHost
            return globs.contains { $0.matches(host) || (unicode != host && $0.matches(unicode)) }
        case .path(let globs):
            return globs.contains { $0.matches(subject.url.path) }
        case .query(let pairs):
            let items = subject.url.queryItems
            return pairs.allSatisfy { pair in items.contains { $0.name == pair.name && pair.value.matches($0.value) } }
        case .url(let globs):
            return globs.contains { $0.matches(subject.text) }
        case .regex(let regexes):
            return regexes.contains { $0.matches(subject.text) }
        case .to(let globs):
            guard let mailto = subject.mailto else { return false }
            return mailto.addresses.contains { address in
                globs.contains { $0.matches(address.display) || (address.ascii != address.display && $0.matches(address.ascii)) }
            }
        case .opener(let globs):
            guard let names = subject.opener?.names else { return false }
            return names.contains { name in globs.contains { $0.matches(name) } }
        case .siteList(let match):
            if case .go = match.list.verdict(for: subject.url, greylists: match.greylists) { return true }
            return false
        case .network(let globs):
            guard let network = subject.moment.network.value else { return false }
            return network.connections.contains { connection in
                globs.contains { $0.matches(connection.id) || (connection.ssid.map($0.matches) ?? false) }
            }
        case .vpn(let condition):
            guard let network = subject.moment.network.value else { return false }
            switch condition {
            case .active(let wanted): return network.vpns.isEmpty != wanted
            case .named(let globs): return network.vpns.contains { vpn in globs.contains { $0.matches(vpn.id) } }
            }
        case .time(let ranges):
            guard let time = subject.moment.time.value else { return false }
            return ranges.contains { $0.contains(time.minuteOfDay) }
        case .days(let days):
            guard let time = subject.moment.time.value else { return false }
            return days.contains(time.weekday)
        case .window(let globs):
            guard let title = subject.moment.window.value else { return false }
            return globs.contains { $0.matches(title) }
        case .modifiers(let keys):
            guard let held = subject.moment.modifiers.value else { return false }
            return keys.isSubset(of: held)
        case .any(let alternatives):
            return alternatives.contains { $0.allSatisfy { $0.holds(for: subject) } }
        case .not(let matchers):
            return !matchers.allSatisfy { $0.holds(for: subject) }
        }
    }

    /// The matcher's key with, for a condition on the moment or the opener, the value it saw:
    /// `network (saw "Office" (802-11-wireless, SSID "Office-5G"))`, `time (saw Tue 2026-12-01 18:30)`.
    public func explained(for subject: MatchSubject) -> String {
        func saw<Value>(_ fact: Known<Value>, _ text: (Value) -> String) -> String {
            switch fact {
            case .known(let value): return "\(key) (saw \(text(value)))"
            case .unknown(let why): return "\(key) (unknown: \(why))"
            }
        }
        let moment = subject.moment
        switch self {
        case .opener:
            return "opener (saw \(subject.opener.map { $0.names.map { "\"\($0)\"" }.joined(separator: ", ") } ?? "no opener"))"
        case .network: return saw(moment.network) { $0.summary }
        case .vpn: return saw(moment.network) { $0.vpns.isEmpty ? "no VPN" : $0.vpns.map { "\"\($0.id)\"" }.joined(separator: ", ") }
        case .time, .days: return saw(moment.time) { $0.text }
        case .window: return saw(moment.window) { "\"\($0)\"" }
        case .modifiers: return saw(moment.modifiers) { $0.isEmpty ? "none held" : $0.sorted().map(\.rawValue).joined(separator: "+") }
        case .any(let alternatives):
            let held = alternatives.firstIndex { $0.allSatisfy { $0.holds(for: subject) } }
            let parts = alternatives.map { $0.map { $0.explained(for: subject) }.joined(separator: ", ") }
            return "any [\(parts.map { "{\($0)}" }.joined(separator: " | "))]" + (held.map { ": #\($0 + 1) held" } ?? ": none held")
        case .not(let matchers):
            return "not {\(matchers.map { $0.explained(for: subject) }.joined(separator: ", "))}"
        default: return key
        }
    }

    /// The facts of the moment this matcher (and any it holds) looks at.
    public var needs: MomentNeeds {
        switch self {
        case .network, .vpn: return .network
        case .time, .days: return .time
        case .window: return .window
        case .modifiers: return .modifiers
        case .any(let alternatives): return alternatives.reduce(into: []) { needs, matchers in for m in matchers { needs.formUnion(m.needs) } }
        case .not(let matchers): return matchers.reduce(into: []) { $0.formUnion($1.needs) }
        default: return []
        }
    }

    /// Whether this matcher (or one it holds) looks at the opener.
    public var looksAtOpener: Bool {
        switch self {
        case .opener: return true
        case .any(let alternatives): return alternatives.contains { $0.contains { $0.looksAtOpener } }
        case .not(let matchers): return matchers.contains { $0.looksAtOpener }
        default: return false
        }
    }

    /// The schemes a rule names, also inside `any` (a scheme only under `not` is not routed by it).
    public var namedSchemes: Set<String> {
        switch self {
        case .scheme(let names): return names
        case .any(let alternatives): return alternatives.reduce(into: []) { all, matchers in for m in matchers { all.formUnion(m.namedSchemes) } }
        default: return []
        }
    }

    /// True for `domain` itself or any subdomain of it; never for `notdomain`.
    public static func host(_ host: String, isWithin domain: String) -> Bool {
        // On raw bytes: `elementsEqual` over UTF8View slices cost ~2,000 instructions a call.
        var host = host, domain = domain
        return host.withUTF8 { hostBytes in
            domain.withUTF8 { domainBytes in
                let extra = hostBytes.count - domainBytes.count
                guard extra >= 0 else { return false }
                for k in 0..<domainBytes.count where hostBytes[extra + k] != domainBytes[k] { return false }
                return extra == 0 || hostBytes[extra - 1] == UInt8(ascii: ".")
            }
        }
    }
}

import URLModel
import Patterns
import SiteLists
import RoutingCore

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

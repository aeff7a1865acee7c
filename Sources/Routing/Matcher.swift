import URLModel
import Patterns

/// Who a link came from: any of these can be matched by `match.opener`.
public struct Opener: Sendable, Equatable {
    /// The desktop id of the app (`org.gnome.Evolution.desktop`), if known.
    public var desktopID: String?
    /// The Flatpak app id (`com.slack.Slack`), if known.
    public var flatpakID: String?
    /// The process name (`slack`), if known.
    public var processName: String?

    /// Creates an opener description.
    public init(desktopID: String? = nil, flatpakID: String? = nil, processName: String? = nil) {
        self.desktopID = desktopID
        self.flatpakID = flatpakID
        self.processName = processName
    }

    /// Every name the opener is known by; a desktop id counts with and without `.desktop`.
    public var names: [String] {
        var names: [String] = []
        if let desktopID {
            names.append(desktopID)
            names.append(desktopID.hasSuffix(".desktop") ? String(desktopID.dropLast(8)) : desktopID + ".desktop")
        }
        if let flatpakID { names.append(flatpakID) }
        if let processName { names.append(processName) }
        return names
    }
}

/// What a matcher looks at: the URL after rewrites, and who opened it.
public struct MatchSubject {
    /// The parsed URL.
    public let url: ParsedURL
    /// The normalised URL text.
    public let text: String
    /// The opener, if known.
    public let opener: Opener?
    /// The mailto fields, for mailto URLs.
    public let mailto: MailtoURL?

    /// Prepares a URL for matching.
    public init(url: ParsedURL, opener: Opener?) {
        self.url = url
        self.text = url.string
        self.opener = opener
        self.mailto = url.scheme == "mailto" ? MailtoURL(url) : nil
    }
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
    /// `opener`: the desktop id, Flatpak id or process name matches a glob.
    case opener([Glob])

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

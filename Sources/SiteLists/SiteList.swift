import URLModel

/// The file formats a site list can be in.
public enum SiteListFormat: String, Sendable, CaseIterable {
    /// Enterprise Mode schema v.2: `<site-list version>` with `<site url>` and `<open-in>`.
    case emieV2 = "emie-v2"
    /// Enterprise Mode schema v.1: `<rules version>` with `<emie>`/`<docMode>`, `<domain exclude>`, `<path>`.
    case emieV1 = "emie-v1"
    /// One pattern a line, as Chrome's `BrowserSwitcherUrlList` policy lists them (`!` for an exception).
    case lines
}

/// One site of a list: its pattern, what it says, and the line it is on.
public struct SiteListEntry: Sendable, Equatable {
    /// What an entry says about its sites.
    public enum Kind: String, Sendable {
        /// The site switches: it opens with the list's target.
        case site
        /// An exception (`!pattern`, `<open-in>MSEdge`): the site does not switch.
        case exception
        /// A greylist entry (`<open-in>None`, `doNotTransition`): the site never switches, even
        /// when a shorter site pattern covers it.
        case greylist
    }

    /// The pattern.
    public var pattern: SiteListPattern
    /// What it says.
    public var kind: Kind
    /// The 1-based line it is on.
    public var line: Int

    /// An entry.
    public init(pattern: SiteListPattern, kind: Kind, line: Int) {
        self.pattern = pattern
        self.kind = kind
        self.line = line
    }
}

/// Why a site list cannot be read: where, and what is wrong.
public struct SiteListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int
    /// What is wrong.
    public var message: String

    /// An error at `line:column`.
    public init(line: Int, column: Int = 1, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `LINE:COLUMN: message`.
    public var description: String { "\(line):\(column): \(message)" }
}

/// A site list read from its file, indexed by host so a URL only tries the entries of its own
/// host and that host's parent domains (and `*`).
public struct SiteList: Sendable {
    /// The format it was read as.
    public let format: SiteListFormat
    /// The `version` attribute of the root (`<site-list version="205">`), if any.
    public let version: String?
    /// The entries in file order.
    public let entries: [SiteListEntry]
    /// Entries the file holds past `maximumEntries`: counted, not read, not in force.
    public let skipped: Int
    /// The line of the first entry skipped, when any was.
    public let firstSkippedLine: Int?
    private let byHost: [String: [Int]]
    private let wildcards: [Int]

    /// A list of `entries`; `skipped` more were left out from `firstSkippedLine` on.
    public init(format: SiteListFormat, version: String?, entries: [SiteListEntry], skipped: Int = 0, firstSkippedLine: Int? = nil) {
        self.format = format
        self.version = version
        self.entries = entries
        self.skipped = skipped
        self.firstSkippedLine = firstSkippedLine
        var byHost: [String: [Int]] = [:]
        var wildcards: [Int] = []
        for (position, entry) in entries.enumerated() {
            if entry.pattern.isWildcard { wildcards.append(position) } else { byHost[entry.pattern.host, default: []].append(position) }
        }
        self.byHost = byHost
        self.wildcards = wildcards
    }

    /// What was left out, for `openurl check` and the log: nil when nothing was.
    public var skippedNote: String? {
        guard skipped > 0 else { return nil }
        return "\(skipped) entr\(skipped == 1 ? "y" : "ies") past the first \(Self.maximumEntries) skipped (from line \(firstSkippedLine ?? 0) on); the first \(Self.maximumEntries) are in force"
    }

    /// An empty list (a site list not read yet).
    public static func empty(_ format: SiteListFormat) -> SiteList { SiteList(format: format, version: nil, entries: []) }

    /// The longest matching entry whose kind is in `kinds` (of equally long ones, the first).
    /// `everyEntryIsGreylist` reads the list as a greylist: every entry but an exception counts.
    public func bestMatch(for url: ParsedURL, kinds: Set<SiteListEntry.Kind>, everyEntryIsGreylist: Bool = false) -> SiteListEntry? {
        let scheme = url.scheme, host = url.matchingHost, port = url.port, path = url.path
        var best: Int?
        func consider(_ position: Int) {
            let entry = entries[position]
            let kind = everyEntryIsGreylist ? (entry.kind == .exception ? .exception : .greylist) : entry.kind
            guard kinds.contains(kind) else { return }
            if let best, entries[best].pattern.priority > entry.pattern.priority
                || (entries[best].pattern.priority == entry.pattern.priority && best < position) { return }
            if entry.pattern.matches(scheme: scheme, host: host, port: port, path: path) { best = position }
        }
        for position in wildcards { consider(position) }
        var suffix = Substring(host)
        while true {
            if let positions = byHost[String(suffix)] { for position in positions { consider(position) } }
            guard let dot = suffix.firstIndex(of: ".") else { break }
            suffix = suffix[suffix.index(after: dot)...]
        }
        return best.map { entries[$0] }
    }

    /// What a list decides for `url`, as Chrome's Legacy Browser Support decides: the longest
    /// matching site or exception of this list; when it is a site, the longest matching
    /// greylist entry (this list's and `greylists`') keeps the URL from switching if it is
    /// longer, or if the site is only `*`.
    public func verdict(for url: ParsedURL, greylists: [SiteList] = []) -> SiteListVerdict {
        guard url.scheme == "http" || url.scheme == "https" else { return .stay(nil) }
        guard let go = bestMatch(for: url, kinds: [.site, .exception]) else { return .stay(nil) }
        guard go.kind == .site else { return .stay(go) }
        var stay = bestMatch(for: url, kinds: [.greylist])
        for list in greylists {
            guard let found = list.bestMatch(for: url, kinds: [.greylist], everyEntryIsGreylist: true) else { continue }
            if stay.map({ found.pattern.priority > $0.pattern.priority }) ?? true { stay = found }
        }
        if let stay, go.pattern.priority <= 1 || stay.pattern.priority > go.pattern.priority { return .stay(stay) }
        return .go(go)
    }
}

/// A site list's answer for one URL.
public enum SiteListVerdict: Sendable, Equatable {
    /// The URL switches: this site entry matched.
    case go(SiteListEntry)
    /// It does not: the exception or greylist entry that kept it, or nil when nothing matched.
    case stay(SiteListEntry?)
}

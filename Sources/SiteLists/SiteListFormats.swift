/// Reading the three formats: each error names the line (and column) it is at.
extension SiteList {
    /// The most entries read from a list (Microsoft's manager and Chrome handle lists of tens of
    /// thousands); those past it are counted and said (`skipped`), the first ones stay in force.
    public static let maximumEntries = 200_000
    /// The largest file read, in bytes.
    public static let maximumBytes = 32 << 20

    /// Reads `bytes` as `format`.
    public static func parse(_ bytes: [UInt8], format: SiteListFormat) throws(SiteListError) -> SiteList {
        guard bytes.count <= maximumBytes else {
            throw SiteListError(line: 1, message: "the file is \(bytes.count) bytes; the limit is \(maximumBytes) (32 MiB)")
        }
        switch format {
        case .lines: return try parseLines(bytes)
        case .emieV1, .emieV2:
            let root: XMLElement
            do { root = try XMLReader.parse(bytes) } catch {
                throw SiteListError(line: error.line, column: error.column, message: error.message)
            }
            return format == .emieV2 ? try parseVersion2(root) : try parseVersion1(root)
        }
    }

    static func pattern(_ text: String, line: Int, column: Int = 1) throws(SiteListError) -> SiteListPattern {
        do { return try SiteListPattern(text) } catch {
            throw SiteListError(line: line, column: column, message: "\"\(text)\": \(error.description)")
        }
    }

    static func trimmed(_ text: String) -> String {
        var s = Substring(text)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }

    /// `lines`: one pattern a line; blank lines and lines starting with `#` are skipped.
    static func parseLines(_ bytes: [UInt8]) throws(SiteListError) -> SiteList {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw SiteListError(line: 1, message: "the file is not valid UTF-8 text")
        }
        var entries: [SiteListEntry] = []
        var skipped = Skipped()
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = trimmed(String(raw))
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard entries.count < maximumEntries else {
                skipped.count(line: offset + 1)
                continue
            }
            let found = try pattern(line, line: offset + 1, column: 1 + raw.prefix { $0 == " " || $0 == "\t" }.count)
            entries.append(SiteListEntry(pattern: found, kind: found.inverted ? .exception : .site, line: offset + 1))
        }
        return SiteList(format: .lines, version: nil, entries: entries, skipped: skipped.entries, firstSkippedLine: skipped.firstLine)
    }

    /// Enterprise Mode schema v.2. `<open-in>IE11` switches; `MSEdge` (or `Chrome`) is an
    /// exception; `None`, `Configurable` or no `<open-in>` is a greylist entry (a neutral site:
    /// it stays wherever it was opened), as Chrome reads it since version 99.
    static func parseVersion2(_ root: XMLElement) throws(SiteListError) -> SiteList {
        guard root.name == "site-list" else {
            throw SiteListError(line: root.line, column: root.column, message: wrongRoot(root.name, expected: "site-list", format: .emieV2))
        }
        var entries: [SiteListEntry] = []
        var skipped = Skipped()
        for site in root.children(named: "site") {
            guard entries.count < maximumEntries else {
                skipped.count(line: site.line)
                continue
            }
            guard let url = site.attribute("url").map(trimmed), !url.isEmpty else {
                throw SiteListError(line: site.line, column: site.column, message: "<site> needs a url attribute (<site url=\"contoso.com\">)")
            }
            let openIn = site.children(named: "open-in").last.map { trimmed($0.text) } ?? ""
            let kind: SiteListEntry.Kind
            switch openIn.lowercased() {
            case "ie11": kind = .site
            case "msedge", "chrome": kind = .exception
            case "", "none", "configurable": kind = .greylist
            default:
                let at = site.children(named: "open-in").last ?? site
                throw SiteListError(line: at.line, column: at.column, message: "unknown <open-in> value \"\(openIn)\" (expected IE11, MSEdge, Chrome, None or Configurable)")
            }
            let found = try pattern(url, line: site.line, column: site.column)
            if found.inverted {
                throw SiteListError(line: site.line, column: site.column, message: "\"\(url)\": \"!\" is not part of the v.2 schema; use <open-in>MSEdge</open-in> for an exception")
            }
            entries.append(SiteListEntry(pattern: found, kind: kind, line: site.line))
        }
        return SiteList(format: .emieV2, version: root.attribute("version").map(trimmed), entries: entries,
                        skipped: skipped.entries, firstSkippedLine: skipped.firstLine)
    }

    /// Enterprise Mode schema v.1: every `<domain>` of `<emie>` and `<docMode>` switches unless
    /// `exclude="true"`; each `<path>` under it switches (the domain followed by the path)
    /// unless excluded; an excluded path is an exception (the longer pattern wins), as IE 11 reads it.
    /// `doNotTransition="true"` makes an entry a greylist entry.
    static func parseVersion1(_ root: XMLElement) throws(SiteListError) -> SiteList {
        guard root.name == "rules" else {
            throw SiteListError(line: root.line, column: root.column, message: wrongRoot(root.name, expected: "rules", format: .emieV1))
        }
        var entries: [SiteListEntry] = []
        var skipped = Skipped()
        func flag(_ element: XMLElement, _ name: String) -> Bool { element.attribute(name).map(trimmed)?.lowercased() == "true" }
        for section in root.children where section.name == "emie" || section.name == "docMode" {
            for domain in section.children(named: "domain") {
                guard entries.count < maximumEntries else {
                    skipped.count(line: domain.line, entries: 1 + domain.children(named: "path").count)
                    continue
                }
                let host = trimmed(domain.text)
                guard !host.isEmpty else {
                    throw SiteListError(line: domain.line, column: domain.column, message: "<domain> holds no domain (<domain>contoso.com</domain>)")
                }
                let domainExcluded = flag(domain, "exclude")
                let found = try pattern(host, line: domain.line, column: domain.column)
                if found.inverted || found.path != "/" {
                    throw SiteListError(line: domain.line, column: domain.column, message: "\"\(host)\": a <domain> is a host (and port); put paths in <path> elements inside it")
                }
                if !domainExcluded {
                    entries.append(SiteListEntry(pattern: found, kind: flag(domain, "doNotTransition") ? .greylist : .site, line: domain.line))
                }
                for path in domain.children(named: "path") {
                    let text = trimmed(path.text)
                    guard text.hasPrefix("/") else {
                        throw SiteListError(line: path.line, column: path.column, message: "<path> must start with \"/\" (<path>/about</path>), found \"\(text)\"")
                    }
                    let excluded = flag(path, "exclude")
                    let combined = try pattern((excluded ? "!" : "") + host + text, line: path.line, column: path.column)
                    let kind: SiteListEntry.Kind = excluded ? .exception : (flag(path, "doNotTransition") ? .greylist : .site)
                    entries.append(SiteListEntry(pattern: combined, kind: kind, line: path.line))
                }
            }
        }
        // A domain read whole may go past the limit by its paths: those are cut too.
        if entries.count > maximumEntries {
            skipped.count(line: entries[maximumEntries].line, entries: entries.count - maximumEntries, first: true)
            entries.removeLast(entries.count - maximumEntries)
        }
        return SiteList(format: .emieV1, version: root.attribute("version").map(trimmed), entries: entries,
                        skipped: skipped.entries, firstSkippedLine: skipped.firstLine)
    }

    /// The entries past the limit: how many, and the line of the first.
    struct Skipped {
        var entries = 0
        var firstLine: Int?

        /// Counts `entries` more at `line`; `first` when they come before any counted so far.
        mutating func count(line: Int, entries more: Int = 1, first: Bool = false) {
            guard more > 0 else { return }
            entries += more
            if firstLine == nil || first { firstLine = line }
        }
    }

    static func wrongRoot(_ found: String, expected: String, format: SiteListFormat) -> String {
        let other: String
        switch found {
        case "site-list": other = "; it is an Enterprise Mode schema v.2 list: use format = \"emie-v2\""
        case "rules": other = "; it is an Enterprise Mode schema v.1 list: use format = \"emie-v1\""
        default: other = ""
        }
        return "expected the root element <\(expected)> (format \"\(format.rawValue)\"), found <\(found)>\(other)"
    }
}

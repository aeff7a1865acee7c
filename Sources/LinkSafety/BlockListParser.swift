import URLModel

/// What a block list held, by kind of line.
public struct BlockListCounts: Sendable, Equatable {
    /// `||host^`, plain `host` lines and hosts-file lines: a host and everything under it.
    public var hosts = 0
    /// `||host/path…` and `|https://host/path…`: a URL prefix (with `*` and `^`).
    public var urls = 0
    /// `||name.` (a first label, any domain after it).
    public var labelPrefixes = 0
    /// `@@…` exceptions among the above.
    public var exceptions = 0
    /// Cosmetic rules (`##`, `#@#`, `#?#`, …): page styling, nothing to do with links.
    public var cosmetic = 0
    /// Comments and blank lines.
    public var comments = 0
    /// Patterns a host look-up cannot decide: regular expressions, patterns with no host
    /// (`/click.php?data=`), wildcards inside a host (`||discord*.gift^`).
    public var unsupportedPatterns = 0
    /// Entries for requests a page makes, not pages (`$script`, `$image`, `$xhr`, …), or
    /// that change a request instead of blocking it (`$redirect=`, `$removeparam=`).
    public var notForPages = 0
    /// Entries that apply only on some pages or addresses openurld cannot know (`domain=` with
    /// a page named, `ipaddress=`, `method=`, `header=`, `badfilter`, options it does not know).
    public var unsupportedOptions = 0
    /// Options left out of entries that were kept: the party options, `domain=` with only
    /// exclusions, `important`, `match-case`.
    public var ignoredOptions = 0

    /// Hosts, URLs, label prefixes and exceptions: what the list blocks (or unblocks) by.
    public var entries: Int { hosts + urls + labelPrefixes }

    /// "3716 hosts, 1520 URLs, 12 label prefixes, 2 exceptions; skipped: 67 cosmetic, 465 other patterns, …".
    public var description: String {
        "\(hosts) hosts, \(urls) URLs, \(labelPrefixes) label prefixes, \(exceptions) exceptions; "
            + "skipped \(cosmetic) cosmetic, \(unsupportedPatterns) patterns without a host, \(notForPages) not for pages, "
            + "\(unsupportedOptions) with options openurld cannot decide; \(ignoredOptions) options ignored; \(comments) comments"
    }
}

/// One parsed entry of a list, before indexing.
struct BlockEntry {
    enum Kind {
        /// The host and everything under it.
        case host
        /// URLs at the host (or under it) whose path and query match `pattern` (see `PathPattern`).
        case url(pattern: [UInt8], anchoredAtEnd: Bool, scheme: String?)
        /// Hosts with a label `name` followed by more labels.
        case labelPrefix
    }

    var host: [UInt8]
    var kind: Kind
    var isException: Bool
    /// `to=`: domains the target must be under (none: any) and must not be under.
    var toIncluded: [[UInt8]]
    var toExcluded: [[UInt8]]
    /// Line number (from 1) and the line's byte range in the text.
    var line: Int32
    var range: Range<Int32>
}

/// Reads uBlock Origin / Adblock Plus filter lists and hosts files into entries a host look-up
/// can decide (see `BlockListCounts` for what is skipped). One pass, no regular expressions.
struct BlockListParser {
    var counts = BlockListCounts()
    var entries: [BlockEntry] = []
    /// The `! Title:` line, when the list has one.
    var title: String?

    /// Parses `text`.
    mutating func parse(_ text: [UInt8]) {
        var lineStart = 0
        var number: Int32 = 0
        while lineStart <= text.count {
            var lineEnd = lineStart
            while lineEnd < text.count, text[lineEnd] != 0x0A { lineEnd += 1 }
            number += 1
            var start = lineStart, end = lineEnd
            while start < end, text[start] == 0x20 || text[start] == 0x09 || text[start] == 0x0D { start += 1 }
            while end > start, text[end - 1] == 0x20 || text[end - 1] == 0x09 || text[end - 1] == 0x0D { end -= 1 }
            if !(lineEnd == text.count && start == end) {
                parseLine(text[start..<end], line: number, range: Int32(start)..<Int32(end))
            }
            lineStart = lineEnd + 1
        }
    }

    private mutating func parseLine(_ line: ArraySlice<UInt8>, line number: Int32, range: Range<Int32>) {
        guard let first = line.first, line.count <= 4096 else {
            if line.isEmpty { counts.comments += 1 } else { counts.unsupportedPatterns += 1 }
            return
        }
        if first == UInt8(ascii: "!") || first == UInt8(ascii: "[") {
            if title == nil, let value = Self.header("Title:", in: line) { title = value }
            counts.comments += 1
            return
        }
        if Self.isCosmetic(line) {
            counts.cosmetic += 1
            return
        }
        if first == UInt8(ascii: "#") {
            counts.comments += 1
            return
        }
        if let hosts = Self.hostsFileHosts(line) {
            for host in hosts { add(host, .host, exception: false, options: .none, number, range) }
            if hosts.isEmpty { counts.comments += 1 }
            return
        }
        var body = line
        let exception = body.starts(with: "@@".utf8)
        if exception { body = body.dropFirst(2) }
        var options = FilterOptions.none
        if let dollar = body.lastIndex(of: UInt8(ascii: "$")), !body[(dollar + 1)...].contains(UInt8(ascii: "/")) {
            options = FilterOptions(body[(dollar + 1)...])
            body = body[..<dollar]
        }
        switch options.verdict {
        case .notForPages: counts.notForPages += 1; return
        case .unsupported: counts.unsupportedOptions += 1; return
        case .usable: counts.ignoredOptions += options.ignored
        }
        guard let (host, kind) = Self.pattern(body) else {
            counts.unsupportedPatterns += 1
            return
        }
        add(host, kind, exception: exception, options: options, number, range)
    }

    private mutating func add(_ host: [UInt8], _ kind: BlockEntry.Kind, exception: Bool, options: FilterOptions, _ line: Int32, _ range: Range<Int32>) {
        guard let host = Self.asciiHost(host) else {
            counts.unsupportedPatterns += 1
            return
        }
        switch kind {
        case .host: counts.hosts += 1
        case .url: counts.urls += 1
        case .labelPrefix: counts.labelPrefixes += 1
        }
        if exception { counts.exceptions += 1 }
        entries.append(BlockEntry(host: host, kind: kind, isException: exception, toIncluded: options.toIncluded,
                                  toExcluded: options.toExcluded, line: line, range: range))
    }

    /// The host (and what follows it) of `||host^`, `||host/path`, `||name.`, `|https://host/…`
    /// or a plain host; nil for anything a host look-up cannot decide.
    static func pattern(_ body: ArraySlice<UInt8>) -> ([UInt8], BlockEntry.Kind)? {
        if body.starts(with: "||".utf8) {
            let rest = body.dropFirst(2)
            let hostEnd = rest.firstIndex(where: { !isHostByte($0) }) ?? rest.endIndex
            let host = Array(rest[..<hostEnd])
            let tail = rest[hostEnd...]
            guard !host.isEmpty, tail.first != UInt8(ascii: "*") else { return nil }
            if host.last == UInt8(ascii: ".") {
                guard tail.isEmpty || tail.elementsEqual("^".utf8), !host.dropLast().contains(UInt8(ascii: ".")) else { return nil }
                return (Array(host.dropLast()), .labelPrefix)
            }
            return hostAndPath(host, tail, scheme: nil)
        }
        if body.first == UInt8(ascii: "|") {
            let rest = body.dropFirst()
            for scheme in ["https", "http"] where rest.starts(with: (scheme + "://").utf8) {
                var hostPart = rest.dropFirst(scheme.utf8.count + 3)
                if hostPart.starts(with: "*.".utf8) { hostPart = hostPart.dropFirst(2) }
                let hostEnd = hostPart.firstIndex(where: { !isHostByte($0) }) ?? hostPart.endIndex
                let host = Array(hostPart[..<hostEnd])
                guard !host.isEmpty, host.last != UInt8(ascii: ".") else { return nil }
                return hostAndPath(host, hostPart[hostEnd...], scheme: scheme)
            }
            return nil
        }
        // A plain host name or address (lists such as URLhaus write them bare).
        guard body.contains(UInt8(ascii: ".")), body.allSatisfy(isHostByte),
              body.first != UInt8(ascii: "."), body.last != UInt8(ascii: ".") else { return nil }
        return (Array(body), .host)
    }

    /// What follows a host: nothing or `^` (the host), or `/…` (a URL pattern).
    private static func hostAndPath(_ host: [UInt8], _ tail: ArraySlice<UInt8>, scheme: String?) -> ([UInt8], BlockEntry.Kind)? {
        if tail.isEmpty || tail.elementsEqual("^".utf8) || tail.elementsEqual("^|".utf8) || (tail.elementsEqual("|".utf8)) {
            return (host, .host)
        }
        guard tail.first == UInt8(ascii: "/") else { return nil }
        var pattern = Array(tail)
        var anchored = false
        if pattern.last == UInt8(ascii: "|") {
            pattern.removeLast()
            anchored = true
        }
        return (host, .url(pattern: pattern.map(lowercase), anchoredAtEnd: anchored, scheme: scheme))
    }

    /// `0.0.0.0 a.example b.example # comment`: the hosts; nil when the line is not in that form.
    static func hostsFileHosts(_ line: ArraySlice<UInt8>) -> [[UInt8]]? {
        let fields = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
        guard fields.count >= 2, let address = fields.first,
              ["0.0.0.0", "127.0.0.1", "::", "::1", "0"].contains(where: { address.elementsEqual($0.utf8) }) else { return nil }
        var hosts: [[UInt8]] = []
        for field in fields.dropFirst() {
            if field.first == UInt8(ascii: "#") { break }
            guard field.allSatisfy(isHostByte), field.contains(UInt8(ascii: ".")) else { continue }
            if ["localhost.localdomain", "0.0.0.0"].contains(where: { field.elementsEqual($0.utf8) }) { continue }
            hosts.append(Array(field))
        }
        return hosts
    }

    /// `##`, `#@#`, `#?#`, `#$#`, `#%#` and their `@` forms.
    static func isCosmetic(_ line: ArraySlice<UInt8>) -> Bool {
        var index = line.startIndex
        while let hash = line[index...].firstIndex(of: UInt8(ascii: "#")) {
            let after = line[(hash + 1)...]
            if after.first == UInt8(ascii: "#") { return true }
            var marker = after
            if marker.first == UInt8(ascii: "@") { marker = marker.dropFirst() }
            if let sign = marker.first, [UInt8(ascii: "#"), UInt8(ascii: "?"), UInt8(ascii: "$"), UInt8(ascii: "%")].contains(sign) {
                let rest = marker.dropFirst()
                if sign == UInt8(ascii: "#") || rest.first == UInt8(ascii: "#") || (sign == UInt8(ascii: "$") && rest.first == UInt8(ascii: "?") && rest.dropFirst().first == UInt8(ascii: "#")) {
                    return true
                }
            }
            index = hash + 1
        }
        return false
    }

    /// Lowercase ASCII host bytes, Unicode hosts in their `xn--` form; nil when not a host.
    static func asciiHost(_ host: [UInt8]) -> [UInt8]? {
        guard !host.isEmpty, host.count <= 253 else { return nil }
        if host.allSatisfy({ $0 < 0x80 }) { return host.map(lowercase) }
        guard let ascii = Punycode.toASCII(host: String(decoding: host, as: UTF8.self).lowercased()) else { return nil }
        return Array(ascii.utf8)
    }

    /// Letters, digits, `-`, `.`, `_`, `%` and any non-ASCII byte (an IDN written in Unicode).
    static func isHostByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "%")
    }

    static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// The value of `! Name: value` in a comment line.
    private static func header(_ name: String, in line: ArraySlice<UInt8>) -> String? {
        let text = line.dropFirst().drop(while: { $0 == 0x20 })
        guard text.starts(with: name.utf8) else { return nil }
        let value = text.dropFirst(name.utf8.count).drop(while: { $0 == 0x20 })
        return value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
    }
}

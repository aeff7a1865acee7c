import Platform
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

/// One parsed entry of a list. Plain values: its host and URL pattern are ranges of the
/// parser's `bytes`, its `to=` domains an index in its `targets`, so a list's thousands of
/// entries are a few arrays, not two or three each (an allocation cost ~280 instructions, and
/// a copy of an entry retained and released them).
struct BlockEntry {
    enum Kind: Equatable {
        /// The host and everything under it.
        case host
        /// URLs at the host (or under it) whose path and query match `pattern` (see `PathPattern`).
        case url(anchoredAtEnd: Bool, scheme: Scheme)
        /// Hosts with a label `name` followed by more labels.
        case labelPrefix
    }

    /// The scheme a `|https://…` entry names.
    enum Scheme: Equatable {
        case any, http, https

        /// True when a link with `scheme` has this one.
        func admits(_ scheme: String) -> Bool {
            switch self {
            case .any: true
            case .http: scheme == "http"
            case .https: scheme == "https"
            }
        }
    }

    /// The host: lowercase ASCII, Unicode hosts in their `xn--` form.
    var host: Range<Int32>
    /// A URL entry's pattern, lowercased (empty for the others).
    var pattern: Range<Int32>
    var kind: Kind
    var isException: Bool
    /// Its `to=` domains in the parser's `targets`, -1 for none.
    var targets: Int32
    /// Line number (from 1) and the line's byte range in the text.
    var line: Int32
    var range: Range<Int32>
}

/// `to=`: domains the target must be under (none: any) and must not be under.
struct BlockTargets {
    var included: [[UInt8]]
    var excluded: [[UInt8]]
}

/// Reads uBlock Origin / Adblock Plus filter lists and hosts files into entries a host look-up
/// can decide (see `BlockListCounts` for what is skipped). One pass, no regular expressions.
/// Lines are read in place (buffers over the list's bytes, no slices or copies per line) and
/// entries are plain values: a start-up reads some 10,000 lines.
struct BlockListParser {
    var counts = BlockListCounts()
    var entries: [BlockEntry] = []
    /// The entries' hosts and URL patterns, one after another.
    var bytes: [UInt8] = []
    /// While a text is parsed, `bytes` has room after its end: where that is.
    private var bytesEnd = 0
    /// The entries' `to=` domains.
    var targets: [BlockTargets] = []
    /// The `! Title:` line, when the list has one.
    var title: String?

    /// Parses `text`.
    mutating func parse(_ text: [UInt8]) {
        text.withUnsafeBufferPointer { parse($0) }
    }

    /// Each line without the spaces, tabs and CRs around it; a last line with nothing but those
    /// (the end of a file that ends with a newline) is not a line.
    private mutating func parse(_ text: UnsafeBufferPointer<UInt8>) {
        // Most lines are an entry: room for one a line saves copying the entries as they grow.
        var lines = 1, newline = text.index(of: 0x0A, from: 0)
        while newline < text.count {
            lines += 1
            newline = text.index(of: 0x0A, from: newline + 1)
        }
        entries.reserveCapacity(entries.count + lines)
        // Hosts and patterns are most of a list's text (a Unicode host may grow in its xn-- form):
        // room for all of it, written through a pointer, then cut to what was written.
        bytesEnd = bytes.count
        bytes += repeatElement(0, count: text.count)
        defer { bytes = Array(bytes[..<bytesEnd]) }
        var lineStart = 0
        var number: Int32 = 0
        while lineStart <= text.count {
            let lineEnd = text.index(of: 0x0A, from: lineStart)
            number += 1
            var start = lineStart, end = lineEnd
            while start < end, Self.isBlankOrCR(text[start]) { start += 1 }
            while end > start, Self.isBlankOrCR(text[end - 1]) { end -= 1 }
            if !(lineEnd == text.count && start == end) {
                parseLine(text.part(start..<end), line: number, range: Int32(start)..<Int32(end))
            }
            lineStart = lineEnd + 1
        }
    }

    /// One trimmed line: a comment, a cosmetic rule, a hosts-file line or a filter.
    private mutating func parseLine(_ line: UnsafeBufferPointer<UInt8>, line number: Int32, range: Range<Int32>) {
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
        // Every hosts-file address starts so: other lines skip the look for one.
        if first == UInt8(ascii: "0") || first == UInt8(ascii: "1") || first == UInt8(ascii: ":"),
           addHostsFileHosts(line, number, range) {
            return
        }
        var body = line
        let exception = body.hasPrefix("@@")
        if exception { body = body.part(2..<body.count) }
        var options = FilterOptions()
        if let dollar = Self.optionsStart(body) {
            options = FilterOptions(body.part((dollar + 1)..<body.count))
            body = body.part(0..<dollar)
        }
        switch options.verdict {
        case .notForPages: counts.notForPages += 1; return
        case .unsupported: counts.unsupportedOptions += 1; return
        case .usable: counts.ignoredOptions += options.ignored
        }
        guard let pattern = Self.pattern(body) else {
            counts.unsupportedPatterns += 1
            return
        }
        add(pattern, in: body, exception: exception, options: options, number, range)
    }

    /// The `$` that starts a line's options: the last one, unless a `/` follows it (then it is
    /// part of a path or a regular expression).
    private static func optionsStart(_ body: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = body.count
        while index > 0 {
            index -= 1
            if body[index] == UInt8(ascii: "$") { return index }
            if body[index] == UInt8(ascii: "/") { return nil }
        }
        return nil
    }

    /// `0.0.0.0 a.example b.example # comment`: adds the hosts (a line of none is a comment) and
    /// returns true; false when the line is not in that form.
    private mutating func addHostsFileHosts(_ line: UnsafeBufferPointer<UInt8>, _ number: Int32, _ range: Range<Int32>) -> Bool {
        var start = 0
        while start < line.count, !Self.isBlank(line[start]) { start += 1 }
        // The line is trimmed: a blank inside it is followed by a second field.
        guard start < line.count, Self.isHostsFileAddress(line.part(0..<start)) else { return false }
        var listed = 0
        while start < line.count {
            while start < line.count, Self.isBlank(line[start]) { start += 1 }
            var end = start
            while end < line.count, !Self.isBlank(line[end]) { end += 1 }
            let field = line.part(start..<end)
            start = end
            if field.first == UInt8(ascii: "#") { break }
            guard field.allSatisfy(Self.isHostByte), field.contains(UInt8(ascii: ".")),
                  !field.isEqual(to: "localhost.localdomain"), !field.isEqual(to: "0.0.0.0") else { continue }
            listed += 1
            add(Pattern(kind: .host, host: 0..<field.count), in: field, exception: false, options: FilterOptions(), number, range)
        }
        if listed == 0 { counts.comments += 1 }
        return true
    }

    /// The addresses hosts files send blocked names to.
    private static func isHostsFileAddress(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        field.isEqual(to: "0.0.0.0") || field.isEqual(to: "127.0.0.1") || field.isEqual(to: "::") || field.isEqual(to: "::1")
            || field.isEqual(to: "0")
    }

    /// Adds the entry of `pattern` (positions in `body`), unless its host is not one.
    private mutating func add(_ pattern: Pattern, in body: UnsafeBufferPointer<UInt8>, exception: Bool, options: consuming FilterOptions,
                              _ line: Int32, _ range: Range<Int32>) {
        guard let host = storeHost(body.part(pattern.host)) else {
            counts.unsupportedPatterns += 1
            return
        }
        var path = host.upperBound..<host.upperBound
        let kind: BlockEntry.Kind
        switch pattern.kind {
        case .host:
            counts.hosts += 1
            kind = .host
        case .url:
            counts.urls += 1
            path = store(body.part(pattern.path))
            kind = .url(anchoredAtEnd: pattern.anchoredAtEnd, scheme: pattern.scheme)
        case .labelPrefix:
            counts.labelPrefixes += 1
            kind = .labelPrefix
        }
        if exception { counts.exceptions += 1 }
        var target: Int32 = -1
        if !options.toIncluded.isEmpty || !options.toExcluded.isEmpty {
            target = Int32(targets.count)
            targets.append(BlockTargets(included: options.toIncluded, excluded: options.toExcluded))
        }
        entries.append(BlockEntry(host: host, pattern: path, kind: kind, isException: exception, targets: target, line: line, range: range))
    }

    /// Stores a host as lowercase ASCII, a Unicode host in its `xn--` form; nil when it is not a host.
    private mutating func storeHost(_ host: UnsafeBufferPointer<UInt8>) -> Range<Int32>? {
        guard !host.isEmpty, host.count <= 253 else { return nil }
        if host.allSatisfy({ $0 < 0x80 }) { return store(host) }
        guard var ascii = Punycode.toASCII(host: String(decoding: host, as: UTF8.self).lowercased()) else { return nil }
        return ascii.withUTF8 { store($0) }
    }

    /// Adds `source` to `bytes` with ASCII letters in lowercase; returns where it went.
    private mutating func store(_ source: UnsafeBufferPointer<UInt8>) -> Range<Int32> {
        let start = bytesEnd
        if bytes.count < start + source.count { bytes += repeatElement(0, count: max(source.count, bytes.count)) }
        bytes.withUnsafeMutableBufferPointer { Self.copyLowercased(source, to: $0.part(start..<(start + source.count))) }
        bytesEnd += source.count
        return Int32(start)..<Int32(bytesEnd)
    }

    /// The bytes `range` of `bytes`.
    func bytes(_ range: Range<Int32>) -> ArraySlice<UInt8> {
        bytes[Int(range.lowerBound)..<Int(range.upperBound)]
    }

    /// A space or a tab: what separates a hosts file's fields.
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// A space, a tab or a CR: what is trimmed from a line's ends.
    static func isBlankOrCR(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
}

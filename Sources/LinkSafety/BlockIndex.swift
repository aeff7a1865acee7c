/// A block list's entries in hash tables: a link is tested with one backward pass over its host
/// (each suffix at a label boundary is one look-up, the hash carried from the shorter suffix), a
/// forward pass over its labels for label prefixes, and URL patterns only at hosts that have them.
struct BlockIndex {
    /// Everything listed at one host.
    struct Node {
        var host: [UInt8]
        /// Entries for the host itself (and what is under it), as indexes into `entries`.
        var hostEntries: [Int32] = []
        /// URL-pattern entries at the host.
        var urlEntries: [Int32] = []
    }

    private(set) var entries: [BlockEntry] = []
    private var nodes: [Node] = []
    /// Hash of a host read backwards → node.
    private var byHost: [UInt64: [Int32]] = [:]
    /// Hash of a label → entries (`||name.`).
    private var byLabel: [UInt64: [Int32]] = [:]

    init(_ entries: [BlockEntry]) {
        self.entries = entries
        byHost.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            switch entry.kind {
            case .labelPrefix:
                byLabel[Self.forwardHash(entry.host[...]), default: []].append(Int32(index))
            case .host, .url:
                let key = Self.backwardHash(entry.host[...])
                var node = byHost[key]?.first { nodes[Int($0)].host == entry.host }
                if node == nil {
                    node = Int32(nodes.count)
                    nodes.append(Node(host: entry.host))
                    byHost[key, default: []].append(Int32(nodes.count - 1))
                }
                guard let node else { continue }
                if case .host = entry.kind { nodes[Int(node)].hostEntries.append(Int32(index)) } else { nodes[Int(node)].urlEntries.append(Int32(index)) }
            }
        }
    }

    /// A link to test: the host (lowercase ASCII, no trailing dot), the scheme, and the path
    /// with its query, lowercased, computed only when a URL pattern needs it.
    struct Target {
        var host: [UInt8]
        var scheme: String
        var pathAndQuery: () -> [UInt8]
    }

    /// The first entry (exceptions apart, see `BlockList`) that matches `target`, among the
    /// exceptions when `exceptions` is true.
    func firstMatch(_ target: Target, exceptions: Bool) -> BlockEntry? {
        let host = target.host
        guard !host.isEmpty else { return nil }
        var path: [UInt8]?
        let wholeOnly = HostText.isIPv4(host)
        var hash = Self.offset
        var index = host.count
        while index > 0 {
            index -= 1
            hash = (hash ^ UInt64(host[index])) &* Self.prime
            guard index == 0 || (!wholeOnly && host[index - 1] == UInt8(ascii: ".")) else { continue }
            guard let candidates = byHost[hash] else { continue }
            for nodeIndex in candidates {
                let node = nodes[Int(nodeIndex)]
                guard node.host.count == host.count - index, node.host.elementsEqual(host[index...]) else { continue }
                for entryIndex in node.hostEntries {
                    let entry = entries[Int(entryIndex)]
                    if entry.isException == exceptions, Self.allowsTarget(entry, host) { return entry }
                }
                for entryIndex in node.urlEntries {
                    let entry = entries[Int(entryIndex)]
                    guard entry.isException == exceptions, case .url(let pattern, let anchored, let scheme) = entry.kind else { continue }
                    if let scheme, scheme != target.scheme { continue }
                    if path == nil { path = target.pathAndQuery() }
                    if PathPattern.matches(pattern, anchoredAtEnd: anchored, path ?? []), Self.allowsTarget(entry, host) { return entry }
                }
            }
        }
        if !byLabel.isEmpty, !wholeOnly {
            var start = 0
            while let dot = host[start...].firstIndex(of: UInt8(ascii: ".")) {
                if let candidates = byLabel[Self.forwardHash(host[start..<dot])] {
                    for entryIndex in candidates {
                        let entry = entries[Int(entryIndex)]
                        if entry.isException == exceptions, entry.host.elementsEqual(host[start..<dot]), Self.allowsTarget(entry, host) { return entry }
                    }
                }
                start = dot + 1
            }
        }
        return nil
    }

    /// `to=`: the host must be under one of the included domains (if any) and none of the excluded.
    private static func allowsTarget(_ entry: BlockEntry, _ host: [UInt8]) -> Bool {
        if !entry.toIncluded.isEmpty, !entry.toIncluded.contains(where: { isSameOrUnder(host, $0) }) { return false }
        return !entry.toExcluded.contains(where: { isSameOrUnder(host, $0) })
    }

    private static func isSameOrUnder(_ host: [UInt8], _ domain: [UInt8]) -> Bool {
        guard host.count >= domain.count, host.suffix(domain.count).elementsEqual(domain) else { return false }
        return host.count == domain.count || host[host.count - domain.count - 1] == UInt8(ascii: ".")
    }

    // FNV-1a, 64 bits.
    private static let offset: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash `firstMatch` computes for a host suffix: its bytes from last to first.
    static func backwardHash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash = offset
        for byte in bytes.reversed() { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    static func forwardHash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash = offset
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }
}

/// uBlock's URL patterns after a host: `*` any run of characters, `^` a separator (anything but
/// a letter, a digit or `_ - . %`) or the end, a trailing `|` the end; otherwise the pattern
/// is a prefix of the path and query.
enum PathPattern {
    /// True when `pattern` matches the start of `target` (all of it when `anchoredAtEnd`).
    /// Greedy with one backtracking point per `*`, as glob matchers do: linear in practice and
    /// at worst pattern × target, both bounded (4 KB lines, 128 KB URLs).
    static func matches(_ pattern: [UInt8], anchoredAtEnd: Bool, _ target: [UInt8]) -> Bool {
        var p = 0, t = 0
        var starP = -1, starT = 0
        let open = !anchoredAtEnd
        while t < target.count {
            if p == pattern.count, open { return true }
            if p < pattern.count {
                let token = pattern[p]
                if token == UInt8(ascii: "*") {
                    starP = p
                    starT = t
                    p += 1
                    continue
                }
                if token == UInt8(ascii: "^") ? isSeparator(target[t]) : token == target[t] {
                    p += 1
                    t += 1
                    continue
                }
            }
            guard starP >= 0 else { return false }
            p = starP + 1
            starT += 1
            t = starT
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") || pattern[p] == UInt8(ascii: "^") { p += 1 }
        return p == pattern.count
    }

    static func isSeparator(_ byte: UInt8) -> Bool {
        byte < 0x80 && !BlockListParser.isHostByte(byte)
    }
}

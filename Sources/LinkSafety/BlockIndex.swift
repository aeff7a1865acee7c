import Platform

/// A block list's entries in hash tables: a link is tested with one backward pass over its host
/// (each suffix at a label boundary is one probe, the hash carried over from the shorter
/// suffix), a forward pass over its labels for label prefixes, and URL patterns only at hosts
/// that have them. The tables hold plain integers (hosts in one byte buffer), so a look-up
/// that finds nothing allocates nothing. A class: a look-up borrows the tables instead of
/// copying a struct of a dozen arrays (and their reference counts) out of the list.
///
/// A host can carry thousands of URL patterns (URLhaus lists ~1,450 at github.com): a pattern
/// whose first `prefixLengths[0]` bytes or more are literal is filed under its host and its
/// literal start cut to the longest of `prefixLengths` it reaches, so a link tries one chain
/// per length (the patterns that share its path's start), not every pattern of the host.
final class BlockIndex: Sendable {
    /// Everything listed at one host.
    struct Node {
        /// The host's bytes in `bytes` (those of its first entry).
        var hostStart: Int32
        var hostCount: Int32
        /// The next node whose host has the same hash, or -1.
        var next: Int32 = -1
        /// The node's entries (host entries first, then URL patterns) in `nodeEntries`.
        var entriesStart: Int32 = 0
        var hostEntryCount: Int32 = 0
        /// URL patterns without a long literal start, tried one by one.
        var urlEntryCount: Int32 = 0
        /// URL patterns filed in `byPrefix`.
        var prefixedCount: Int32 = 0
    }

    /// The literal starts URL patterns are filed under, shortest first.
    static let prefixLengths = [8, 16, 32, 64]

    let entries: [BlockEntry]
    /// The entries' hosts and URL patterns, and their `to=` domains (see `BlockListParser`).
    let bytes: [UInt8]
    let targets: [BlockTargets]
    let nodes: [Node]
    let nodeEntries: [Int32]
    /// Hash of a host read backwards → its first node.
    let byHost: HashSlots
    /// Hash of a label → the first of its `||name.` entries; `labelNext` chains the others.
    let byLabel: HashSlots
    let labelNext: [Int32]
    /// Hash of (node, a literal start of a URL pattern) → the first of its entries (lowest
    /// index); `prefixNext` chains the others, in list order; `entryNode` is each entry's node.
    let byPrefix: HashSlots
    let prefixNext: [Int32]
    let entryNode: [Int32]

    /// Where an entry goes in the index, found in the first pass over the entries.
    private enum Placement: UInt8 {
        case label, host, url, prefixed
    }

    /// Indexes the entries a parser read. Two passes over them: the first finds each entry's
    /// node and counts, the second puts the entries of each node in one run of `nodeEntries`, so
    /// no array per node is made.
    convenience init(entries: [BlockEntry], bytes: [UInt8], targets: [BlockTargets]) {
        var nodes: [Node] = []
        var labelNext = Array(repeating: Int32(-1), count: entries.count)
        var entryNode = Array(repeating: Int32(-1), count: entries.count)
        var placements = Array(repeating: Placement.label, count: entries.count)
        var prefixed: [(index: Int32, length: Int)] = []
        var labels = 0
        for entry in entries where entry.kind == .labelPrefix { labels += 1 }
        var byHost = HashSlots(capacity: entries.count - labels), byLabel = HashSlots(capacity: labels)
        bytes.withUnsafeBufferPointer { bytes in
            for (index, entry) in entries.enumerated() {
                let host = bytes.part(Int(entry.host.lowerBound)..<Int(entry.host.upperBound))
                if entry.kind == .labelPrefix {
                    labelNext[index] = byLabel.insert(Self.forwardHash(host), Int32(index))
                    continue
                }
                let key = Self.backwardHash(host)
                var node = byHost.find(key)
                while node >= 0, !Self.holds(nodes[Int(node)], host, in: bytes) { node = nodes[Int(node)].next }
                if node < 0 {
                    node = Int32(nodes.count)
                    var made = Node(hostStart: entry.host.lowerBound, hostCount: Int32(host.count))
                    made.next = byHost.insert(key, node)
                    nodes.append(made)
                }
                entryNode[index] = node
                if entry.kind == .host {
                    placements[index] = .host
                    nodes[Int(node)].hostEntryCount += 1
                } else if let length = Self.filingLength(bytes.part(Int(entry.pattern.lowerBound)..<Int(entry.pattern.upperBound))) {
                    placements[index] = .prefixed
                    prefixed.append((Int32(index), length))
                    nodes[Int(node)].prefixedCount += 1
                } else {
                    placements[index] = .url
                    nodes[Int(node)].urlEntryCount += 1
                }
            }
        }
        // Each node's run: its host entries, then its URL patterns that are not filed, in list order.
        var total: Int32 = 0
        var hostFill: [Int32] = [], urlFill: [Int32] = []
        hostFill.reserveCapacity(nodes.count)
        urlFill.reserveCapacity(nodes.count)
        for node in nodes.indices {
            nodes[node].entriesStart = total
            hostFill.append(total)
            urlFill.append(total + nodes[node].hostEntryCount)
            total += nodes[node].hostEntryCount + nodes[node].urlEntryCount
        }
        var nodeEntries = Array(repeating: Int32(0), count: Int(total))
        for (index, placement) in placements.enumerated() {
            let node = Int(entryNode[index])
            switch placement {
            case .host:
                nodeEntries[Int(hostFill[node])] = Int32(index)
                hostFill[node] += 1
            case .url:
                nodeEntries[Int(urlFill[node])] = Int32(index)
                urlFill[node] += 1
            case .label, .prefixed:
                break
            }
        }
        // Filed last to first, so each chain runs in list order.
        var byPrefix = HashSlots(capacity: prefixed.count)
        var prefixNext = Array(repeating: Int32(-1), count: entries.count)
        bytes.withUnsafeBufferPointer { bytes in
            for (index, length) in prefixed.reversed() {
                let start = Int(entries[Int(index)].pattern.lowerBound)
                let key = Self.prefixHash(node: entryNode[Int(index)], bytes[start..<(start + length)])
                prefixNext[Int(index)] = byPrefix.insert(key, index)
            }
        }
        self.init(entries: entries, bytes: bytes, targets: targets, nodes: nodes, nodeEntries: nodeEntries, byHost: byHost,
                  byLabel: byLabel, labelNext: labelNext, byPrefix: byPrefix, prefixNext: prefixNext, entryNode: entryNode)
    }

    /// An index of tables read back from a snapshot (`BlockIndex+Snapshot` checks them first).
    init(entries: [BlockEntry], bytes: [UInt8], targets: [BlockTargets], nodes: [Node], nodeEntries: [Int32], byHost: HashSlots,
         byLabel: HashSlots, labelNext: [Int32], byPrefix: HashSlots, prefixNext: [Int32], entryNode: [Int32]) {
        self.entries = entries
        self.bytes = bytes
        self.targets = targets
        self.nodes = nodes
        self.nodeEntries = nodeEntries
        self.byHost = byHost
        self.byLabel = byLabel
        self.labelNext = labelNext
        self.byPrefix = byPrefix
        self.prefixNext = prefixNext
        self.entryNode = entryNode
    }

    /// `entry` written back in the list's syntax from what the index holds (its options and
    /// exact spelling are not kept): `||host^`, `||name.`, `||host/path`, `@@` for an exception.
    func writtenForm(of entry: BlockEntry) -> String {
        func text(_ range: Range<Int32>) -> String {
            String(decoding: bytes[Int(range.lowerBound)..<Int(range.upperBound)], as: UTF8.self)
        }
        let start = entry.isException ? "@@" : ""
        switch entry.kind {
        case .host: return start + "||" + text(entry.host) + "^"
        case .labelPrefix: return start + "||" + text(entry.host) + "."
        case .url(let anchored, let scheme):
            let opening = switch scheme {
            case .any: "||"
            case .http: "|http://"
            case .https: "|https://"
            }
            return start + opening + text(entry.host) + text(entry.pattern) + (anchored ? "|" : "")
        }
    }

    /// True when `node` is the node of `host` (its bytes in `bytes`).
    private static func holds(_ node: Node, _ host: some Collection<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        Int(node.hostCount) == host.count && bytes[Int(node.hostStart)..<Int(node.hostStart + node.hostCount)].elementsEqual(host)
    }

    /// The length of the literal start `pattern` is filed under, nil when it is too short.
    static func filingLength(_ pattern: UnsafeBufferPointer<UInt8>) -> Int? {
        // Only the first 64 bytes can matter (URLhaus's patterns run to hundreds).
        let start = pattern.part(0..<min(pattern.count, prefixLengths[prefixLengths.count - 1]))
        let literal = min(start.index(of: UInt8(ascii: "*"), from: 0), start.index(of: UInt8(ascii: "^"), from: 0))
        var filing: Int?
        for length in prefixLengths where length <= literal { filing = length }
        return filing
    }

    /// The hash of a node and a literal start.
    static func prefixHash(node: Int32, _ bytes: some Collection<UInt8>) -> UInt64 {
        var hash = offset
        for shift in stride(from: 0, to: 32, by: 8) { hash = (hash ^ UInt64(UInt32(bitPattern: node) >> UInt32(shift) & 0xFF)) &* prime }
        hash = (hash ^ UInt64(bytes.count)) &* prime
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    /// The first entry that matches a link to `host` (lowercase ASCII, no trailing dot) with
    /// `scheme`, among the exceptions when `exceptions` is true. `pathAndQuery` (lowercased) is
    /// asked for only when a URL pattern is tried.
    func firstMatch(host: UnsafeBufferPointer<UInt8>, scheme: String, exceptions: Bool, pathAndQuery: () -> [UInt8]) -> BlockEntry? {
        guard !host.isEmpty else { return nil }
        let found: Int? = bytes.withUnsafeBufferPointer { bytes in
            var path: [UInt8]?
            return walk(host: host, in: bytes, node: { found, node in
                let start = Int(node.entriesStart)
                for slot in start..<(start + Int(node.hostEntryCount)) {
                    let entry = Int(nodeEntries[slot])
                    if entries[entry].isException == exceptions, allowsTarget(entries[entry], host) { return entry }
                }
                guard node.urlEntryCount > 0 || node.prefixedCount > 0 else { return nil }
                if path == nil { path = pathAndQuery() }
                let target = path ?? []
                var first: Int?
                for slot in (start + Int(node.hostEntryCount))..<(start + Int(node.hostEntryCount + node.urlEntryCount)) {
                    let entry = Int(nodeEntries[slot])
                    if urlMatches(entries[entry], target, scheme: scheme, exceptions: exceptions, host: host, bytes) { first = entry; break }
                }
                if node.prefixedCount > 0 {
                    for length in Self.prefixLengths where length <= target.count {
                        var entry = byPrefix.find(Self.prefixHash(node: found, target[0..<length]))
                        while entry >= 0, entry < first ?? Int(Int32.max) {
                            if entryNode[Int(entry)] == found,
                               urlMatches(entries[Int(entry)], target, scheme: scheme, exceptions: exceptions, host: host, bytes) {
                                first = Int(entry)
                                break
                            }
                            entry = prefixNext[Int(entry)]
                        }
                    }
                }
                return first
            }, label: { entry in
                entries[entry].isException == exceptions && allowsTarget(entries[entry], host) ? entry : nil
            })
        }
        return found.map { entries[$0] }
    }

    /// Whether any entry could match a link to `host` (lowercase ASCII, no trailing dot) at all,
    /// whatever its scheme, path, `to=` or whether it is an exception: a node for the host or a
    /// parent domain, or a label-prefix entry for one of its labels, as `firstMatch` finds
    /// them. False for most hosts, which then need no `firstMatch` on any of their links.
    func mentions(host: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !host.isEmpty else { return false }
        return bytes.withUnsafeBufferPointer { bytes in
            walk(host: host, in: bytes, node: { _, _ in true }, label: { _ in true }) ?? false
        }
    }

    /// What a link to `host` can reach in the index, in the order `firstMatch` tries it: each
    /// node for the host or a parent domain (from the whole host up; an IPv4 address only whole),
    /// then each label-prefix entry for one of its labels. The first answer `node` or `label`
    /// gives stands. One walk for `firstMatch` and `mentions`: the host memo skips the lists for
    /// a host `mentions` passes over, so the two must reach the same entries.
    @inline(__always)
    private func walk<Found>(host: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>,
                             node visitNode: (_ index: Int32, _ node: Node) -> Found?, label visitLabel: (_ entry: Int) -> Found?) -> Found? {
        let wholeOnly = HostText.isIPv4(host)
        var hash = Self.offset
        var index = host.count
        while index > 0 {
            index -= 1
            hash = (hash ^ UInt64(host[index])) &* Self.prime
            guard index == 0 || (!wholeOnly && host[index - 1] == UInt8(ascii: ".")) else { continue }
            var nodeIndex = byHost.find(hash)
            while nodeIndex >= 0 {
                let found = nodeIndex
                let node = nodes[Int(nodeIndex)]
                nodeIndex = node.next
                guard Self.holds(node, host[index...], in: bytes) else { continue }
                if let answer = visitNode(found, node) { return answer }
            }
        }
        guard !byLabel.isEmpty, !wholeOnly else { return nil }
        var start = 0
        for dot in 0..<host.count where host[dot] == UInt8(ascii: ".") {
            var entryIndex = byLabel.find(Self.forwardHash(host[start..<dot]))
            while entryIndex >= 0 {
                let entry = entries[Int(entryIndex)]
                if bytes[Int(entry.host.lowerBound)..<Int(entry.host.upperBound)].elementsEqual(host[start..<dot]),
                   let answer = visitLabel(Int(entryIndex)) { return answer }
                entryIndex = labelNext[Int(entryIndex)]
            }
            start = dot + 1
        }
        return nil
    }

    /// Whether the URL entry `entry` matches a link to `host` with `scheme` and `target` (its
    /// path and query, lowercased); `bytes` are the index's `bytes`.
    private func urlMatches(_ entry: BlockEntry, _ target: [UInt8], scheme: String, exceptions: Bool, host: UnsafeBufferPointer<UInt8>,
                            _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard entry.isException == exceptions, case .url(let anchored, let entryScheme) = entry.kind, entryScheme.admits(scheme) else { return false }
        let pattern = bytes.part(Int(entry.pattern.lowerBound)..<Int(entry.pattern.upperBound))
        return PathPattern.matches(pattern, anchoredAtEnd: anchored, target) && allowsTarget(entry, host)
    }

    /// `to=`: the host must be under one of the included domains (if any) and none of the excluded.
    private func allowsTarget(_ entry: BlockEntry, _ host: UnsafeBufferPointer<UInt8>) -> Bool {
        guard entry.targets >= 0 else { return true }
        let to = targets[Int(entry.targets)]
        if to.included.isEmpty, to.excluded.isEmpty { return true }
        if !to.included.isEmpty, !to.included.contains(where: { Self.isSameOrUnder(host, $0) }) { return false }
        return !to.excluded.contains(where: { Self.isSameOrUnder(host, $0) })
    }

    private static func isSameOrUnder(_ host: UnsafeBufferPointer<UInt8>, _ domain: [UInt8]) -> Bool {
        guard host.count >= domain.count, host[(host.count - domain.count)...].elementsEqual(domain) else { return false }
        return host.count == domain.count || host[host.count - domain.count - 1] == UInt8(ascii: ".")
    }

    /// FNV-1a, 64 bits (SuffixIndex hashes host suffixes the same way).
    static let offset: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a of the text's UTF-8 bytes.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash = offset
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        }
        return hash
    }

    /// The hash `firstMatch` computes for a host suffix: its bytes from last to first.
    static func backwardHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = offset
        var index = bytes.count
        while index > 0 {
            index -= 1
            hash = (hash ^ UInt64(bytes[index])) &* prime
        }
        return hash
    }

    static func forwardHash<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash = offset
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }
}

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
        /// The host's bytes in `hostBytes`.
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
    private let nodes: [Node]
    private let hostBytes: [UInt8]
    private let nodeEntries: [Int32]
    /// Hash of a host read backwards → its first node.
    private let byHost: HashSlots
    /// Hash of a label → the first of its `||name.` entries; `labelNext` chains the others.
    private let byLabel: HashSlots
    private let labelNext: [Int32]
    /// Hash of (node, a literal start of a URL pattern) → the first of its entries (lowest
    /// index); `prefixNext` chains the others, in list order; `entryNode` is each entry's node.
    private let byPrefix: HashSlots
    private let prefixNext: [Int32]
    private let entryNode: [Int32]

    init(_ entries: [BlockEntry]) {
        var nodes: [Node] = [], hostBytes: [UInt8] = [], nodeEntries: [Int32] = []
        var labelNext = Array(repeating: Int32(-1), count: entries.count)
        var grouped: [[Int32]] = []   // per node: host entries, then URL entries
        var hostKinds = 0
        for entry in entries { if case .labelPrefix = entry.kind {} else { hostKinds += 1 } }
        var byHost = HashSlots(capacity: hostKinds)
        var byLabel = HashSlots(capacity: entries.count - hostKinds)
        var pendingURLs: [[Int32]] = []
        var entryNode = Array(repeating: Int32(-1), count: entries.count)
        var prefixed: [(index: Int32, length: Int)] = []
        for (index, entry) in entries.enumerated() {
            if case .labelPrefix = entry.kind {
                let key = Self.forwardHash(entry.host[...])
                labelNext[index] = byLabel.insert(key, Int32(index))
                continue
            }
            let key = Self.backwardHash(entry.host[...])
            var node = byHost.find(key)
            while node >= 0, !hostBytes[Int(nodes[Int(node)].hostStart)..<Int(nodes[Int(node)].hostStart + nodes[Int(node)].hostCount)].elementsEqual(entry.host) {
                node = nodes[Int(node)].next
            }
            if node < 0 {
                node = Int32(nodes.count)
                var made = Node(hostStart: Int32(hostBytes.count), hostCount: Int32(entry.host.count))
                made.next = byHost.insert(key, node)
                nodes.append(made)
                hostBytes += entry.host
                grouped.append([])
                pendingURLs.append([])
            }
            entryNode[index] = node
            if case .url(let pattern, _, _) = entry.kind, let length = Self.filingLength(pattern) {
                prefixed.append((Int32(index), length))
                nodes[Int(node)].prefixedCount += 1
            } else if case .host = entry.kind {
                grouped[Int(node)].append(Int32(index))
            } else {
                pendingURLs[Int(node)].append(Int32(index))
            }
        }
        // Filed last to first, so each chain runs in list order.
        var byPrefix = HashSlots(capacity: prefixed.count)
        var prefixNext = Array(repeating: Int32(-1), count: entries.count)
        for (index, length) in prefixed.reversed() {
            guard case .url(let pattern, _, _) = entries[Int(index)].kind else { continue }
            let key = Self.prefixHash(node: entryNode[Int(index)], pattern[0..<length])
            prefixNext[Int(index)] = byPrefix.insert(key, index)
        }
        for node in nodes.indices {
            nodes[node].entriesStart = Int32(nodeEntries.count)
            nodes[node].hostEntryCount = Int32(grouped[node].count)
            nodes[node].urlEntryCount = Int32(pendingURLs[node].count)
            nodeEntries += grouped[node]
            nodeEntries += pendingURLs[node]
        }
        self.entries = entries
        self.nodes = nodes
        self.hostBytes = hostBytes
        self.nodeEntries = nodeEntries
        self.byHost = byHost
        self.byLabel = byLabel
        self.labelNext = labelNext
        self.byPrefix = byPrefix
        self.prefixNext = prefixNext
        self.entryNode = entryNode
    }

    /// The length of the literal start `pattern` is filed under, nil when it is too short.
    static func filingLength(_ pattern: [UInt8]) -> Int? {
        let literal = pattern.firstIndex(where: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "^") }) ?? pattern.count
        return prefixLengths.last(where: { $0 <= literal })
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
        // Entries are read in place: a copy of each one tried retained and released its arrays.
        let found: Int? = entries.withUnsafeBufferPointer { entries in
            var path: [UInt8]?
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
                    guard Int(node.hostCount) == host.count - index,
                          hostBytes[Int(node.hostStart)..<Int(node.hostStart + node.hostCount)].elementsEqual(host[index...]) else { continue }
                    let start = Int(node.entriesStart)
                    for slot in start..<(start + Int(node.hostEntryCount)) {
                        let entry = Int(nodeEntries[slot])
                        if entries[entry].isException == exceptions, Self.allowsTarget(entries[entry], host) { return entry }
                    }
                    guard node.urlEntryCount > 0 || node.prefixedCount > 0 else { continue }
                    if path == nil { path = pathAndQuery() }
                    let target = path ?? []
                    var first: Int?
                    for slot in (start + Int(node.hostEntryCount))..<(start + Int(node.hostEntryCount + node.urlEntryCount)) {
                        let entry = Int(nodeEntries[slot])
                        if Self.urlMatches(entries[entry], target, scheme: scheme, exceptions: exceptions, host: host) { first = entry; break }
                    }
                    if node.prefixedCount > 0 {
                        for length in Self.prefixLengths where length <= target.count {
                            var entry = byPrefix.find(Self.prefixHash(node: found, target[0..<length]))
                            while entry >= 0, entry < first ?? Int(Int32.max) {
                                if entryNode[Int(entry)] == found, Self.urlMatches(entries[Int(entry)], target, scheme: scheme, exceptions: exceptions, host: host) {
                                    first = Int(entry)
                                    break
                                }
                                entry = prefixNext[Int(entry)]
                            }
                        }
                    }
                    if let first { return first }
                }
            }
            guard !byLabel.isEmpty, !wholeOnly else { return nil }
            var start = 0
            for dot in 0..<host.count where host[dot] == UInt8(ascii: ".") {
                var entryIndex = byLabel.find(Self.forwardHash(host[start..<dot]))
                while entryIndex >= 0 {
                    let entry = Int(entryIndex)
                    if entries[entry].isException == exceptions, entries[entry].host.elementsEqual(host[start..<dot]),
                       Self.allowsTarget(entries[entry], host) { return entry }
                    entryIndex = labelNext[entry]
                }
                start = dot + 1
            }
            return nil
        }
        return found.map { entries[$0] }
    }

    /// Whether the URL entry `entry` matches a link to `host` with `scheme` and `target` (its
    /// path and query, lowercased).
    private static func urlMatches(_ entry: BlockEntry, _ target: [UInt8], scheme: String, exceptions: Bool, host: UnsafeBufferPointer<UInt8>) -> Bool {
        guard entry.isException == exceptions, case .url(let pattern, let anchored, let entryScheme) = entry.kind else { return false }
        if let entryScheme, entryScheme != scheme { return false }
        return PathPattern.matches(pattern, anchoredAtEnd: anchored, target) && allowsTarget(entry, host)
    }

    /// `to=`: the host must be under one of the included domains (if any) and none of the excluded.
    private static func allowsTarget(_ entry: BlockEntry, _ host: UnsafeBufferPointer<UInt8>) -> Bool {
        if entry.toIncluded.isEmpty, entry.toExcluded.isEmpty { return true }
        if !entry.toIncluded.isEmpty, !entry.toIncluded.contains(where: { isSameOrUnder(host, $0) }) { return false }
        return !entry.toExcluded.contains(where: { isSameOrUnder(host, $0) })
    }

    private static func isSameOrUnder(_ host: UnsafeBufferPointer<UInt8>, _ domain: [UInt8]) -> Bool {
        guard host.count >= domain.count, host[(host.count - domain.count)...].elementsEqual(domain) else { return false }
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

    static func forwardHash<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash = offset
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }
}

/// An open-addressing table from a 64-bit hash to an `Int32` (linear probing, at most half
/// full): the hashes are FNV already, so no second hash is computed. Equal hashes are allowed;
/// `insert` returns the value it displaces, for the caller to chain. The slots are one array of
/// plain values, so a probe costs no reference counting.
struct HashSlots: Sendable {
    private struct Slot: Sendable {
        var key: UInt64 = 0
        var value: Int32 = -1
        var used = false
    }

    private var slots: [Slot] = []
    private var mask = 0
    private(set) var isEmpty = true

    /// A table for `capacity` keys.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: Slot(), count: size)
        mask = size - 1
    }

    /// The value stored for `key`, or -1.
    func find(_ key: UInt64) -> Int32 {
        guard !isEmpty else { return -1 }
        return slots.withUnsafeBufferPointer { slots in
            var index = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
            while slots[index].used {
                if slots[index].key == key { return slots[index].value }
                index = (index + 1) & mask
            }
            return -1
        }
    }

    /// Stores `value` for `key`; returns the value it replaces (-1 for none).
    mutating func insert(_ key: UInt64, _ value: Int32) -> Int32 {
        isEmpty = false
        var index = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
        while slots[index].used {
            if slots[index].key == key {
                let previous = slots[index].value
                slots[index].value = value
                return previous
            }
            index = (index + 1) & mask
        }
        slots[index] = Slot(key: key, value: value, used: true)
        return -1
    }
}

import Platform

/// What a host's checks found: its IDN and look-alike reasons, and whether any block list
/// names it or a parent domain at all (`BlockList.mentions`).
struct HostFacts: Sendable {
    var reasons: [SafetyReason]
    var listed: Bool
}

/// Which checks ran for a host, and against which known domains (`KnownDomains.version`):
/// everything a host's facts depend on besides the host.
struct HostChecksRun: Equatable, Sendable {
    var idn: Bool
    var lookalikes: Bool
    /// The block lists ran (the checker's own lists: a checker given others starts a new memo).
    var blocklists: Bool
    var domains: Int
}

/// Each host's facts, remembered: the same answer for every click on a site. An open-addressing
/// table keyed by an FNV-1a hash of the host's bytes (`BlockIndex.fnv1a`), its entries in
/// parallel arrays so that a probe compares plain hashes and reads a string only on a hit. The
/// generic memo's Dictionary cost ~800 instructions a click (SipHash set-up and finalisation,
/// and String compares of both host forms on every probe). Bounded (emptied when it holds
/// `limit` hosts) and thread-safe; copies share the table.
struct HostFactsMemo: Sendable {
    private struct Table {
        /// Linear probing over indices into the entries, -1 when free; at most half full.
        var slots: [Int32] = []
        var hashes: [UInt64] = []
        var runs: [HostChecksRun] = []
        var hosts: [String] = []
        /// Nil when the Unicode form is the host itself (an ASCII host, or a scheme that is not
        /// special, which keeps `xn--` labels as written).
        var unicodeHosts: [String?] = []
        var facts: [HostFacts] = []

        /// The slot of the entry for the key, or the free slot where it would go.
        func slot(hash: UInt64, host: String, unicodeHost: String?, run: HostChecksRun) -> Int {
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            while slots[index] >= 0 {
                let entry = Int(slots[index])
                if hashes[entry] == hash, runs[entry] == run, hosts[entry] == host, unicodeHosts[entry] == unicodeHost { return index }
                index = (index + 1) & mask
            }
            return index
        }

        /// Makes room for `limit` entries, forgetting all.
        mutating func reset(limit: Int) {
            slots = Array(repeating: -1, count: limit * 2)
            hashes.removeAll(keepingCapacity: true)
            runs.removeAll(keepingCapacity: true)
            hosts.removeAll(keepingCapacity: true)
            unicodeHosts.removeAll(keepingCapacity: true)
            facts.removeAll(keepingCapacity: true)
        }
    }

    /// How many hosts are remembered at most.
    static let limit = 2_048
    private let table = Lock(Table())

    /// An empty memo.
    init() {}

    /// The facts remembered for `host` (and its Unicode form; pass `host` itself when they are
    /// the same) under `run`, or nil. A look-up and a `remember` rather than one call taking the
    /// work as a closure: the closure's capture copied the checker (~250 instructions).
    func facts(hash: UInt64, host: String, unicodeHost: String, run: HostChecksRun) -> HostFacts? {
        // The same storage for an ASCII host (a compare of two words); decoded text otherwise.
        let unicode: String? = unicodeHost == host ? nil : unicodeHost
        return table.withLock { table in
            guard !table.slots.isEmpty else { return nil }
            let slot = table.slots[table.slot(hash: hash, host: host, unicodeHost: unicode, run: run)]
            return slot >= 0 ? table.facts[Int(slot)] : nil
        }
    }

    /// Remembers `facts` for the host. Two threads may both have computed them; the first stays.
    func remember(_ facts: HostFacts, hash: UInt64, host: String, unicodeHost: String, run: HostChecksRun) {
        let unicode: String? = unicodeHost == host ? nil : unicodeHost
        table.withLock { table in
            if table.slots.isEmpty || table.hashes.count >= Self.limit { table.reset(limit: Self.limit) }
            let slot = table.slot(hash: hash, host: host, unicodeHost: unicode, run: run)
            guard table.slots[slot] < 0 else { return }
            table.slots[slot] = Int32(table.hashes.count)
            table.hashes.append(hash)
            table.runs.append(run)
            table.hosts.append(host)
            table.unicodeHosts.append(unicode)
            table.facts.append(facts)
        }
    }
}

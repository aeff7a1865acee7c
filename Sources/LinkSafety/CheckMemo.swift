import Platform

/// Answers of a pure check remembered by their inputs: the per-host checks (IDN and look-alikes)
/// and link text against its target are asked again for every click on the same site. Bounded
/// (emptied when it holds `limit` answers) and thread-safe; copies share it, so its key holds
/// everything the answer depends on that can change (the known domains' version).
struct CheckMemo<Key: Hashable & Sendable, Answer: Sendable>: Sendable {
    private let table = Lock<[Key: Answer]>([:])
    /// How many answers are kept at most.
    let limit: Int

    /// An empty memo keeping at most `limit` answers.
    init(limit: Int = 4_096) { self.limit = limit }

    /// The answer remembered for `key`, or `compute()`'s, remembered. `compute` runs without the
    /// lock held: two threads asking at once may both compute, and the answer is the same.
    func answer(_ key: Key, compute: () -> Answer) -> Answer {
        if let found = table.withLock({ $0[key] }) { return found }
        let answer = compute()
        table.withLock { table in
            if table.count >= limit { table.removeAll(keepingCapacity: true) }
            table[key] = answer
        }
        return answer
    }
}

/// A host's check, keyed by which checks ran against which known domains (`KnownDomains.version`).
/// Both forms of the host: a URL of a scheme that is not special keeps an `xn--` host as written
/// (its Unicode form is the same text), where `http` decodes it.
struct HostCheckKey: Hashable, Sendable {
    var host: String
    var unicodeHost: String
    var idn: Bool
    var lookalikes: Bool
    /// The block lists ran (the checker's own lists: a checker given others starts a new memo).
    var blocklists: Bool
    var domains: Int

    /// The ASCII host and the version only: the Unicode form follows from the host and the
    /// scheme, and the checks are the checker's, so hashing them too only cost (~40 % of the look-up).
    func hash(into hasher: inout Hasher) {
        hasher.combine(host)
        hasher.combine(domains)
    }
}

/// What a host's checks found: its IDN and look-alike reasons, and whether any block list
/// names it or a parent domain at all (`BlockList.mentions`).
struct HostFacts: Sendable {
    var reasons: [SafetyReason]
    var listed: Bool
}

/// Link text against where the link goes.
struct LinkTextKey: Hashable, Sendable {
    var text: String
    var target: String
    var scheme: String
}

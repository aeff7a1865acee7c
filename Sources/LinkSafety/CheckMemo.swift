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

/// Link text against where the link goes.
struct LinkTextKey: Hashable, Sendable {
    var text: String
    var target: String
    var scheme: String
}

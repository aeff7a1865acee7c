/// Picks, for a URL, the ClearURLs providers whose `urlPattern` can possibly match, so that only
/// those run their regex. Checking all ~200 patterns per URL costs several microseconds; most
/// patterns require a literal host word (`amazon`, `hh.ru`), so providers are bucketed by the
/// first three bytes of that word and a URL is scanned once.
struct ClearURLsIndex: Sendable {
    private static let tableBits = 12
    /// Bucket of literal ids per 3-byte hash; empty for most.
    private let buckets: [[Int32]]
    /// Literal bytes (lower-cased) and the provider each belongs to.
    private let literals: [[UInt8]]
    private let literalProvider: [Int]
    /// Providers without a usable literal: always candidates.
    private let unindexed: [Int]
    private let providerCount: Int

    init(patterns: [String]) {
        var buckets = [[Int32]](repeating: [], count: 1 << Self.tableBits)
        var literals: [[UInt8]] = []
        var literalProvider: [Int] = []
        var unindexed: [Int] = []
        for (provider, pattern) in patterns.enumerated() {
            guard let literal = Self.requiredLiteral(pattern) else { unindexed.append(provider); continue }
            buckets[Self.hash(literal[0], literal[1], literal[2])].append(Int32(literals.count))
            literals.append(literal)
            literalProvider.append(provider)
        }
        self.buckets = buckets
        self.literals = literals
        self.literalProvider = literalProvider
        self.unindexed = unindexed
        self.providerCount = patterns.count
    }

    /// The number of providers with a literal prefilter.
    var indexedCount: Int { literals.count }

    @inline(__always)
    private static func hash(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
        let h = (UInt32(a) &* 0x9E37) ^ (UInt32(b) &* 0x85EB) ^ (UInt32(c) &* 0xC2B3)
        return Int((h ^ (h >> 13)) & UInt32((1 << tableBits) - 1))
    }

    /// Provider indices, ascending (file order), whose pattern may match `url`.
    func candidates(for url: String) -> [Int] {
        var flags = [Bool](repeating: false, count: providerCount)
        for provider in unindexed { flags[provider] = true }
        var lowered = Array(url.utf8)
        for i in lowered.indices where lowered[i] >= 0x41 && lowered[i] <= 0x5A { lowered[i] += 32 }
        let count = lowered.count
        if count >= 3 {
            lowered.withUnsafeBufferPointer { text in
                for position in 0...(count - 3) {
                    let bucket = buckets[Self.hash(text[position], text[position + 1], text[position + 2])]
                    if bucket.isEmpty { continue }
                    for id in bucket {
                        let literal = literals[Int(id)]
                        let provider = literalProvider[Int(id)]
                        if flags[provider] || position + literal.count > count { continue }
                        var equal = true
                        for k in 3..<literal.count where text[position + k] != literal[k] { equal = false; break }
                        if equal { flags[provider] = true }
                    }
                }
            }
        }
        var result: [Int] = []
        for i in 0..<providerCount where flags[i] { result.append(i) }
        return result
    }

    /// The longest literal (lower-cased, ASCII, 3+ bytes) that every match of `pattern` must
    /// contain, read conservatively from the top level of the pattern; nil when unsure.
    static func requiredLiteral(_ pattern: String) -> [UInt8]? {
        let c = Array(pattern.utf8)
        if pattern.contains("(?x") || pattern.contains("(*") || pattern.contains("\\Q") { return nil }
        var runs: [[UInt8]] = []
        var current: [UInt8] = []
        func endRun() { if !current.isEmpty { runs.append(current) }; current = [] }
        var i = 0
        while i < c.count {
            let b = c[i]
            switch b {
            case UInt8(ascii: "("):
                endRun()
                guard let close = skipGroup(c, from: i) else { return nil }
                i = close + 1
                continue
            case UInt8(ascii: "["):
                endRun()
                guard let close = skipClass(c, from: i) else { return nil }
                i = close + 1
                continue
            case UInt8(ascii: "|"):
                return nil
            case UInt8(ascii: "\\"):
                guard i + 1 < c.count else { return nil }
                let next = c[i + 1]
                let isAlnum = (next >= 0x30 && next <= 0x39) || ((next | 0x20) >= 0x61 && (next | 0x20) <= 0x7A)
                if isAlnum {
                    // Only single-position escapes are safe to step over; others (\x41, \p{..}) are not.
                    guard "dwsDWSbBAzZ".utf8.contains(next) else { return nil }
                    endRun()
                } else if next >= 0x80 {
                    endRun()
                } else {
                    current.append(next >= 0x41 && next <= 0x5A ? next + 32 : next)
                }
                i += 2
                continue
            case UInt8(ascii: "?"), UInt8(ascii: "*"):
                if !current.isEmpty { current.removeLast() }
                endRun()
            case UInt8(ascii: "{"):
                // `{0,..}` makes the previous atom optional; `{n,..}` keeps one copy of it.
                if i + 1 < c.count, c[i + 1] == UInt8(ascii: "0"), !current.isEmpty { current.removeLast() }
                else if !(i + 1 < c.count && c[i + 1] >= 0x31 && c[i + 1] <= 0x39), !current.isEmpty { current.removeLast() }
                endRun()
                while i < c.count, c[i] != UInt8(ascii: "}") { i += 1 }
            case UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: ")"):
                endRun()
            default:
                if b >= 0x80 { endRun() } else { current.append(b >= 0x41 && b <= 0x5A ? b + 32 : b) }
            }
            i += 1
        }
        endRun()
        guard let best = runs.max(by: { $0.count < $1.count }), best.count >= 3 else { return nil }
        return best
    }

    /// Index of the `)` closing the group opened at `start`, skipping escapes and classes.
    private static func skipGroup(_ c: [UInt8], from start: Int) -> Int? {
        var depth = 0
        var i = start
        while i < c.count {
            switch c[i] {
            case UInt8(ascii: "\\"): i += 1
            case UInt8(ascii: "["):
                guard let close = skipClass(c, from: i) else { return nil }
                i = close
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return i }
            default: break
            }
            i += 1
        }
        return nil
    }

    /// Index of the `]` closing the class opened at `start`.
    private static func skipClass(_ c: [UInt8], from start: Int) -> Int? {
        var i = start + 1
        if i < c.count, c[i] == UInt8(ascii: "^") { i += 1 }
        if i < c.count, c[i] == UInt8(ascii: "]") { i += 1 }
        while i < c.count {
            if c[i] == UInt8(ascii: "\\") { i += 2; continue }
            if c[i] == UInt8(ascii: "]") { return i }
            i += 1
        }
        return nil
    }
}

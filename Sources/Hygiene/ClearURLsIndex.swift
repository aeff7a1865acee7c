/// Picks, for a URL, the ClearURLs patterns (providers' `urlPattern`s and `exceptions`) that can
/// possibly match, so that only those run their regex. Checking all ~200 patterns per URL costs
/// several microseconds; most patterns require a literal host word (`amazon`, `hh.ru`), so
/// patterns are bucketed by three bytes of that word and a URL is scanned once.
///
/// The three bytes are a run of letters and digits that is not common in URLs, not simply the
/// first three: some 30 literals start with `://` and one is `com`, which made every byte of
/// every URL compare a dozen literals.
struct ClearURLsIndex: Sendable {
    private static let tableBits = 12
    /// Literal ids per 3-byte hash, flattened: bucket `h` is `bucketIds[bucketStart[h]..<bucketStart[h+1]]`.
    /// Flat arrays, because an array of arrays costs a retain and release per scanned byte.
    private let bucketStart: [Int32]
    private let bucketIds: [Int32]
    /// All literals' bytes (lower-cased), literal `i` at `literalBytes[literalStart[i]..<literalStart[i+1]]`.
    private let literalBytes: [UInt8]
    private let literalStart: [Int32]
    /// Where in literal `i` its three hashed bytes start.
    private let literalKeyOffset: [Int32]
    /// A 65,536-bit filter of the literals' (lower-cased) key trigrams: nearly every position of
    /// a URL is ruled out by one bit test on a rolling value, before the bucket lookup.
    private let keyTrigrams: [UInt64]
    /// ASCII lower-casing as a table: one load per byte in the scan.
    private let lowerTable: [UInt8] = (0...255).map { UInt8($0) >= 0x41 && UInt8($0) <= 0x5A ? UInt8($0) + 32 : UInt8($0) }
    /// The provider each literal belongs to.
    private let literalProvider: [Int32]
    /// Providers without a usable literal: always candidates.
    private let unindexed: [Int]
    private let providerCount: Int
    /// The number of patterns with a literal prefilter.
    let indexedCount: Int

    /// How many of the first `count` patterns have a literal prefilter.
    func indexedCount(below count: Int) -> Int { count - unindexed.filter { $0 < count }.count }

    init(patterns: [String]) {
        var buckets = [[Int32]](repeating: [], count: 1 << Self.tableBits)
        var literalBytes: [UInt8] = []
        var literalStart: [Int32] = [0]
        var literalProvider: [Int32] = []
        var literalKeyOffset: [Int32] = []
        var keyTrigrams = [UInt64](repeating: 0, count: 65536 / 64)
        var unindexed: [Int] = []
        var indexed = 0
        for (provider, pattern) in patterns.enumerated() {
            guard let required = Self.requiredLiterals(pattern) else { unindexed.append(provider); continue }
            for literal in required {
                let key = Self.keyOffset(literal)
                buckets[Self.hash(literal[key], literal[key + 1], literal[key + 2])].append(Int32(literalProvider.count))
                literalKeyOffset.append(Int32(key))
                let bit = Self.trigramBit(UInt32(literal[key]) << 16 | UInt32(literal[key + 1]) << 8 | UInt32(literal[key + 2]))
                keyTrigrams[bit >> 6] |= 1 << UInt64(bit & 63)
                literalBytes += literal
                literalStart.append(Int32(literalBytes.count))
                literalProvider.append(Int32(provider))
            }
            indexed += 1
        }
        var bucketStart: [Int32] = [0]
        var bucketIds: [Int32] = []
        for bucket in buckets {
            bucketIds += bucket
            bucketStart.append(Int32(bucketIds.count))
        }
        self.bucketStart = bucketStart
        self.bucketIds = bucketIds
        self.literalBytes = literalBytes
        self.literalStart = literalStart
        self.literalKeyOffset = literalKeyOffset
        self.keyTrigrams = keyTrigrams
        self.literalProvider = literalProvider
        self.unindexed = unindexed
        self.providerCount = patterns.count
        self.indexedCount = indexed
    }

    /// Trigrams found in most URLs, worth avoiding as a key.
    private static let commonTrigrams: Set<[UInt8]> = Set(
        ["com", "www", "htt", "ttp", "tps", "org", "net", "utm"].map { Array($0.utf8) })

    /// The offset of the three bytes that key `literal` (3+ bytes): the first run of three letters
    /// or digits that is not a common trigram, else the first such run, else the start.
    static func keyOffset(_ literal: [UInt8]) -> Int {
        func isAlphanumeric(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) }
        var firstAlphanumeric: Int? = nil
        for start in 0...(literal.count - 3) where literal[start..<(start + 3)].allSatisfy(isAlphanumeric) {
            if !commonTrigrams.contains(Array(literal[start..<(start + 3)])) { return start }
            if firstAlphanumeric == nil { firstAlphanumeric = start }
        }
        return firstAlphanumeric ?? 0
    }

    /// The filter bit of a trigram packed as `a << 16 | b << 8 | c`.
    @inline(__always)
    private static func trigramBit(_ trigram: UInt32) -> Int { Int((trigram &* 0x9E37_79B1) >> 16) }

    @inline(__always)
    private static func hash(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
        let h = (UInt32(a) &* 0x9E37) ^ (UInt32(b) &* 0x85EB) ^ (UInt32(c) &* 0xC2B3)
        return Int((h ^ (h >> 13)) & UInt32((1 << tableBits) - 1))
    }

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 { byte | (byte &- 0x41 < 26 ? 0x20 : 0) }

    /// Indices, ascending, of the patterns that may match `url`.
    func candidates(for url: String) -> [Int] {
        let flags = self.flags(for: url)
        var result: [Int] = []
        for i in 0..<providerCount where flags[i] { result.append(i) }
        return result
    }

    /// For each pattern, whether it may match `url` (false: it certainly does not).
    func flags(for url: String) -> [Bool] {
        var flags = [Bool](repeating: false, count: providerCount)
        var url = url
        url.withUTF8 { text in
            flags.withUnsafeMutableBufferPointer { flags in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 0) { _ = fill(flags, candidates: $0, below: 0, for: text) }
            }
        }
        return flags
    }

    /// The number of patterns: the size of the flags `fill` sets.
    var patternCount: Int { providerCount }

    /// Sets `flags` (`patternCount` of them) to, for each pattern, whether it may match the URL
    /// bytes `text`, and puts the flagged patterns below `limit` in `candidates` (room for
    /// `limit`), ascending; returns how many. Walking a short list is cheaper than testing ~200
    /// flags, and the caller keeps both buffers on the stack.
    func fill(
        _ flags: UnsafeMutableBufferPointer<Bool>, candidates: UnsafeMutableBufferPointer<Int32>,
        below limit: Int, for text: UnsafeBufferPointer<UInt8>
    ) -> Int {
        flags.update(repeating: false)
        var candidateCount = 0
        for provider in unindexed {
            flags[provider] = true
            if provider < limit { candidates[candidateCount] = Int32(provider); candidateCount += 1 }
        }
        defer {
            if candidateCount > 1 {
                var found = UnsafeMutableBufferPointer(rebasing: candidates[0..<candidateCount])
                found.sort()
            }
        }
        let count = text.count
        guard count >= 3 else { return candidateCount }
        bucketStart.withUnsafeBufferPointer { starts in
        bucketIds.withUnsafeBufferPointer { ids in
        literalBytes.withUnsafeBufferPointer { bytes in
        literalStart.withUnsafeBufferPointer { literalStarts in
        literalKeyOffset.withUnsafeBufferPointer { keyOffsets in
        literalProvider.withUnsafeBufferPointer { owners in
        keyTrigrams.withUnsafeBufferPointer { keyTrigrams in
        lowerTable.withUnsafeBufferPointer { lowerTable in
            // The hot loop: wrapping arithmetic and a raw pointer, one bit test per byte.
            guard let base = text.baseAddress else { return }
            var trigram = UInt32(Self.lower(base[0])) &<< 8 | UInt32(Self.lower(base[1]))
            var position = 0
            let last = count &- 3
            while position <= last {
                trigram = (trigram &<< 8 | UInt32(lowerTable[Int(base[position &+ 2])])) & 0xFF_FFFF
                let bit = Self.trigramBit(trigram)
                if keyTrigrams[bit &>> 6] & (1 &<< UInt64(truncatingIfNeeded: bit & 63)) != 0 {
                    let h = Self.hash(
                        UInt8(truncatingIfNeeded: trigram &>> 16), UInt8(truncatingIfNeeded: trigram &>> 8),
                        UInt8(truncatingIfNeeded: trigram))
                    for slot in Int(starts[h])..<Int(starts[h + 1]) {
                        let id = Int(ids[slot])
                        let provider = Int(owners[id])
                        if flags[provider] { continue }
                        let start = position - Int(keyOffsets[id])
                        let from = Int(literalStarts[id]), to = Int(literalStarts[id + 1])
                        let length = to - from
                        if start < 0 || start + length > count { continue }
                        var equal = true
                        for k in 0..<length where Self.lower(text[start + k]) != bytes[from + k] { equal = false; break }
                        if equal {
                            flags[provider] = true
                            if provider < limit { candidates[candidateCount] = Int32(provider); candidateCount += 1 }
                        }
                    }
                }
                position &+= 1
            }
        }}}}}}}}
        return candidateCount
    }

    /// Literals (lower-cased, ASCII, 3+ bytes) of which every match of `pattern` contains at least
    /// one, read conservatively from the pattern; nil when unsure. Runs that are part of
    /// `https://` are useless as a filter and never chosen.
    static func requiredLiterals(_ pattern: String) -> [[UInt8]]? {
        let bytes = Array(pattern.utf8)
        // Searched as bytes: String.contains(String) cost ~20,000 instructions a call, a third
        // of the catalogue's load time.
        if contains(bytes, "(?x") || contains(bytes, "(*") || contains(bytes, "\\Q") { return nil }
        return requirement(bytes[...])
    }

    /// True when `needle` (ASCII) occurs in `bytes`.
    private static func contains(_ bytes: [UInt8], _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        return needle.withUTF8Buffer { needle in
            for start in 0...(bytes.count - count) where bytes[start] == needle[0] {
                var equal = true
                for k in 1..<count where bytes[start + k] != needle[k] { equal = false; break }
                if equal { return true }
            }
            return false
        }
    }

    private static let schemeText = Array("https://".utf8)

    /// True when `run` occurs in `https://`; compared in place (copying each slice to an array
    /// to compare it cost a fifth of the index's build).
    private static func isSchemePart(_ run: [UInt8]) -> Bool {
        guard run.count <= schemeText.count else { return false }
        for start in 0...(schemeText.count - run.count) {
            var equal = true
            for k in 0..<run.count where schemeText[start + k] != run[k] { equal = false; break }
            if equal { return true }
        }
        return false
    }

    /// True when `body` starts with the two ASCII bytes `a`, `b`.
    private static func starts(_ body: ArraySlice<UInt8>, _ a: UInt8, _ b: UInt8) -> Bool {
        body.count >= 2 && body[body.startIndex] == a && body[body.startIndex + 1] == b
    }

    /// The requirement of a (sub)pattern: any one of the returned literals must occur.
    private static func requirement(_ c: ArraySlice<UInt8>) -> [[UInt8]]? {
        let alternatives = splitAlternatives(c)
        guard let alternatives else { return nil }
        if alternatives.count > 1 {
            var all: [[UInt8]] = []
            for alternative in alternatives {
                guard let literals = requirement(alternative) else { return nil }
                all += literals
            }
            return all
        }
        var options: [[[UInt8]]] = []
        var current: [UInt8] = []
        func endRun() {
            if current.count >= 3, !isSchemePart(current) { options.append([current]) }
            current = []
        }
        var i = c.startIndex
        while i < c.endIndex {
            let b = c[i]
            switch b {
            case UInt8(ascii: "("):
                endRun()
                guard let close = skipGroup(c, from: i) else { return nil }
                let next = close + 1 < c.endIndex ? c[close + 1] : 0
                let optional = next == UInt8(ascii: "?") || next == UInt8(ascii: "*")
                    || (next == UInt8(ascii: "{") && close + 2 < c.endIndex && c[close + 2] == UInt8(ascii: "0"))
                var body = c[(i + 1)..<close]
                let question = UInt8(ascii: "?")
                let isLookaround = starts(body, question, UInt8(ascii: "=")) || starts(body, question, UInt8(ascii: "!"))
                    || starts(body, question, UInt8(ascii: "<"))
                if starts(body, question, UInt8(ascii: ":")) { body = body.dropFirst(2) }
                if !optional, !isLookaround, body.first != UInt8(ascii: "?"), let inner = requirement(body) {
                    options.append(inner)
                }
                i = close + 1
                continue
            case UInt8(ascii: "["):
                endRun()
                guard let close = skipClass(c, from: i) else { return nil }
                i = close + 1
                continue
            case UInt8(ascii: "\\"):
                guard i + 1 < c.endIndex else { return nil }
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
                let minimumIsPositive = i + 1 < c.endIndex && c[i + 1] >= 0x31 && c[i + 1] <= 0x39
                if !minimumIsPositive, !current.isEmpty { current.removeLast() }
                endRun()
                while i < c.endIndex, c[i] != UInt8(ascii: "}") { i += 1 }
            case UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: ")"):
                endRun()
            default:
                if b >= 0x80 { endRun() } else { current.append(b >= 0x41 && b <= 0x5A ? b + 32 : b) }
            }
            i += 1
        }
        endRun()
        // The best requirement: the one whose shortest literal is longest.
        return options.max { a, b in
            let shortestA = a.map(\.count).min() ?? 0, shortestB = b.map(\.count).min() ?? 0
            return shortestA != shortestB ? shortestA < shortestB : a.count > b.count
        }
    }

    /// The top-level `|` alternatives of a (sub)pattern; nil when it is malformed.
    static func splitAlternatives(_ c: ArraySlice<UInt8>) -> [ArraySlice<UInt8>]? {
        var parts: [ArraySlice<UInt8>] = []
        var start = c.startIndex
        var i = c.startIndex
        while i < c.endIndex {
            switch c[i] {
            case UInt8(ascii: "\\"): i += 1
            case UInt8(ascii: "["):
                guard let close = skipClass(c, from: i) else { return nil }
                i = close
            case UInt8(ascii: "("):
                guard let close = skipGroup(c, from: i) else { return nil }
                i = close
            case UInt8(ascii: "|"):
                parts.append(c[start..<i])
                start = i + 1
            default: break
            }
            i += 1
        }
        parts.append(c[start..<c.endIndex])
        return parts
    }

    /// Index of the `)` closing the group opened at `start`, skipping escapes and classes.
    private static func skipGroup(_ c: ArraySlice<UInt8>, from start: Int) -> Int? {
        var depth = 0
        var i = start
        while i < c.endIndex {
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

    /// Index of the `]` closing the class opened at `start`. A POSIX class inside (`[:alpha:]`)
    /// is one item: its `]` does not close the class, or `[[:alpha:]]abc` would read `]abc` as
    /// required (as `RequiredLiterals` reads classes).
    private static func skipClass(_ c: ArraySlice<UInt8>, from start: Int) -> Int? {
        var i = start + 1
        if i < c.endIndex, c[i] == UInt8(ascii: "^") { i += 1 }
        if i < c.endIndex, c[i] == UInt8(ascii: "]") { i += 1 }
        while i < c.endIndex {
            if c[i] == UInt8(ascii: "\\") { i += 2; continue }
            if c[i] == UInt8(ascii: "]") { return i }
            if c[i] == UInt8(ascii: "["), i + 1 < c.endIndex, c[i + 1] == UInt8(ascii: ":") {
                var end = i + 2
                while end + 1 < c.endIndex, !(c[end] == UInt8(ascii: ":") && c[end + 1] == UInt8(ascii: "]")) { end += 1 }
                guard end + 1 < c.endIndex else { return nil }
                i = end + 2
                continue
            }
            i += 1
        }
        return nil
    }
}

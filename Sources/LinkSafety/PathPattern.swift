/// uBlock's URL patterns after a host: `*` any run of characters, `^` a separator (anything but
/// a letter, a digit or `_ - . %`) or the end, a trailing `|` the end; otherwise the pattern
/// is a prefix of the path and query.
enum PathPattern {
    /// True when `pattern` matches the start of `target` (all of it when `anchoredAtEnd`).
    /// Greedy with one backtracking point per `*`, as glob matchers do: linear in practice and
    /// at worst pattern × target, both bounded (4 KB lines, 128 KB URLs).
    static func matches(_ pattern: UnsafeBufferPointer<UInt8>, anchoredAtEnd: Bool, _ target: [UInt8]) -> Bool {
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

/// Where a link's path ends, and the byte-level helpers the scanner shares.
extension LinkScanner {
    // MARK: - Paths

    /// An optional `/path`, `?query` or `#fragment` after a host; returns the link's end.
    mutating func path(at start: Int) -> Int {
        guard start < count else { return start }
        let byte = bytes[start]
        guard byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") else {
            return start
        }
        let end = pathBody(from: start + 1)
        if end > start + 1 { return end }
        return byte == UInt8(ascii: "/") ? start + 1 : start
    }

    /// linkify-it's path rules, applied left to right: ordinary characters are taken; `()`,
    /// `[]`, `{}`, `""`, `''` are taken only whole (closed before any space); `.`, `,`, `;`,
    /// `:`, `?` and runs of `!` only when more of the link follows; `-` always; spaces,
    /// controls, `<`, `>`, `｜` and unbalanced closers end the link.
    mutating func pathBody(from start: Int) -> Int {
        var end = pathRules(from: start)
        // The rules take `?` before `!` (and `!` before `.`); a link never ends in these.
        while end > start && isTrailingPunctuation(bytes[end - 1]) {
            end -= 1
        }
        return end
    }

    private func isTrailingPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: ":"):
            return true
        default:
            return false
        }
    }

    private mutating func pathRules(from start: Int) -> Int {
        var i = start
        while i < count {
            let byte = bytes[i]
            if byte >= 0x80 {
                let (value, length) = scalar(at: i)
                let kind = LinkChars.kind(value)
                if kind == .spaceOrControl || kind == .separator { return i }
                // Unicode punctuation (”, 。, ）) ends a link unless more of the link follows.
                if kind == .punctuation && !continuesAfterUnicodePunctuation(at: i + length, punctuation: value) { return i }
                i += length
                continue
            }
            switch byte {
            case 0x00...0x20, 0x7F, UInt8(ascii: "<"), UInt8(ascii: ">"),
                 UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                return i
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                let closer: UInt8 = byte == UInt8(ascii: "(") ? 0x29 : byte == UInt8(ascii: "[") ? 0x5D : 0x7D
                let slot = byte == UInt8(ascii: "(") ? 0 : byte == UInt8(ascii: "[") ? 1 : 2
                let close = closerOrBreak(closer, slot: slot, from: i + 1)
                guard close < count && bytes[close] == closer else { return i }
                i = close + 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let close = closerOrBreak(byte, slot: byte == UInt8(ascii: "\"") ? 3 : 4, from: i + 1)
                if close < count && bytes[close] == byte && close > i + 1 {
                    i = close + 1
                } else if byte == UInt8(ascii: "'") && i + 1 < count && apostropheContinues(at: i + 1) {
                    i += 1
                } else {
                    return i
                }
            case UInt8(ascii: "."):
                var dots = i + 1
                while dots < count && bytes[dots] == UInt8(ascii: ".") { dots += 1 }
                if dots - i >= 2 {
                    // `..` inside paths (`compare/a...b`, `#../x`, `9..&`) only before these.
                    guard dots < count, LinkChars.isAlnum(bytes[dots]) || bytes[dots] == UInt8(ascii: "%")
                            || bytes[dots] == UInt8(ascii: "/") || bytes[dots] == UInt8(ascii: "&") else { return i }
                    i = dots + 1
                } else {
                    guard !isBreak(at: i + 1) else { return i }
                    i += 1
                }
            case UInt8(ascii: "-"):
                i += 1
            case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"):
                guard !isBreak(at: i + 1) else { return i }
                i += 1
            case UInt8(ascii: "!"):
                var run = i + 1
                while run < count && bytes[run] == UInt8(ascii: "!") { run += 1 }
                guard !isBreak(at: run) else { return i }
                i = run
            case UInt8(ascii: "?"):
                guard !isBreak(at: i + 1), bytes[i + 1] != UInt8(ascii: "?") else { return i }
                i += 1
            default:
                i += 1
            }
        }
        return i
    }

    /// `'` inside a word (`I'm`, `10'-x`): followed by a letter, symbol or `-`.
    private func apostropheContinues(at i: Int) -> Bool {
        if bytes[i] == UInt8(ascii: "-") { return true }
        let kind = LinkChars.kind(scalar(at: i).value)
        return kind == .letter || kind == .asciiSymbol
    }

    /// After Unicode punctuation, the link goes on only into a letter, symbol or `/`; CJK
    /// punctuation (`。`, `，`, `）`) always ends it, as the next sentence starts right after.
    private func continuesAfterUnicodePunctuation(at i: Int, punctuation: UInt32) -> Bool {
        if (0x3000...0x303F).contains(punctuation) || (0xFF00...0xFF65).contains(punctuation) { return false }
        guard i < count else { return false }
        if bytes[i] == UInt8(ascii: "/") { return true }
        let kind = LinkChars.kind(scalar(at: i).value)
        return kind == .letter || kind == .asciiSymbol
    }

    /// End of text, a space or a control character at `i`.
    func isBreak(at i: Int) -> Bool {
        guard i < count else { return true }
        let byte = bytes[i]
        if byte < 0x80 { return byte <= 0x20 || byte == 0x7F }
        return LinkChars.isSpaceOrControl(scalar(at: i).value)
    }

    /// The first `closer`, space or control at or after `from` (or `count`). Searches move
    /// forward through the text, so a cached answer is reused instead of rescanning: without
    /// it, text like `a.com/(a.com/(a.com/(…` would take quadratic time.
    mutating func closerOrBreak(_ closer: UInt8, slot: Int, from: Int) -> Int {
        let cache = closerCaches[slot]
        if cache.from <= from && from <= cache.result { return cache.result }
        var i = from
        var result = count
        while i < count {
            if i == cache.from {
                result = cache.result
                break
            }
            let byte = bytes[i]
            if byte == closer || byte <= 0x20 || byte == 0x7F
                || (byte >= 0xC2 && byte <= 0xE3 && LinkChars.isSpaceOrControl(scalar(at: i).value)) {
                result = i
                break
            }
            i += 1
        }
        closerCaches[slot] = CloserCache(from: from, result: result)
        return result
    }

    // MARK: - Bytes and scalars

    /// The Unicode scalar starting at `i` and its length in bytes (U+FFFD, 1 for a stray byte).
    @inline(__always) func scalar(at i: Int) -> (value: UInt32, length: Int) {
        let b0 = bytes[i]
        if b0 < 0x80 { return (UInt32(b0), 1) }
        if b0 < 0xC2 { return (0xFFFD, 1) }
        if b0 < 0xE0 {
            guard i + 1 < count else { return (0xFFFD, 1) }
            return (UInt32(b0 & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), 2)
        }
        if b0 < 0xF0 {
            guard i + 2 < count else { return (0xFFFD, 1) }
            return (UInt32(b0 & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F), 3)
        }
        guard i + 3 < count else { return (0xFFFD, 1) }
        let high = UInt32(b0 & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12
        return (high | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F), 4)
    }

    /// The scalar that ends right before `i` (which must be > 0).
    func previousScalar(before i: Int) -> UInt32 {
        var start = i - 1
        while start > 0 && i - start < 4 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return scalar(at: start).value
    }

    /// Which kinds of link may start at `i`, judging by the character before it.
    func prefix(at i: Int) -> LinkPrefix {
        guard i > 0 else { return .start }
        let before = previousScalar(before: i)
        return LinkPrefix.after(before, kind: LinkChars.kind(before))
    }

    /// Bytes from `from` to the next `@` (huge when there is none).
    mutating func distanceToAt(from: Int) -> Int {
        if nextAt < from { nextAt = nextByte(UInt8(ascii: "@"), from: from) }
        return nextAt - from
    }

    /// Bytes from `from` to the next `:` (huge when there is none).
    mutating func distanceToColon(from: Int) -> Int {
        if nextColon < from { nextColon = nextByte(UInt8(ascii: ":"), from: from) }
        return nextColon - from
    }

    private func nextByte(_ target: UInt8, from: Int) -> Int {
        var i = from
        while i < count && bytes[i] != target { i += 1 }
        return i < count ? i : Int.max / 2
    }
}

extension LinkChars {
    /// Unicode spaces (Z) and controls (Cc).
    @inline(__always) static func isSpaceOrControl(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x20, 0x7F...0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }
}

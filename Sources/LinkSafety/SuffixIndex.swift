import Platform
import URLModel

/// Registrable domains under the Public Suffix List, as `URLModel.PublicSuffixList` decides them
/// (the same rules: normal, `*.` wildcards, `!` exceptions, the implicit `*`), but from a hash
/// table built once on first use instead of a pass over the list's text per host: a look-up is a
/// few probes (microseconds) where the pass costs milliseconds, and link text needs two per
/// decision. Rules are kept in ASCII, as hosts arrive.
///
/// The list's text (Debian's: 246 KB, most of it comments) is let go once the index is built:
/// the index keeps only the rules' words, and the lines of the rules written in Unicode for
/// their conversion. A config and the checkers made from it share one index.
public final class SuffixIndex: Sendable {
    /// What a rule says of the domain it names.
    enum Kind: UInt8 {
        /// `example.com`: a public suffix.
        case normal
        /// `*.example.com` (the part after `*.` is kept): every label under it is one.
        case wildcard
        /// `!www.example.com` (the part after `!` is kept): not one, though a wildcard says so.
        case exception
    }

    /// The list's rules, each a range of one byte buffer (the list's own text, for rules written
    /// in ASCII), and an open-addressing table of them by the FNV-1a hash of their bytes read
    /// backwards: a host's suffixes are hashed so, each from the shorter one, in one backward
    /// pass. Plain arrays: a build makes no String or Set element per rule (it made two, ~2,000
    /// instructions a rule), and a look-up allocates nothing.
    private final class Rules: Sendable {
        let bytes: [UInt8]
        /// Rule `n` is `bytes[starts[n]..<ends[n]]`.
        let starts: [Int32]
        let ends: [Int32]
        let kinds: [Kind]
        /// The high half of each rule's hash (the low bits pick its slot).
        let hashes: [UInt32]
        /// Rule numbers, -1 for an empty slot; at most half full.
        let slots: [Int32]

        /// The rules, each array copied to its exact size (they grew by doubling).
        init(bytes: [UInt8], starts: [Int32], ends: [Int32], kinds: [Kind], hashes: [UInt64]) {
            var size = 16
            while size < hashes.count * 2 { size <<= 1 }
            var slots = Array(repeating: Int32(-1), count: size)
            for (rule, hash) in hashes.enumerated() {
                var slot = Self.slot(hash, size)
                while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
                slots[slot] = Int32(rule)
            }
            self.bytes = exactCopy(bytes)
            self.starts = exactCopy(starts)
            self.ends = exactCopy(ends)
            self.kinds = exactCopy(kinds)
            self.hashes = exactCopy(hashes.map(HashSlots.kept))
            self.slots = slots
        }

        /// Where a probe for `hash` starts in a table of `size` slots.
        private static func slot(_ hash: UInt64, _ size: Int) -> Int {
            Int(truncatingIfNeeded: hash ^ (hash >> 29)) & (size - 1)
        }

        /// True when a rule of `kind` is `suffix`, whose backward hash is `hash`.
        func contains(_ suffix: UnsafeBufferPointer<UInt8>, hash: UInt64, kind: Kind) -> Bool {
            var slot = Self.slot(hash, slots.count)
            while slots[slot] >= 0 {
                let rule = Int(slots[slot])
                if hashes[rule] == HashSlots.kept(hash), kinds[rule] == kind {
                    if bytes.withUnsafeBufferPointer({ $0.part(Int(starts[rule])..<Int(ends[rule])).elementsEqual(suffix) }) { return true }
                }
                slot = (slot + 1) & (slots.count - 1)
            }
            return false
        }
    }

    /// The rules of the list's plain words, and those written in Unicode (other than a Kelvin
    /// sign, which lowercases to `k`): converting those to `xn--` form is most of a build (some
    /// 24,000 instructions each, ~11M for Debian's list), and only a host with an `xn--` label
    /// can be under one, so they are converted when the first such host is looked up.
    private struct Tables {
        var plain: Rules
        /// The lines of the rules written in Unicode, until they are converted.
        var unicodeLines: [UInt8]
        var unicode: Rules?
    }

    /// The list's text until the first look-up, then its tables.
    private enum State {
        case text([UInt8])
        case built(Tables)
    }

    /// Nil without a list (URLModel's built-in fallback, which needs none).
    private let state: Lock<State>?

    /// An index of the list `text` (nil: URLModel's built-in fallback).
    public init(text: [UInt8]?) {
        state = text.map { Lock(.text($0)) }
    }

    /// Whether the list's text is still held: until the first look-up.
    var holdsText: Bool {
        state?.withLock { if case .text = $0 { true } else { false } } ?? false
    }

    /// The registrable domain of `host` (ASCII), nil for an IP address, a single label or a
    /// public suffix itself.
    func registrableDomain(of host: String) -> String? {
        guard let state else { return PublicSuffixList.registrableDomain(of: host, listText: nil) }
        let host = host.hasSuffix(".") ? String(host.dropLast()) : host
        let lowered = host.lowercased()
        // Where each label starts, by bytes: the suffixes looked up are the text from one of them
        // to the end (splitting and joining labels per suffix cost ~45k instructions a host).
        var starts: [String.Index] = [lowered.utf8.startIndex]
        for index in lowered.utf8.indices where lowered.utf8[index] == UInt8(ascii: ".") {
            starts.append(lowered.utf8.index(after: index))
        }
        let labelCount = starts.count
        guard labelCount >= 2, labelCount <= 128, !Self.hasEmptyLabel(lowered.utf8, starts: starts), !Self.isIPAddress(host) else { return nil }
        var longest = 1
        var exception: Int?
        var bytes = lowered
        bytes.withUTF8 { host in
            let hasACELabel = HostText.hasPunycodeLabel(host)
            let (plain, unicode) = state.withLock { state -> (Rules, Rules?) in
                var tables: Tables
                switch state {
                case .text(let text):
                    let (plain, unicodeLines) = Self.build(text, unicode: false)
                    tables = Tables(plain: plain, unicodeLines: exactCopy(unicodeLines))
                case .built(let built):
                    tables = built
                }
                if hasACELabel, tables.unicode == nil {
                    tables.unicode = Self.build(tables.unicodeLines, unicode: true).rules
                    tables.unicodeLines = []
                }
                state = .built(tables)
                return (tables.plain, tables.unicode)
            }
            func listed(_ suffix: UnsafeBufferPointer<UInt8>, _ hash: UInt64, _ kind: Kind) -> Bool {
                plain.contains(suffix, hash: hash, kind: kind) || (hasACELabel && unicode?.contains(suffix, hash: hash, kind: kind) == true)
            }
            // Each suffix at a label's start, shortest first, its hash carried on from the shorter.
            var hash = BlockIndex.offset
            var count = 0
            var index = host.count
            while index > 0 {
                index -= 1
                hash = (hash ^ UInt64(host[index])) &* BlockIndex.prime
                guard index == 0 || host[index - 1] == UInt8(ascii: ".") else { continue }
                count += 1
                let suffix = host.part(index..<host.count)
                if listed(suffix, hash, .normal) { longest = max(longest, count) }
                if listed(suffix, hash, .exception) { exception = max(exception ?? 0, count) }
                // `*.suffix`: the suffix and one label more.
                if count < labelCount, listed(suffix, hash, .wildcard) { longest = max(longest, count + 1) }
            }
        }
        let publicLabels = exception.map { $0 - 1 } ?? longest
        guard labelCount > publicLabels else { return nil }
        // The answer keeps the host's own case, as before: its labels from the same position
        // (hosts arrive lowercased, so that is almost always the lowered text itself).
        if lowered == host { return String(lowered[starts[labelCount - publicLabels - 1]...]) }
        var original: [String.Index] = [host.utf8.startIndex]
        for index in host.utf8.indices where host.utf8[index] == UInt8(ascii: ".") { original.append(host.utf8.index(after: index)) }
        guard original.count == labelCount else { return String(lowered[starts[labelCount - publicLabels - 1]...]) }
        return String(host[original[labelCount - publicLabels - 1]...])
    }

    /// True when a label is empty: two dots in a row, or a dot first or last.
    private static func hasEmptyLabel(_ bytes: String.UTF8View, starts: [String.Index]) -> Bool {
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? bytes.index(before: starts[position + 1]) : bytes.endIndex
            if start == end { return true }
        }
        return false
    }

    /// The first word of each line that is not a `//` comment, without its `!` or `*.`, in ASCII:
    /// those written in Unicode when `unicode` (see `Tables`), the others when not; and, when not,
    /// the lines of those written in Unicode, for a later build of them.
    private static func build(_ text: [UInt8], unicode: Bool) -> (rules: Rules, unicodeLines: [UInt8]) {
        var bytes: [UInt8] = [], unicodeLines: [UInt8] = []
        var starts: [Int32] = [], ends: [Int32] = [], kinds: [Kind] = [], hashes: [UInt64] = []
        text.withUnsafeBufferPointer { text in
            var start = 0
            while start < text.count {
                let stop = text.index(of: 0x0A, from: start)
                defer { start = stop + 1 }
                var end = start
                while end < stop, text[end] != 0x20, text[end] != 0x09, text[end] != 0x0D { end += 1 }
                guard end > start, !(text[start] == UInt8(ascii: "/") && start + 1 < stop && text[start + 1] == UInt8(ascii: "/")) else { continue }
                let first = text[start]
                var wordStart = start
                if first == UInt8(ascii: "!") { wordStart += 1 }
                if first == UInt8(ascii: "*"), start + 1 < end, text[start + 1] == UInt8(ascii: ".") { wordStart += 2 }
                let word = text.part(wordStart..<end)
                // The list is lowercase; most rules are ASCII and need no conversion.
                let ascii = word.allSatisfy { $0 < 0x80 }
                guard (!ascii && isInUnicode(word)) == unicode else {
                    unicodeLines.append(contentsOf: text.part(start..<end))
                    unicodeLines.append(0x0A)
                    continue
                }
                let rule: Range<Int>
                if ascii {
                    rule = bytes.count..<(bytes.count + word.count)
                    bytes.append(contentsOf: word)
                } else {
                    guard let converted = Punycode.toASCII(host: String(decoding: word, as: UTF8.self).lowercased()) else { continue }
                    rule = bytes.count..<(bytes.count + converted.utf8.count)
                    bytes.append(contentsOf: converted.utf8)
                }
                starts.append(Int32(rule.lowerBound))
                ends.append(Int32(rule.upperBound))
                hashes.append(bytes.withUnsafeBufferPointer { BlockIndex.backwardHash($0.part(rule)) })
                switch first {
                case UInt8(ascii: "!"): kinds.append(.exception)
                // Only a `*.` rule kept as written (not one converted from Unicode) is a wildcard.
                case UInt8(ascii: "*") where rule.count + 2 == end - start: kinds.append(.wildcard)
                default: kinds.append(.normal)
                }
            }
        }
        return (Rules(bytes: bytes, starts: starts, ends: ends, kinds: kinds, hashes: hashes), unicodeLines)
    }

    /// True when `word` has a non-ASCII character other than the Kelvin sign (U+212A, bytes
    /// E2 84 AA): lowercased, every other one stays non-ASCII, so its `xn--` form has an `xn--`
    /// label. (A word of ASCII and Kelvin signs lowercases to ASCII.)
    private static func isInUnicode(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < word.count {
            if word[index] < 0x80 {
                index += 1
            } else if index + 2 < word.count, word[index] == 0xE2, word[index + 1] == 0x84, word[index + 2] == 0xAA {
                index += 3
            } else {
                return true
            }
        }
        return false
    }

    private static func isIPAddress(_ host: String) -> Bool {
        // Most hosts end in a letter: no IPv4 form (hex and octal ones included) ends so.
        if let last = host.utf8.last, (last | 0x20) >= UInt8(ascii: "a"), (last | 0x20) <= UInt8(ascii: "z"),
           !host.utf8.contains(UInt8(ascii: ":")), host.utf8.first != UInt8(ascii: "[") {
            return false
        }
        if host.hasPrefix("[") || host.utf8.contains(UInt8(ascii: ":")) { return true }
        return HostText.isIPv4(Array(host.utf8)) || host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}

/// `values` in storage of their own size.
private func exactCopy<Element>(_ values: [Element]) -> [Element] {
    Array(unsafeUninitializedCapacity: values.count) { buffer, count in
        _ = buffer.initialize(fromContentsOf: values)
        count = values.count
    }
}

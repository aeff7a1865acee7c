/// A quick "no" for a set of regular expressions: for each pattern, a run of literal bytes that
/// every match of it holds (`.r88.example/` in `^https://[a-z]+\.r88\.example/`), and one scan
/// of a text for any of them. When none occurs, none of the patterns can match, and PCRE2 need
/// not run: an alternation of twenty rules' anchored patterns cost ~1.1k instructions a link in
/// its JIT code, the scan a few hundred.
///
/// A pattern is read conservatively: only literals outside every group, class and quantifier
/// count, and a pattern with a top-level `|`, an inline option (`(?i)`), a verb (`(*UTF)`),
/// `\Q…\E` or an escape that may take more characters (`\x41`, `\p{L}`, `\1`) has none, and
/// then the set has no prefilter at all.
public struct RequiredLiterals: Sendable {
    /// The shortest literal worth scanning for.
    public static let minimumLength = 3
    private let literals: [[UInt8]]
    /// 65,536 bits, one per pair of bytes a literal starts with.
    private let firstPairs: [UInt64]

    /// The literals of `patterns`; nil when one of them has none (every text may then match).
    public init?(patterns: [String]) {
        var literals: [[UInt8]] = []
        for pattern in patterns {
            guard let literal = Self.literal(in: pattern) else { return nil }
            if !literals.contains(literal) { literals.append(literal) }
        }
        var pairs = [UInt64](repeating: 0, count: 1024)
        for literal in literals {
            let pair = Int(literal[0]) << 8 | Int(literal[1])
            pairs[pair >> 6] |= 1 << UInt64(pair & 63)
        }
        self.literals = literals
        firstPairs = pairs
    }

    /// False when no pattern of the set can match `text`.
    public func mayMatch(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            firstPairs.withUnsafeBufferPointer { pairs in
                guard bytes.count >= Self.minimumLength else { return false }
                for start in 0..<(bytes.count - 1) {
                    let pair = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                    guard pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0 else { continue }
                    for literal in literals where literal.count <= bytes.count - start {
                        var equal = true
                        for offset in 0..<literal.count where literal[offset] != bytes[start + offset] {
                            equal = false
                            break
                        }
                        if equal { return true }
                    }
                }
                return false
            }
        }
    }

    /// The longest run of literal bytes every match of `pattern` holds (at least
    /// `minimumLength`), or nil when reading the pattern cannot be sure of one.
    public static func literal(in pattern: String) -> [UInt8]? {
        let bytes = Array(pattern.utf8)
        var best: [UInt8] = [], run: [UInt8] = []
        func endRun() {
            if run.count > best.count { best = run }
            run.removeAll(keepingCapacity: true)
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            var literal: UInt8?
            switch byte {
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return nil }
                let escaped = bytes[index + 1]
                if isAlphanumeric(escaped) {
                    // A class or an assertion of one letter (`\d`, `\b`); any other letter or a
                    // digit may read on (`\x41`, `\p{L}`, `\1`, `\Q`), and then nothing is sure.
                    guard singleLetterEscapes.contains(escaped) else { return nil }
                    endRun()
                } else if escaped < 0x80 {
                    literal = escaped
                } else {
                    return nil
                }
                index += 2
            case UInt8(ascii: "["):
                endRun()
                guard let end = endOfClass(bytes, from: index) else { return nil }
                index = end
            case UInt8(ascii: "("):
                // `(?:` is a plain group; `(?i)`, `(?=`, `(?<name>` and verbs are not read.
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") { return nil }
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "?"),
                   !(index + 2 < bytes.count && bytes[index + 2] == UInt8(ascii: ":")) { return nil }
                endRun()
                guard let end = endOfGroup(bytes, from: index) else { return nil }
                index = end
            case UInt8(ascii: ")"), UInt8(ascii: "|"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"):
                return nil
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"):
                endRun()
                index += 1
            default:
                // A character of several bytes could be quantified whole: not read.
                guard byte < 0x80 else { return nil }
                literal = byte
                index += 1
            }
            // What follows an atom: a quantifier makes a literal optional (`*`, `?`, `{`) or
            // repeated (`+`: once for sure, but the run ends there).
            guard index < bytes.count else {
                if let literal { run.append(literal) }
                break
            }
            switch bytes[index] {
            case UInt8(ascii: "*"), UInt8(ascii: "?"):
                endRun()
                index = afterQuantifierModifier(bytes, index + 1)
            case UInt8(ascii: "+"):
                if let literal { run.append(literal) }
                endRun()
                index = afterQuantifierModifier(bytes, index + 1)
            case UInt8(ascii: "{"):
                guard let end = endOfCountedQuantifier(bytes, from: index) else { return nil }
                endRun()
                index = afterQuantifierModifier(bytes, end)
            default:
                if let literal { run.append(literal) }
            }
        }
        endRun()
        return best.count >= minimumLength ? best : nil
    }

    private static let singleLetterEscapes = Set("dDwWsSbBAzZhHvVRntrfeG".utf8)

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return false
        }
    }

    /// Past a quantifier's lazy (`?`) or possessive (`+`) mark.
    private static func afterQuantifierModifier(_ bytes: [UInt8], _ index: Int) -> Int {
        index < bytes.count && (bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "+")) ? index + 1 : index
    }

    /// Past `{n}`, `{n,}`, `{n,m}` or `{,m}` at `start`; nil for a `{` that is not one.
    private static func endOfCountedQuantifier(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 1, digits = 0, commas = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "}") { return digits > 0 ? index + 1 : nil }
            if byte == UInt8(ascii: ",") { commas += 1 } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { digits += 1 } else { return nil }
            guard commas <= 1 else { return nil }
            index += 1
        }
        return nil
    }

    /// Past the class `[…]` at `start` (a `]` first is a member; `[:alpha:]` inside is one item).
    private static func endOfClass(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "^") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "]"): return index + 1
            case UInt8(ascii: "[") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: ":"):
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: ":") && bytes[end + 1] == UInt8(ascii: "]")) { end += 1 }
                guard end + 1 < bytes.count else { return nil }
                index = end + 2
            default: index += 1
            }
        }
        return nil
    }

    /// Past the group `(…)` at `start`, nested groups and classes inside it.
    private static func endOfGroup(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start, depth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "["):
                guard let end = endOfClass(bytes, from: index) else { return nil }
                index = end
            case UInt8(ascii: "("):
                depth += 1
                index += 1
            case UInt8(ascii: ")"):
                depth -= 1
                index += 1
                if depth == 0 { return index }
            default: index += 1
            }
        }
        return nil
    }
}

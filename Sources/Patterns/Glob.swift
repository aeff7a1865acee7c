/// A shell-style glob compiled to an anchored PCRE2 pattern.
///
/// `*` matches any run of characters except the field's separator (`/` in paths and URLs,
/// `.` in hosts; fields without a separator let it match anything), `**` matches across
/// separators, `?` matches one character other than the separator, `[abc]`, `[a-z]` and
/// `[!abc]` are character classes, and `\` escapes the next character.
public struct Glob: Sendable {
    /// The glob as written.
    public let pattern: String
    private let regex: PatternRegex?
    private let literal: String?
    private let caseInsensitive: Bool

    /// Why a glob could not be compiled.
    public struct SyntaxError: Error, Sendable {
        /// What is wrong.
        public var message: String
    }

    /// Compiles `pattern`; `separator` is the character `*` does not cross.
    public init(_ pattern: String, separator: Character? = nil, caseInsensitive: Bool = false) throws(SyntaxError) {
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        if !pattern.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" || $0 == "\\" }) {
            literal = caseInsensitive ? pattern.lowercased() : pattern
            regex = nil
            return
        }
        literal = nil
        let notSeparator = separator.map { "[^" + Self.escape($0) + "]" } ?? "."
        // Dot-all and `\z`: `$` would also match before a final newline and `.` would not match
        // one, so a decoded `%0A` made the regex disagree with the index's exact comparisons.
        var out = "(?s)^"
        let characters = Array(pattern)
        var i = 0
        while i < characters.count {
            let c = characters[i]
            switch c {
            case "*":
                if i + 1 < characters.count, characters[i + 1] == "*" {
                    out += ".*"
                    while i + 1 < characters.count, characters[i + 1] == "*" { i += 1 }
                } else {
                    out += notSeparator + "*"
                }
            case "?":
                out += notSeparator
            case "\\":
                guard i + 1 < characters.count else { throw SyntaxError(message: "glob \"\(pattern)\" ends with a lone \\") }
                i += 1
                out += Self.escape(characters[i])
            case "[":
                // A ] right after [ or [! is a member, as in POSIX globs.
                var searchFrom = i + 1
                if searchFrom < characters.count, characters[searchFrom] == "!" || characters[searchFrom] == "^" { searchFrom += 1 }
                if searchFrom < characters.count, characters[searchFrom] == "]" { searchFrom += 1 }
                guard searchFrom <= characters.count, let close = characters[searchFrom...].firstIndex(of: "]") else {
                    throw SyntaxError(message: "glob \"\(pattern)\" has a [ with no closing ]")
                }
                var body = characters[(i + 1)..<close]
                var klass = "["
                if body.first == "!" || body.first == "^" { klass += "^"; body = body.dropFirst() }
                for member in body { klass += member == "-" ? "-" : Self.escape(member) }
                out += klass + "]"
                i = close
            default:
                out += Self.escape(c)
            }
            i += 1
        }
        out += "\\z"
        do {
            regex = try PatternRegex(out, caseInsensitive: caseInsensitive)
        } catch {
            throw SyntaxError(message: "glob \"\(pattern)\" is invalid: \(error.message)")
        }
    }

    /// True when the whole of `text` matches.
    public func matches(_ text: String) -> Bool {
        if let literal { return (caseInsensitive ? text.lowercased() : text) == literal }
        return regex?.matches(text) ?? false
    }

    private static func escape(_ c: Character) -> String {
        // ASCII by its byte: Character's isLetter and isNumber were most of a glob's compile.
        guard let ascii = c.asciiValue else { return String(c) }
        switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return String(c)
        default:
            return "\\" + String(c)
        }
    }
}

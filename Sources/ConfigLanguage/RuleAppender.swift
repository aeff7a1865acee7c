/// Adds a `[[rules]]` block at the end of the user's `config.toml`, leaving every byte before
/// it as it was: comments, order, formatting and line endings are the user's, so the only
/// change is the new block (and a line break the file lacked).
///
/// The block goes last because that is the one place a new table cannot change what an
/// earlier key means: TOML keys after a table header belong to it, so text inserted anywhere
/// else could capture the user's keys. Last also means the rule is tried after all of the
/// user's rules (first match wins): `UserRuleFile` checks whether an earlier rule takes the
/// clicked link first.
public enum RuleAppender {
    /// What a new (or empty) `config.toml` starts with.
    public static let header = """
        # openurld configuration: see `man 5 openurld.toml` or README.md.
        # Rules are tried in file order; the first that matches decides.

        """

    /// `existing` followed by `block`: a line break is added when `existing` lacks a final one
    /// (`\r\n` in a file whose lines end so, as the block's lines then do), and one blank line
    /// separates them; a missing or empty file gets `header` instead. `existing` is always an
    /// exact prefix of the result.
    public static func appending(_ block: String, to existing: String?) -> String {
        guard let existing, !existing.isEmpty else { return header + "\n" + block }
        let crlf = usesCRLF(existing)
        let newline = crlf ? "\r\n" : "\n"
        var body = block
        if crlf {
            // Convert only bare "\n": a block that already has "\r\n" keeps it as it is.
            var converted = ""
            var previous: Character?
            for character in block.unicodeScalars.map(Character.init) {
                if character == "\n", previous != "\r" { converted += "\r\n" } else { converted.append(character) }
                previous = character
            }
            body = converted
        }
        var result = existing
        // Compare the bytes: in Swift's String a final "\r\n" is one Character, not "\n".
        if existing.utf8.last != UInt8(ascii: "\n") { result += newline }
        if !endsWithBlankLine(result) { result += newline }
        return result + body
    }

    /// Whether the file's first line ends in `\r\n` (the style the rest of it most likely has).
    static func usesCRLF(_ text: String) -> Bool {
        guard let firstNewline = text.utf8.firstIndex(of: UInt8(ascii: "\n")) else { return false }
        return firstNewline > text.utf8.startIndex && text.utf8[text.utf8.index(before: firstNewline)] == UInt8(ascii: "\r")
    }

    /// Whether `text` (ending in a line break) ends with an empty line, spaces aside.
    private static func endsWithBlankLine(_ text: String) -> Bool {
        var bytes = text.utf8.reversed().makeIterator()
        guard bytes.next() == UInt8(ascii: "\n") else { return false }
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "\n"): return true
            case UInt8(ascii: "\r"), UInt8(ascii: " "), UInt8(ascii: "\t"): continue
            default: return false
            }
        }
        // Only whitespace before: the line break is the file's whole content.
        return true
    }
}

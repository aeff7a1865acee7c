/// An INI-style settings file (`mimeapps.list`, `kdeglobals`, `emaildefaults`, XFCE's
/// `helpers.rc`) edited line by line, so that every line not touched stays byte for byte as it
/// was. A nil section means the lines before the first `[header]` (helpers.rc has no header).
package struct KeyFileText: Equatable {
    /// The file split on `\n`; a final newline shows up as a trailing empty element.
    package var lines: [String]

    package init(text: String) { lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The exact file text.
    package var text: String { lines.joined(separator: "\n") }

    private static func isHeader(_ line: String) -> Bool { line.trimmingWhitespace().hasPrefix("[") }

    /// Line indices of the body of `section` (after its header, before the next one); for nil,
    /// the lines before the first header.
    package func body(of section: String?) -> Range<Int>? {
        guard let section else { return 0..<(lines.firstIndex(where: Self.isHeader) ?? lines.count) }
        let header = "[" + section + "]"
        guard let start = lines.firstIndex(where: { $0.trimmingWhitespace() == header }) else { return nil }
        let end = lines[(start + 1)...].firstIndex(where: Self.isHeader) ?? lines.count
        return (start + 1)..<end
    }

    /// The index of the line setting `key` in `section`. A KDE key with a locale or `[$e]`
    /// suffix (`BrowserApplication[$e]`) counts as that key.
    package func lineIndex(section: String?, key: String) -> Int? {
        guard let body = body(of: section) else { return nil }
        return body.first { Self.baseKey(of: lines[$0]) == key }
    }

    /// The value `key` has in `section`, as written (after `=`, whitespace trimmed).
    package func value(section: String?, key: String) -> String? {
        guard let index = lineIndex(section: section, key: key), let equals = lines[index].firstIndex(of: "=") else { return nil }
        return String(lines[index][lines[index].index(after: equals)...]).trimmingWhitespace()
    }

    /// Sets `key=value` in `section`, replacing its line if present, otherwise adding it after the
    /// section's last non-blank line (creating the section at the end if needed). Returns true
    /// when the section was created.
    @discardableResult
    package mutating func set(section: String?, key: String, value: String) -> Bool {
        let line = key + "=" + value
        if let index = lineIndex(section: section, key: key) {
            lines[index] = line
            return false
        }
        if let body = body(of: section) {
            let lastFilled = body.last { !lines[$0].trimmingWhitespace().isEmpty } ?? (body.lowerBound - 1)
            if lastFilled + 1 == lines.count { lines.append("") }  // keep a final newline after the new line
            lines.insert(line, at: lastFilled + 1)
            return false
        }
        let original = text
        let separator = original.isEmpty ? "" : (original.hasSuffix("\n") ? "\n" : "\n\n")
        self = KeyFileText(text: original + separator + "[" + (section ?? "") + "]\n" + line + "\n")
        return true
    }

    /// Removes `section`'s header when its body holds nothing but blank lines, with the blank
    /// line that separated it from the section before.
    package mutating func removeSectionIfEmpty(_ section: String) {
        guard let body = body(of: section), body.allSatisfy({ lines[$0].trimmingWhitespace().isEmpty }) else { return }
        var start = body.lowerBound - 1
        if start > 0, lines[start - 1].isEmpty, start - 1 > 0 { start -= 1 }
        let keepsFinalNewline = body.upperBound == lines.count && start > 0
        lines.removeSubrange(start..<body.upperBound)
        if keepsFinalNewline { lines.append("") }
    }

    /// The key of a `key=value` line without a `[...]` suffix; nil for comments and others.
    package static func baseKey(of line: String) -> String? {
        let trimmed = line.trimmingWhitespace()
        guard !trimmed.hasPrefix("#"), !trimmed.hasPrefix(";"), let equals = trimmed.firstIndex(of: "=") else { return nil }
        var key = String(trimmed[..<equals]).trimmingWhitespace()
        if let bracket = key.firstIndex(of: "[") { key = String(key[..<bracket]) }
        return key
    }
}

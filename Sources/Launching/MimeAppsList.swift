/// A `mimeapps.list` file as text, edited line by line so that everything we do not touch stays
/// byte for byte as it was (comments, other sections, ordering, a missing final newline).
package struct MimeAppsList: Equatable {
    /// The file split on `\n`; a final newline shows up as a trailing empty element, so
    /// `lines.joined(separator: "\n")` gives the exact text back.
    package var lines: [String]

    /// The section openurl edits.
    static let defaultsSection = "[Default Applications]"

    package init(text: String) { lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The exact file text.
    package var text: String { lines.joined(separator: "\n") }

    /// Line indices of the body of the first `[NAME]` section (after its header, before the next header).
    package func sectionBody(_ header: String) -> Range<Int>? {
        guard let start = lines.firstIndex(where: { $0.trimmingWhitespace() == header }) else { return nil }
        let end = lines[(start + 1)...].firstIndex(where: { $0.trimmingWhitespace().hasPrefix("[") }) ?? lines.count
        return (start + 1)..<end
    }

    /// The index of the line setting `key` in the defaults section.
    package func lineIndex(forKey key: String) -> Int? {
        guard let body = sectionBody(Self.defaultsSection) else { return nil }
        return body.first { Self.key(of: lines[$0]) == key }
    }

    /// The desktop ids a line lists for `key` in `[Default Applications]`.
    package func defaults(forKey key: String) -> [String] {
        guard let index = lineIndex(forKey: key) else { return [] }
        return Self.ids(in: lines[index])
    }

    /// Sets `key=value` in the defaults section, replacing the line if present, otherwise adding
    /// it after the section's last non-blank line (creating the section at the end if needed).
    /// Returns the separator text put before a newly created section, or nil if none was created.
    @discardableResult
    package mutating func set(key: String, value: String) -> String? {
        let line = key + "=" + value
        if let index = lineIndex(forKey: key) {
            lines[index] = line
            return nil
        }
        if let body = sectionBody(Self.defaultsSection) {
            let lastFilled = body.last { !lines[$0].trimmingWhitespace().isEmpty } ?? (body.lowerBound - 1)
            lines.insert(line, at: lastFilled + 1)
            return nil
        }
        let original = text
        let separator = original.isEmpty ? "" : (original.hasSuffix("\n") ? "\n" : "\n\n")
        self = MimeAppsList(text: original + separator + Self.defaultsSection + "\n" + line + "\n")
        return separator
    }

    /// Removes the `key` line from the defaults section, if any.
    package mutating func remove(key: String) {
        if let index = lineIndex(forKey: key) { lines.remove(at: index) }
    }

    /// The key of a `key=value` line (whitespace around the key ignored); nil for others.
    package static func key(of line: String) -> String? {
        let trimmed = line.trimmingWhitespace()
        guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { return nil }
        return String(trimmed[..<equals]).trimmingWhitespace()
    }

    /// The `;`-separated ids of a `key=value` line.
    package static func ids(in line: String) -> [String] {
        guard let equals = line.firstIndex(of: "=") else { return [] }
        return line[line.index(after: equals)...].split(separator: ";")
            .map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    package func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

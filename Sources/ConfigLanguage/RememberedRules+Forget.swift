import TOML

extension RememberedRules {
    /// Why a remembered answer could not be cut out of its file.
    public struct ForgetError: Error, Equatable, CustomStringConvertible {
        /// The reason.
        public var description: String
    }

    /// `text` (a `remembered.toml`) without the `[[rules]]` blocks named `name`, every other line
    /// as it was; nil when no block has that name. A block runs from its `[[rules]]` line to the
    /// next rule's (sub-tables such as `[rules.match]` go with it); the comments and blank lines
    /// just before the next rule stay with that rule, and one blank line that separated the block
    /// from its neighbours goes with it, so forgetting the answer added last gives back the file
    /// as it was before. The result is read back: unless it parses and holds every other rule
    /// unchanged, in order, nothing is returned but the error (the caller then writes nothing).
    public static func removing(named name: String, from text: String) throws(ForgetError) -> String? {
        let (before, others) = try blocks(in: text)
        let doomed = before.filter { $0.name == name }
        guard !doomed.isEmpty else { return nil }
        // By scalars: a String splits by characters, and "\r\n" is one, so CRLF lines would not split.
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
        // Where each rule starts, and where anything else at the top starts (a rule ends there too).
        let starts = Set(before.map(\.line) + others)
        // From the last, so the line numbers of those still to cut hold.
        for rule in doomed.reversed() {
            let start = rule.line - 1
            guard lines.indices.contains(start), lines[start].filter({ $0 != " " && $0 != "\t" }).hasPrefix("[[rules]]") else {
                throw ForgetError(description: "\"\(name)\" is not written as a [[rules]] block of its own (line \(rule.line)); remove it by hand")
            }
            var end = (starts.filter { $0 > rule.line }.min() ?? lines.count + 1) - 1
            end = min(end, lines.count)
            while end > start + 1, isBlankOrComment(lines[end - 1]) { end -= 1 }
            var following = end
            while following < lines.count, isBlank(lines[following]) { following += 1 }
            if following < lines.count {
                lines.removeSubrange(start..<following)
            } else {
                // The last block: the blank lines before it go, the file's own ending stays.
                var first = start
                while first > 0, isBlank(lines[first - 1]) { first -= 1 }
                lines.removeSubrange(first..<end)
            }
        }
        let result = lines.joined(separator: "\n")
        let after = try blocks(in: result).rules
        let kept = before.filter { $0.name != name }
        guard after.map(\.name) == kept.map(\.name), after.map(\.text) == kept.map(\.text) else {
            throw ForgetError(description: "removing \"\(name)\" would change the other remembered answers; remove it by hand")
        }
        return result
    }

    /// Each `[[rules]]` table of `text`: its name, the line it starts on, and its keys and values
    /// in a canonical form (to check that the others are unchanged); and the lines where anything
    /// else at the top level starts (the loader refuses it, but a block must not run over it).
    private static func blocks(in text: String) throws(ForgetError) -> (rules: [(name: String?, line: Int, text: String)], others: [Int]) {
        let root: TOMLNode
        do { root = try TOMLParser.parse(text) } catch {
            throw ForgetError(description: "\(fileName):\(error.position): \(error.message)")
        }
        let others = (root.members ?? []).filter { $0.key != "rules" }.map(\.node.keyPosition.line)
        guard let node = root["rules"] else { return ([], others) }
        guard case .array(let items) = node.value else { throw ForgetError(description: "\(fileName): rules is not a list of [[rules]] tables") }
        let rules = items.map { item in
            let name: String?
            if case .string(let text)? = item["name"]?.value { name = text } else { name = nil }
            return (name: name, line: item.position.line, text: item.canonicalText())
        }
        return (rules, others)
    }

    private static func isBlank(_ line: String) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }

    private static func isBlankOrComment(_ line: String) -> Bool {
        isBlank(line) || line.drop { $0 == " " || $0 == "\t" }.first == "#"
    }
}

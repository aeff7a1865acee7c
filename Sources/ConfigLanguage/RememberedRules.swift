import JSON
import TOML
import RoutingCore

/// Rules written by the chooser's "Remember for …" check button.
///
/// They live in their own file, `remembered.toml` beside `config.toml`, holding only named
/// `[[rules]]` tables. A remembered rule is the answer to a question: the engine consults them
/// only where the decision would have been to ask (the asking rule, a forced ask, `[default]
/// ask`), in file order, and never before another rule of `config.toml`. Keeping them apart
/// leaves the user's own file exactly as written (comments, order, formatting), and deleting a
/// block (or the file) forgets a choice.
public enum RememberedRules {
    /// The file name, in the config file's directory.
    public static let fileName = "remembered.toml"

    /// What a new file starts with.
    public static let header = """
        # Choices remembered by the openurld chooser ("Remember for …").
        # Each answers a question: openurld uses one only where a rule of config.toml (or [default]) would ask.
        # Targets may name its [apps].
        # Delete a block to forget a choice. Each rule needs a name.

        """

    /// Why a choice cannot be remembered.
    public struct RememberError: Error, Equatable, CustomStringConvertible {
        /// The reason.
        public var description: String
    }

    /// The rule's name for a scope: `Remembered: example.org`, `Remembered: links from slack`.
    public static func ruleName(scope: String, value: String) -> String {
        switch scope {
        case "host": return "Remembered: \(value) only"
        case "opener": return "Remembered: links from \(value)"
        case "mail-domain": return "Remembered: mail to @\(value)"
        default: return "Remembered: \(value)"
        }
    }

    /// The `[[rules]]` block remembering `choice` (as the config writes it) for the scope.
    public static func ruleText(scope: String, value: String, choice: String) throws(RememberError) -> String {
        guard !value.isEmpty, !value.contains(where: { "*?[]{}\\\"\n\r\t".contains($0) }) else {
            throw RememberError(description: "cannot remember for \(String(reflecting: value)): not a plain name")
        }
        let match: [String]
        switch scope {
        case "domain": match = ["match.domain = \(quoted(value))"]
        case "host": match = ["match.host = \(quoted(value))"]
        case "opener": match = ["match.opener = \(quoted(value))"]
        case "mail-domain": match = ["match.scheme = \"mailto\"", "match.to = \(quoted("*@" + value))"]
        default: throw RememberError(description: "unknown remember scope \(String(reflecting: scope)) (domain, host, opener, mail-domain)")
        }
        let action: String
        switch choice {
        case "copy": action = "copy = true"
        case "discard": action = "discard = true"
        default: action = "open = \(quoted(choice))"
        }
        return (["[[rules]]", "name = \(quoted(ruleName(scope: scope, value: value)))"] + match + [action]).joined(separator: "\n") + "\n"
    }

    /// `existing` (nil: no file yet) with `block` added; a block with the same name is replaced
    /// in place, every other line is kept as it was.
    public static func adding(_ block: String, named name: String, to existing: String?) -> String {
        guard let existing, !existing.isEmpty else { return header + "\n" + block }
        var lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        // A block runs from its [[rules]] line to the next table header.
        let nameLine = "name = \(quoted(name))"
        var start: Int?
        for (i, line) in lines.enumerated() where line.trimmingSpaces() == "[[rules]]" {
            var end = i + 1
            while end < lines.count, !lines[end].trimmingSpaces().hasPrefix("[") { end += 1 }
            if lines[i..<end].contains(where: { $0.trimmingSpaces() == nameLine }) {
                start = i
                lines.replaceSubrange(i..<end, with: block.split(separator: "\n").map(String.init) + (end < lines.count ? [""] : []))
                break
            }
        }
        if start == nil { lines += (lines.last?.isEmpty == false ? [""] : []) + block.split(separator: "\n").map(String.init) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A TOML basic string: its escapes (\", \\, \n, \r, \t, \uXXXX) are JSON's.
    static func quoted(_ text: String) -> String { JSONValue.string(text).text }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" || s.last == "\r" { s.removeLast() }
        return String(s)
    }
}

extension ConfigLoader {
    /// Reads a remembered-rules file (`RememberedRules`) into `config.remembered` (the answers the
    /// engine consults where it would ask, never before another rule, nor for a rule the system
    /// configuration locked). Only `[[rules]]` tables with a name are accepted; a name used in
    /// the user's config is an error.
    public static func loadRemembered(text: String, path: String, into config: Config) throws(ConfigError) -> Config {
        var collector = DiagnosticCollector(path: path)
        let root: TOMLNode
        do {
            root = try TOMLParser.parse(text)
        } catch {
            collector.report(error.message, at: error.position)
            throw ConfigError(diagnostics: collector.diagnostics)
        }
        collector.checkKeys(root.members ?? [], known: ["rules"], in: "\(RememberedRules.fileName) (only [[rules]] tables)")
        var base = config
        base.rules = []
        var reader = ConfigReader(collector: collector, config: base, layer: .remembered)
        if let rules = root["rules"] { reader.readRules(rules) }
        collector = reader.collector
        let taken = Dictionary(config.rules.filter { $0.source.layer == .user }.compactMap { rule in rule.name.map { ($0, rule.source) } },
                               uniquingKeysWith: { first, _ in first })
        var remembered = reader.config.rules
        for (offset, rule) in remembered.enumerated() {
            guard let name = rule.name else {
                collector.report("remembered rule #\(offset + 1) has no name; give it name = \"...\"", at: rule.position)
                continue
            }
            if let other = taken[name] {
                collector.report("rule name \"\(name)\" is also used in \(other.file.isEmpty ? config.path ?? "the config" : other.file) at line \(other.line); rule names must be unique", at: rule.position)
            }
            remembered[offset].index = 0
        }
        guard collector.diagnostics.isEmpty else { throw ConfigError(diagnostics: collector.diagnostics) }
        var merged = reader.config
        merged.rules = config.rules
        merged.remembered = remembered
        merged.rememberedPath = path
        return merged.finishingLayers()
    }
}

import JSON
import RoutingCore
import TOML

extension Rule {
    /// What the rule matches, on one line, as its `match` keys read in the file, in their order:
    /// `domain = "example.org"`, `host = "a.example.org", path = "/x/*"`,
    /// `any = [{ network = "Office" }, { time = "09:00-17:00" }]`; empty when it matches every
    /// link. Values are shown as written (a glob is not expanded, a domain not normalised).
    public var matchText: String {
        guard let matchSource, case .table(let members) = matchSource.value else { return "" }
        return TOMLInline.members(members)
    }
}

extension Config {
    /// `rule.matchText`, or for a `[[sitelist]]`'s rule (which has no `match`) the list it
    /// switches by: `sitelist = "/etc/xdg/openurld/sites.xml"`.
    public func matchText(of rule: Rule) -> String {
        for case .siteList(let match) in rule.matchers where siteLists.indices.contains(match.source) {
            return "sitelist = " + TOMLInline.string(siteLists[match.source].path)
        }
        return rule.matchText
    }
}

extension Intent {
    /// Where the action sends links, as the config writes the target (`firefox-esr:Work`; a list
    /// of the first running as `a, b`; `system` for the previous handler); empty for copy, ask
    /// and discard, which open nothing.
    public var targetText: String {
        switch self {
        case .open(let target): return target.description
        case .openFirstRunning(let targets): return targets.map(\.description).joined(separator: ", ")
        case .system: return "system"
        case .copy, .ask, .discard: return ""
        }
    }
}

/// TOML values written back on one line, as inline TOML: what a user reads in their file.
enum TOMLInline {
    /// `key = value, key = value`.
    static func members(_ members: [(key: String, node: TOMLNode)]) -> String {
        members.map { "\(key($0.key)) = \(value($0.node))" }.joined(separator: ", ")
    }

    /// One value: a string quoted, a list in brackets, a table in braces.
    static func value(_ node: TOMLNode) -> String {
        switch node.value {
        case .string(let text): return string(text)
        case .integer(let number): return String(number)
        case .float(let number): return String(number)
        case .boolean(let flag): return flag ? "true" : "false"
        case .dateTime(let text): return text
        case .array(let items): return "[" + items.map(value).joined(separator: ", ") + "]"
        case .table(let members): return members.isEmpty ? "{}" : "{ " + self.members(members) + " }"
        }
    }

    /// A bare key when TOML allows one (letters, digits, `_`, `-`), else a quoted one.
    static func key(_ text: String) -> String {
        let bare = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
        }
        return bare ? text : string(text)
    }

    /// A TOML basic string: its escapes are JSON's.
    static func string(_ text: String) -> String { JSONValue.string(text).text }
}

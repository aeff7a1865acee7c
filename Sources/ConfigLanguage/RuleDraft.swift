import URLModel
import Platform

/// A rule as the settings window's "Make a rule…" form holds it: a name, one kind of match and
/// one action; `text` writes it as the `[[rules]]` block `RuleAppender` adds to `config.toml`.
///
/// Pure: no files are read. The values are plain names (hosts, domains, path segments), never
/// globs, so what the form shows is exactly what the rule matches.
public struct RuleDraft: Sendable, Equatable {
    /// What the rule matches.
    public enum Match: Sendable, Equatable {
        /// `match.domain`: the domain and every subdomain of it.
        case domain(String)
        /// `match.host`: this host only.
        case host(String)
        /// `match.host` plus `match.path = ["/prefix", "/prefix/**"]`: the prefix and everything under it.
        case pathPrefix(host: String, path: String)
        /// `match.scheme = "mailto"` plus `match.to = "*@domain"`: mail to anyone at the domain.
        case mailDomain(String)
    }

    /// What the rule does with the links it takes.
    public enum Action: Sendable, Equatable {
        /// `open = "TARGET"`: a target as `openurl apps` lists it (`firefox-esr:Work`, a desktop id, `[apps]` name…).
        case open(target: String)
        /// `copy = true`.
        case copy
        /// `discard = true`.
        case discard
        /// `ask = [ … ]`: offer these choices (targets as for `open`, `copy`, `discard`); the
        /// config has no ask without choices, so at least one is needed.
        case ask(choices: [String])
    }

    /// Why a draft cannot be written.
    public struct DraftError: Error, Equatable, CustomStringConvertible {
        /// The reason, naming the value refused.
        public var description: String
    }

    /// `name`: shown by `openurl test`, `rules` and `recent`; must be unique.
    public var name: String
    /// What it matches.
    public var match: Match
    /// What it does.
    public var action: Action

    /// A draft.
    public init(name: String, match: Match, action: Action) {
        self.name = name
        self.match = match
        self.action = action
    }

    /// The `[[rules]]` block, ending in "\n"; throws when a value is not a plain name (a glob
    /// character, a space, a quote, a control character) or is empty.
    public var text: String {
        get throws(DraftError) {
            var lines = ["[[rules]]", "name = \(try Self.checkedName(name))"]
            lines += try matchLines()
            lines.append(try actionLine())
            return lines.joined(separator: "\n") + "\n"
        }
    }

    private func matchLines() throws(DraftError) -> [String] {
        switch match {
        case .domain(let domain):
            return ["match.domain = \(RememberedRules.quoted(try Self.checkedHost(domain, what: "domain")))"]
        case .host(let host):
            return ["match.host = \(RememberedRules.quoted(try Self.checkedHost(host, what: "host")))"]
        case .pathPrefix(let host, let path):
            let prefix = try Self.checkedPathPrefix(path)
            // `*` stops at `/` in path globs and `**` crosses it; the list also takes the prefix
            // itself, so `/docs` and `/docs/a/b` both match and `/docsmore` does not.
            return ["match.host = \(RememberedRules.quoted(try Self.checkedHost(host, what: "host")))",
                    "match.path = [\(RememberedRules.quoted(prefix)), \(RememberedRules.quoted(prefix + "/**"))]"]
        case .mailDomain(let domain):
            return ["match.scheme = \"mailto\"",
                    "match.to = \(RememberedRules.quoted("*@" + (try Self.checkedHost(domain, what: "mail domain"))))"]
        }
    }

    private func actionLine() throws(DraftError) -> String {
        switch action {
        case .open(let target): return "open = \(RememberedRules.quoted(try Self.checkedTarget(target)))"
        case .copy: return "copy = true"
        case .discard: return "discard = true"
        case .ask(let choices) where choices.isEmpty: throw DraftError(description: "ask needs at least one choice")
        case .ask(let choices):
            var quoted: [String] = []
            for choice in choices { quoted.append(RememberedRules.quoted(try Self.checkedTarget(choice))) }
            return "ask = [\(quoted.joined(separator: ", "))]"
        }
    }

    // MARK: checks

    /// Characters that are glob syntax in some matcher, or that a plain name never holds.
    static let notInNames: Set<Character> = ["*", "?", "[", "]", "{", "}", "\\", "\"", "/", "@", ":", " ", "#", "%"]

    /// The name quoted; refused when empty or holding a control character (a line break in a
    /// name would show in `openurl rules` as two rules).
    static func checkedName(_ name: String) throws(DraftError) -> String {
        guard !name.trimmingSpaces().isEmpty else { throw DraftError(description: "the rule needs a name") }
        guard !name.unicodeScalars.contains(where: isControl) else {
            throw DraftError(description: "the name \(String(reflecting: name)) holds a control character")
        }
        return RememberedRules.quoted(name)
    }

    /// A host or domain lowercased, without a trailing dot; refused unless it is labels of
    /// letters, digits, `-` and `_` (Unicode letters included: IDN hosts match in either form).
    static func checkedHost(_ host: String, what: String) throws(DraftError) -> String {
        var value = host.lowercased()
        if value.hasSuffix("."), value.count > 1 { value.removeLast() }
        guard !value.isEmpty else { throw DraftError(description: "the \(what) is empty") }
        if let bad = value.first(where: { notInNames.contains($0) || $0.unicodeScalars.contains(where: isControl) || $0.isWhitespace }) {
            throw DraftError(description: "cannot match the \(what) \(String(reflecting: host)): \(String(reflecting: String(bad))) is not part of a plain host name")
        }
        guard !value.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            throw DraftError(description: "cannot match the \(what) \(String(reflecting: host)): it has an empty label")
        }
        return value
    }

    /// A path prefix as the URL writes it (`/docs`, `/caf%C3%A9/x`), without a trailing `/`;
    /// refused when it is not absolute, is `/` itself, or holds glob syntax or spaces.
    static func checkedPathPrefix(_ path: String) throws(DraftError) -> String {
        var value = path
        while value.count > 1, value.hasSuffix("/") { value.removeLast() }
        guard value.hasPrefix("/"), value.count > 1 else {
            throw DraftError(description: "the path prefix \(String(reflecting: path)) must start with / and name a folder (for the whole host, match the host)")
        }
        let globSyntax: Set<Character> = ["*", "?", "[", "]", "{", "}", "\\", "\"", "#"]
        if let bad = value.first(where: { globSyntax.contains($0) || $0.isWhitespace || $0.unicodeScalars.contains(where: isControl) }) {
            throw DraftError(description: "cannot match the path \(String(reflecting: path)): \(String(reflecting: String(bad))) would be read as a pattern or is not part of a path")
        }
        guard !value.containsText("//") else { throw DraftError(description: "cannot match the path \(String(reflecting: path)): it has an empty segment") }
        return value
    }

    /// A target name as `openurl apps` prints it; the loader judges whether it is installed.
    static func checkedTarget(_ target: String) throws(DraftError) -> String {
        guard !target.trimmingSpaces().isEmpty, target.trimmingSpaces() == target else {
            throw DraftError(description: "the target \(String(reflecting: target)) is empty or has spaces around it")
        }
        guard !target.unicodeScalars.contains(where: isControl) else {
            throw DraftError(description: "the target \(String(reflecting: target)) holds a control character")
        }
        return target
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}

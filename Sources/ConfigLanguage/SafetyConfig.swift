import LinkSafety
import URLModel
import TOML
import Patterns
import RoutingCore

/// `[settings] blocklists`: `"auto"` (Debian's uBlock Origin lists, when installed), or files.
public enum BlockListSetting: Sendable, Equatable {
    /// The lists `BlockListDiscovery.auto` finds; none when the package is not installed.
    case auto
    /// These files (uBlock / Adblock Plus filter syntax, or hosts files), in order; `[]` for none.
    case files([BlockListFile])
}

/// One file named in `[settings] blocklists`, with where the config names it.
public struct BlockListFile: Sendable, Equatable {
    /// The path as written (`~/` is the home directory; a relative path is beside the config).
    public var path: String
    /// Where the config writes it, for errors about the file.
    public var position: SourcePosition

    /// A file.
    public init(path: String, position: SourcePosition) {
        self.path = path
        self.position = position
    }
}

/// The names `[settings] safety_checks` takes, one per check.
public enum SafetyCheckName: String, Sendable, CaseIterable {
    case idn, lookalikes, linkText = "link_text", blocklists

    /// `checks` with only the named ones on.
    static func checks(_ names: Set<SafetyCheckName>) -> SafetyChecks {
        SafetyChecks(idn: names.contains(.idn), lookalikes: names.contains(.lookalikes),
                     linkText: names.contains(.linkText), blocklists: names.contains(.blocklists))
    }
}

extension Config {
    /// The checker for this config: the checks `[settings]` asks for (none with `safety = "off"`),
    /// the domains the rules name, the block lists found for it, and the Public Suffix List.
    public func safetyChecker() -> SafetyChecker {
        let checks = settings.safety == .off ? SafetyChecks.none : settings.safetyChecks
        let blocklists = checks.blocklists ? blockLists : []
        guard checks.lookalikes else { return SafetyChecker(checks: checks, blocklists: blocklists, publicSuffixes: publicSuffixes) }
        return SafetyChecker(checks: checks, knownDomainsOnFirstUse: { [self] in KnownDomains(knownDomains) },
                             blocklists: blocklists, publicSuffixes: publicSuffixes)
    }

    /// The domains the rules name, literally, in `match.domain`, `match.host` (`*.` allowed in
    /// front) and `match.to` (`*@domain`), each with what its rule does: "your rule 'Pay' opens
    /// in firefox:Banking". Remembered answers (remembered.toml) come first: choices the user made.
    public var knownDomains: [KnownDomain] {
        var domains: [KnownDomain] = []
        // Each list read in place: `remembered + rules` copied every rule (~900 instructions each).
        func add(_ rule: Rule) {
            // Described when shown, from what the description needs (not the whole rule).
            let (action, index, name) = (rule.action, rule.index, rule.name)
            let describe: @Sendable () -> String = { Self.describe(action: action, index: index, name: name) }
            for matcher in rule.matchers {
                switch matcher {
                case .domain(let names): domains += names.map { KnownDomain(domain: $0, describedBy: describe) }
                case .host(let globs): domains += globs.compactMap { Self.literal($0.pattern, after: "*.") }.map { KnownDomain(domain: $0, describedBy: describe) }
                case .to(let globs): domains += globs.compactMap { Self.literal($0.pattern, after: "*@") }.map { KnownDomain(domain: $0, describedBy: describe) }
                default: break
                }
            }
        }
        for rule in remembered { add(rule) }
        for rule in rules { add(rule) }
        return domains
    }

    /// `pattern` without `prefix` when the rest has no wildcard; nil otherwise.
    static func literal(_ pattern: String, after prefix: String) -> String? {
        let rest = pattern.hasPrefix(prefix) ? String(pattern.dropFirst(prefix.count)) : pattern
        // By byte: Character by Character, each looked up in a String, was ~1.7k instructions a pattern.
        guard !rest.isEmpty, !rest.utf8.contains(where: { byte in
            switch byte {
            case UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
                 UInt8(ascii: "\\"), UInt8(ascii: "@"): return true
            default: return false
            }
        }) else { return nil }
        return rest
    }

    /// What a rule does, read after "which": "your rule 'Pay' opens in firefox:Banking",
    /// "your remembered choice opens in firefox.desktop".
    static func describe(action: Intent, index: Int, name: String?) -> String {
        let does: String
        switch action {
        case .open(.system), .system: does = "hands to the previous default handler"
        case .open(let target): does = "opens in \(target)"
        case .openFirstRunning(let targets): does = "opens in the first running of \(targets.map(\.description).joined(separator: ", "))"
        case .copy: does = "copies"
        case .ask: does = "asks about"
        case .discard: does = "discards"
        }
        // Remembered answers are loaded with index 0 (they come from remembered.toml).
        if index == 0 { return "your remembered choice \(does)" }
        return "your rule \(name.map { "'\($0)'" } ?? "#\(index)") \(does)"
    }
}

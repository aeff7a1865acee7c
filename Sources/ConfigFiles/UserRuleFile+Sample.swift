import URLModel
import RoutingCore
import ConfigLanguage
import Routing

extension UserRuleFile {
    /// A rule named in a result: its name (or `#index`) and where it is written.
    public struct RuleMention: Sendable, Equatable, CustomStringConvertible {
        /// The rule's name, or `#index` for an unnamed rule.
        public var name: String
        /// Its layer, file and line, and whether the system locked it.
        public var source: RuleSource

        /// A mention.
        public init(name: String, source: RuleSource) {
            self.name = name
            self.source = source
        }

        /// `"Work links" (~/.config/openurld/config.toml:12)`.
        public var description: String { "\(String(reflecting: name)) (\(source.file):\(source.line))" }
    }

    /// What the config with the new rule does with the sample link (the click the rule was made from).
    public enum SampleOutcome: Sendable, Equatable, CustomStringConvertible {
        /// The new rule decides it (a remembered answer to the new rule's question counts).
        case decidedByNewRule
        /// The new rule matches it, but an earlier rule (the user's, or an unlocked system rule)
        /// matches first and decides: the new rule would never route this link.
        case shadowed(by: RuleMention)
        /// The new rule matches it, but a rule the system configuration locked takes it first,
        /// and the user cannot change that.
        case takenByLockedRule(RuleMention)
        /// The new rule does not match it at all; the rule (nil: `[default]`) that decides it.
        case notMatched(decidedBy: RuleMention?)
        /// The sample is not a URL (the parser's message).
        case notAURL(String)

        /// One sentence for the window.
        public var description: String {
            switch self {
            case .decidedByNewRule: return "the new rule routes this link"
            case .shadowed(let rule): return "rule \(rule) matches this link first, so the new rule would not route it"
            case .takenByLockedRule(let rule): return "rule \(rule) is locked by the system configuration and takes this link first"
            case .notMatched(let rule?): return "the new rule does not match this link; rule \(rule) decides it"
            case .notMatched(nil): return "the new rule does not match this link; [default] decides it"
            case .notAURL(let message): return "the sample is not a URL: \(message)"
            }
        }
    }

    /// Decides `sampleURL` with `config` (the candidate, holding the new rule `name`), and with
    /// only the new rule, to tell a rule that matches too late from one that does not match.
    /// The moment is unknown (no network, time or keys), as for `openurl test` without options.
    static func judgeSample(_ sampleURL: String, config: Config, newRule name: String) -> SampleOutcome {
        let decision: Decision
        do { decision = try RuleEngine(config: config).decide(sampleURL) } catch { return .notAURL(error.message) }
        let decider = decidingRule(decision)
        if decider == .named(name) { return .decidedByNewRule }
        let mention = decider.flatMap { reference in mentioning(reference, in: config) }
        var alone = config
        alone.rules = config.rules.filter { $0.source.layer == .user && $0.name == name }
        alone.remembered = []
        let matchesAlone = (try? RuleEngine(config: alone).decide(sampleURL))?.rule == .named(name)
        guard matchesAlone, let mention else { return .notMatched(decidedBy: mention) }
        return mention.source.locked ? .takenByLockedRule(mention) : .shadowed(by: mention)
    }

    /// The rule whose match decided: for a remembered answer, the rule whose question it answered.
    private static func decidingRule(_ decision: Decision) -> Decision.RuleReference? {
        for step in decision.trace {
            if case .remembered(_, _, let asked) = step { return asked }
        }
        return decision.rule
    }

    /// The rule `reference` names among the rules in force, with where it is written.
    private static func mentioning(_ reference: Decision.RuleReference, in config: Config) -> RuleMention? {
        let rule: Rule?
        switch reference {
        case .named(let name): rule = config.rules.first { $0.name == name }
        case .index(let index): rule = config.rules.first { $0.index == index && $0.source.layer != .remembered }
        }
        return rule.map { RuleMention(name: $0.label, source: $0.source) }
    }
}

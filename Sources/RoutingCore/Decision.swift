/// The one decision made for a URL: what happens to it, which rule said so, and how it was
/// reached. What happens is a closed sum (`Effect`), so a decision holds exactly what its kind
/// needs: a copy has its text, an ask its choices, an open its launch, and nothing else.
public struct Decision: Sendable, Equatable {
    /// The name `openurl test` and `Open` give each kind of decision.
    public enum Kind: String, Sendable, CaseIterable {
        case open, copy, ask, discard, system
        /// Held by the safety policy (`[settings] safety`, a block list), with Open anyway.
        case held
        /// The rule's target is not installed: refused with a notification that offers others
        /// (it was called `discard`, which read as if the rule dropped the link).
        case unavailable
    }

    /// What happens to the link.
    public enum Effect: Sendable, Equatable {
        /// Launch `target` as `launch` says; `target` is `.system` for the handler that was the
        /// default before openurld.
        case open(Target, Launch)
        /// Put `text` on the clipboard; `leftOutBcc` when a mailto's Bcc recipients are not in
        /// it (hidden from the others by definition), so the confirmation can say so.
        case copy(text: String, leftOutBcc: Bool)
        /// Offer these choices; `forced` when the ask came from `--ask` rather than a rule.
        case ask([Choice], forced: Bool)
        /// Drop the link (a rule's `discard`).
        case discard
        /// The link cannot be routed, with why (a scheme that is not routed, a target that does not resolve).
        case refused(String)
        /// The target (as written: `brave:Work`) is not installed, with why: refused like
        /// `refused`, and the executor offers the apps that are installed.
        case unavailable(target: String, reason: String)
        /// A ClearURLs `completeProvider` blocked it; the user may still open it.
        case blocked(provider: String)
        /// The safety policy held it (`safety`): nothing happens until the user picks Open
        /// anyway, which carries out the effect held (an open, a copy or an ask).
        indirect case held(Effect)
    }

    /// Which rule decided: a name, or the 1-based index of an unnamed rule.
    public enum RuleReference: Sendable, Equatable, CustomStringConvertible {
        case named(String)
        case index(Int)

        /// The name or `#index`.
        public var description: String {
            switch self {
            case .named(let name): return name
            case .index(let index): return "#\(index)"
            }
        }
    }

    /// The URL as given.
    public var url: String
    /// The URL after unwrapping, cleaning and rewrites (for webmail, the compose URL).
    public var finalURL: String
    /// What happens.
    public var effect: Effect
    /// The rule that decided, nil for `[default]`.
    public var rule: RuleReference?
    /// Whether to show a notification once it is carried out.
    public var notify: Bool
    /// How the decision was reached, step by step.
    public var trace: [TraceStep]
    /// The layer and file of the rule that decided, nil for `[default]`.
    public var ruleSource: RuleSource?
    /// The safety verdict on the link and what the policy did with it.
    public var safety: DecisionSafety = .unchecked

    /// A decision.
    // Inlinable so a caller builds the decision in place: called across modules, the new
    // decision was copied out of the call and the original released (~550 instructions a click).
    @inlinable
    public init(url: String, finalURL: String, effect: Effect, rule: RuleReference? = nil, notify: Bool = false, trace: [TraceStep] = []) {
        self.url = url
        self.finalURL = finalURL
        self.effect = effect
        self.rule = rule
        self.notify = notify
        self.trace = trace
    }

    /// The kind's name: a refused or blocked link is a `discard`, an open of `.system` a `system`.
    public var kind: Kind {
        switch effect {
        case .open(.system, _): return .system
        case .open: return .open
        case .copy: return .copy
        case .ask: return .ask
        case .discard, .refused, .blocked: return .discard
        case .unavailable: return .unavailable
        case .held: return .held
        }
    }

    /// The effect carried out: the one held when the link is held.
    public var underlyingEffect: Effect {
        if case .held(let held) = effect { return held }
        return effect
    }

    /// The decision with its hold released (Open anyway, reopening a held link).
    public func releasingHold() -> Decision {
        var released = self
        released.effect = underlyingEffect
        return released
    }

    /// The target of an `open`, held or not (nil for `system` and every other kind).
    public var target: Target? {
        if case .open(let target, _) = underlyingEffect, target != .system { return target }
        return nil
    }

    /// How to launch, for `open` and `system`.
    public var launch: Launch? {
        if case .open(_, let launch) = effect { return launch }
        return nil
    }

    /// The text to copy, for `copy`, held or not.
    public var copyText: String? {
        if case .copy(let text, _) = underlyingEffect { return text }
        return nil
    }

    /// True for a copy that left a mailto's Bcc recipients out of its text, held or not.
    public var copyLeftOutBcc: Bool {
        if case .copy(_, true) = underlyingEffect { return true }
        return false
    }

    /// The choices, for `ask`, held or not (empty otherwise).
    public var choices: [Choice] {
        if case .ask(let choices, _) = underlyingEffect { return choices }
        return []
    }

    /// Why the link was refused, if it was.
    public var error: String? {
        switch effect {
        case .refused(let reason), .unavailable(_, let reason): return reason
        default: return nil
        }
    }
}

/// How an `open` is launched: the one vocabulary from the decision to the launcher.
public enum Launch: Sendable, Equatable {
    /// A desktop entry (or one of its actions) with the URL.
    case desktopEntry(id: String, action: String?, url: String)
    /// A desktop entry's program with these arguments instead of its Exec arguments.
    case desktopEntryWithArguments(id: String, arguments: [String])
    /// A desktop entry's `Exec` with `arguments` inserted before the URL (a browser profile).
    case desktopEntryAdding(id: String, arguments: [String], url: String)
    /// A desktop entry's `Exec` without its URL field codes, with `arguments` appended, which
    /// hold the URL themselves (`--app=URL`, a web app's launch URL).
    case desktopEntryAppending(id: String, arguments: [String])
    /// A raw argv.
    case argv([String])
    /// The handler that was the default before openurld, with the URL.
    case system(url: String)
}

/// One step of a decision's explanation.
public enum TraceStep: Sendable, Equatable {
    /// A hygiene or rewrite step changed the URL.
    case changed(step: String, url: String)
    /// Built-in tracking parameters were removed (raw names, in order): a `changed` step whose
    /// text (`cleaned [utm_source, fbclid]`) is made only when it is shown, as building it
    /// was ~1.2k instructions of every cleaned click.
    case cleaned(removed: [String], url: String)
    /// A rule was tried: the matchers that held and the first that failed (nil when it matched);
    /// `source` for a rule of the system configuration.
    case rule(reference: Decision.RuleReference, held: [String], failed: String?, enabled: Bool, source: RuleSource?)
    /// A site list's verdict: the entry (at `line` of `file`) that decided, or none.
    case siteList(file: String, entry: String, line: Int, outcome: String)
    /// Something worth saying that changed nothing.
    case note(String)
    /// No rule matched; `[default]` (or the built-in `system`) applied.
    case defaultAction
    /// A webmail target produced a compose URL that was routed again.
    case webmail(name: String, url: String)
    /// The link was refused or could not be routed.
    case refused(String)
    /// A web link was converted for its native app (`zoom`), opened by the entry `app`.
    case appLink(name: String, url: String, app: String)
    /// A remembered answer (`rule`, in the file and line `location`) answered the question the
    /// rule `asked` (nil: `[default]`) would have put.
    case remembered(rule: String, location: String, asked: Decision.RuleReference?)
    /// The target (as written) is not installed: the link was refused with `reason`.
    case unavailable(target: String, reason: String)
    /// A fact of the moment decided something: Shift held, the first running target.
    case moment(String)
    /// The link's safety verdict and what the policy did with it.
    case safety(DecisionSafety)

    /// How a `cleaned` step is named: `cleaned [utm_source, fbclid]`.
    public static func cleanedSummary(_ removed: [String]) -> String {
        "cleaned [\(removed.joined(separator: ", "))]"
    }

    /// One line of text for `openurl test`.
    public var text: String {
        switch self {
        case .changed(let step, let url): return "\(step): \(url)"
        case .cleaned(let removed, let url): return "\(Self.cleanedSummary(removed)): \(url)"
        case .rule(let reference, let held, let failed, let enabled, let source):
            let name = source.map { "rule \(reference) [\($0)]" } ?? "rule \(reference)"
            if !enabled { return "\(name): disabled" }
            let heldText = held.isEmpty ? "" : " (held: \(held.joined(separator: ", ")))"
            if let failed { return "\(name): no, \(failed) did not match\(heldText)" }
            return "\(name): matched\(heldText)"
        case .siteList(let file, let entry, let line, let outcome):
            return entry.isEmpty ? "  site list \(file): \(outcome)" : "  site list \(file):\(line): \(entry): \(outcome)"
        case .note(let text): return text
        case .defaultAction: return "no rule matched: [default]"
        case .webmail(let name, let url): return "webmail \(name): compose \(url), routed again"
        case .refused(let reason): return "refused: \(reason)"
        case .appLink(let name, let url, let app): return "app link \(name): \(url) in \(app)"
        case .remembered(let rule, let location, let asked):
            return "remembered answer \(rule) (\(location)) answers the question of \(asked.map { "rule \($0)" } ?? "[default]")"
        case .unavailable(let target, let reason): return "not installed: \(target): \(reason)"
        case .moment(let text): return text
        case .safety(let safety): return safety.text
        }
    }
}

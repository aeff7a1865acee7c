import Hygiene

/// The one decision made for a URL: what happens, why, and everything needed to carry it out.
public struct Decision: Sendable {
    /// The five outcomes.
    public enum Kind: String, Sendable, CaseIterable {
        case open, copy, ask, discard, system
    }

    /// How an `open` or `system` decision is launched.
    public enum Launch: Sendable, Equatable {
        /// A desktop entry (or one of its actions) with the URL.
        case desktopEntry(id: String, action: String?, url: String)
        /// A desktop entry's program with these arguments instead of its Exec arguments.
        case desktopEntryWithArguments(id: String, arguments: [String])
        /// A desktop entry's `Exec` with `arguments` inserted before the URL (a browser profile).
        case desktopEntryAdding(id: String, arguments: [String], url: String)
        /// A raw argv.
        case argv([String])
        /// The handler that was the default before openurld, with the URL.
        case system(url: String)
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
    /// The outcome.
    public var kind: Decision.Kind
    /// The target of an `open` (after webmail re-routing, the final one).
    public var target: OpenTarget?
    /// How to launch, for `open` and `system`.
    public var launch: Launch?
    /// The rule that decided, nil for `[default]`.
    public var rule: RuleReference?
    /// The text to copy, for `copy`.
    public var copyText: String?
    /// The choices, for `ask`.
    public var choices: [AskChoice]
    /// Whether to show a notification.
    public var notify: Bool
    /// Why the link was refused or could not be routed, if it was.
    public var error: String?
    /// How the decision was reached, step by step.
    public var trace: [TraceStep]
    /// The ClearURLs provider whose `completeProvider` blocked the link (the decision is then
    /// `discard`), so the user can be told and offered to open it anyway.
    public var blockedBy: String? = nil
    /// True when the `ask` was forced (`openurl --ask`, `ask = true` in `Open`) rather than a rule's.
    public var askWasForced = false
}

/// One step of a decision's explanation.
public enum TraceStep: Sendable, Equatable {
    /// A hygiene or rewrite step changed the URL.
    case changed(step: String, url: String)
    /// A rule was tried: the matchers that held and the first that failed (nil when it matched).
    case rule(reference: Decision.RuleReference, held: [String], failed: String?, enabled: Bool)
    /// No rule matched; `[default]` (or the built-in `system`) applied.
    case defaultAction
    /// A webmail target produced a compose URL that was routed again.
    case webmail(name: String, url: String)
    /// The link was refused or could not be routed.
    case refused(String)
    /// A web link was converted for its native app (`zoom`), opened by the entry `app`.
    case appLink(name: String, url: String, app: String)

    /// One line of text for `openurl test`.
    public var text: String {
        switch self {
        case .changed(let step, let url): return "\(step): \(url)"
        case .rule(let reference, let held, let failed, let enabled):
            if !enabled { return "rule \(reference): disabled" }
            let heldText = held.isEmpty ? "" : " (held: \(held.joined(separator: ", ")))"
            if let failed { return "rule \(reference): no, \(failed) did not match\(heldText)" }
            return "rule \(reference): matched\(heldText)"
        case .defaultAction: return "no rule matched: [default]"
        case .webmail(let name, let url): return "webmail \(name): compose \(url), routed again"
        case .refused(let reason): return "refused: \(reason)"
        case .appLink(let name, let url, let app): return "app link \(name): \(url) in \(app)"
        }
    }
}

extension Array where Element == TraceStep {
    /// The URL of the last step that changed it.
    var lastURL: String? {
        for step in reversed() { if case .changed(_, let url) = step { return url } }
        return nil
    }
}

extension HygieneStep {
    /// How `openurl test` names the step: `unwrapped (via google)`, `cleaned [utm_source]`.
    var summary: String {
        switch self {
        case .unwrapped(_, _, let via): return "unwrapped (via \(via))"
        case .cleaned(let removed): return "cleaned [\(removed.joined(separator: ", "))]"
        case .clearURLs(let provider, let removed): return "clearurls \(provider) [\(removed.joined(separator: ", "))]"
        case .blocked(let provider): return "blocked by \(provider)"
        }
    }

    /// The URL after the step, where the step says.
    package var url: String? {
        if case .unwrapped(_, let to, _) = self { return to }
        return nil
    }
}

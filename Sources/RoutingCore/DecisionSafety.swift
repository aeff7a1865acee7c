import JSON
import LinkSafety
import URLModel

/// `[settings] safety` and a rule's `safety`: what an `open` or `copy` does with a link judged
/// `warn`. A link a block list names is held under every policy but `off`.
public enum SafetyPolicy: String, Sendable, Equatable, CaseIterable {
    /// Carry it out, with a notification naming what was found (the default).
    case warn
    /// Ask instead; the chooser and the notification say what was found.
    case ask
    /// Hold it, with a notification offering Open anyway.
    case block
    /// In `[settings]`: no checks at all. On a rule: the verdict is shown, never acted on.
    case off
}

/// What the safety policy did to a decision.
public enum SafetyAction: String, Sendable, Equatable {
    /// Nothing: the link is safe, the policy is `off`, or the decision does not open or copy.
    case none
    /// Carried out as decided, with a notification naming what was found.
    case notify
    /// Turned into an ask.
    case ask
    /// Held: nothing opened; the notification offers Open anyway.
    case hold
}

/// What the page or app that showed the link says about it: `Open`'s `context` option, or the
/// text around a link found by `openurl extract`.
public struct LinkContext: Sendable, Equatable {
    /// The text the link was shown as (Markdown or HTML link text, `text <url>`).
    public var linkText: String?
    /// The page or message the link was on.
    public var originURL: String?

    /// A context.
    public init(linkText: String? = nil, originURL: String? = nil) {
        self.linkText = linkText.flatMap { $0.isEmpty ? nil : $0 }
        self.originURL = originURL.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// A decision's safety: the verdict on the link, the policy in force for it, what the policy
/// did, and the host as it may be shown. Computed once per decision in `RuleEngine.decide`.
public struct DecisionSafety: Sendable, Equatable {
    /// The verdict (`safe` when `[settings] safety = "off"`).
    public var verdict: SafetyVerdict
    /// The policy that applied: the rule's `safety`, else `[settings] safety`.
    public var policy: SafetyPolicy
    /// What the policy did.
    public var action: SafetyAction
    /// The link's host as notifications and the chooser show it (ASCII for anything but a safe
    /// verdict, and whenever the IDN check is off); nil without a host (a mailto).
    public var shownHost: String?
    /// True when addresses and hosts may be shown in Unicode: the verdict is safe and the IDN
    /// check ran.
    public var showsUnicode: Bool
    /// What the caller said about the link.
    public var context: LinkContext?

    /// A safety.
    public init(verdict: SafetyVerdict, policy: SafetyPolicy, action: SafetyAction = .none, shownHost: String? = nil,
                showsUnicode: Bool = true, context: LinkContext? = nil) {
        self.verdict = verdict
        self.policy = policy
        self.action = action
        self.shownHost = shownHost
        self.showsUnicode = showsUnicode
        self.context = context
    }

    /// True when nothing was found (or nothing was checked).
    public var isSafe: Bool {
        // By pattern, not `==`: the synthesized comparison copied the verdict's payloads.
        if case .safe = verdict { return true }
        return false
    }
    /// True when a block list names the link.
    public var isBlockListed: Bool {
        if case .block = verdict { return true }
        return false
    }

    /// No checks ran (`safety = "off"`, or a decision made before any was).
    public static let unchecked = DecisionSafety(verdict: .safe, policy: .off)

    /// One line: "xn--pypal-4ve.com: looks like paypal.com, which your rule 'Pay' opens in
    /// firefox:Banking; its name mixes Latin and Cyrillic letters" (the domain imitated or named
    /// first, at most two reasons); nil when safe.
    public var summary: String? {
        let message: String
        switch verdict {
        case .safe: return nil
        case .block(let block): message = block.message
        case .warn(let reasons):
            let naming: Set<SafetyReason.Kind> = [.lookalikeDomain, .targetEmbedding, .linkTextMismatch, .misleadingUserinfo]
            let ordered = reasons.filter { naming.contains($0.kind) } + reasons.filter { !naming.contains($0.kind) }
            message = ordered.prefix(2).map(\.message).joined(separator: "; ")
        }
        return shownHost.map { "\($0): \(message)" } ?? message
    }

    /// The `safety` object of `openurl test --json` and `Explain`: the verdict's own object
    /// (`verdict`, `shown_host`, `shows_unicode`, `reasons` or `block`, `summary`), then `policy`, `action`, and the
    /// context's `link_text` and `origin_url` when given.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("verdict", .string(verdict.name))]
        if let shownHost { members.append(("shown_host", .string(shownHost))) }
        members.append(("shows_unicode", .bool(showsUnicode)))
        if case .object(let own) = verdict.json() { members += own.filter { $0.0 != "verdict" } }
        if let summary { members.append(("summary", .string(summary))) }
        members.append(("policy", .string(policy.rawValue)))
        members.append(("action", .string(action.rawValue)))
        if let text = context?.linkText { members.append(("link_text", .string(text))) }
        if let origin = context?.originURL { members.append(("origin_url", .string(origin))) }
        return .object(members)
    }

    /// The trace line: "safety: warn: xn--… looks like paypal.com…; safety = "ask": asked instead".
    public var text: String {
        var line = "safety: \(verdict.name)"
        if let summary { line += ": \(summary)" }
        if let text = context?.linkText { line += " (link text \(String(reflecting: String(text.prefix(80)))))" }
        switch action {
        case .none: if verdict != .safe, policy == .off { line += "; safety = \"off\": not acted on" }
        case .notify where policy != .warn && verdict.isLesser:
            line += "; carried out with a notification saying so (a lesser warning: safety = \"\(policy.rawValue)\" acts only on the others)"
        case .notify: line += "; carried out with a notification saying so (safety = \"\(policy.rawValue)\")"
        case .ask: line += "; asked instead (safety = \"ask\")"
        case .hold: line += "; held, with Open anyway (safety = \"\(policy.rawValue)\")"
        }
        return line
    }
}

import URLModel
import RoutingCore
import Catalog
import ConfigLanguage
import TOML

/// What the engine decides on: the link and what a rule may look at of its click.
public struct DecisionInput {
    /// The link as it was clicked.
    public var url: String
    /// The app the click came from, when known.
    public var opener: Opener?
    /// The facts of the click's moment the rules look at (`RuleEngine.momentNeeds`).
    public var moment: Moment
    /// Record every rule tried (slower: no index).
    public var explain: Bool
    /// Turn the decision into a question (`openurl --ask`, `Open` with `ask`).
    public var forceAsk: Bool
    /// The link's text and page, for the safety verdict.
    public var context: LinkContext?

    /// An input for `url`; the rest defaults to nothing known and nothing asked for.
    public init(_ url: String, opener: Opener? = nil, moment: Moment = Moment(), explain: Bool = false, forceAsk: Bool = false,
                context: LinkContext? = nil) {
        self.url = url
        self.opener = opener
        self.moment = moment
        self.explain = explain
        self.forceAsk = forceAsk
        self.context = context
    }
}

/// A decision in the making, handed from phase to phase: the link as it stands now, and what
/// each phase found for the next.
struct Deciding {
    var input: DecisionInput
    /// 0 for the click; more for a webmail's compose link decided again.
    let depth: Int
    /// The link as given, before hygiene.
    let parsed: ParsedURL
    /// The link as the phases so far have made it.
    var current: ParsedURL
    var decision: Decision
    /// The locked rule that decided, when one did (tried before the user's rewrites).
    var locked: Rule?
    var action: Intent
    var notify: Bool?
    var appLinks: AppLinkSetting
    var policy: SafetyPolicy
    /// A remembered answer stands for the question.
    var answered = false
    /// The rule had hygiene or the rewrites redone: `current` is no longer the match subject's link.
    var redone = false
}

extension RuleEngine {
    /// Decides for `input.url`; throws when it is not a URL.
    public func decide(_ input: DecisionInput) throws(URLParseError) -> Decision {
        let parsed = try ParsedURL(input.url)
        var trace: [TraceStep] = []
        if config.settings.shiftAsks, !input.forceAsk, input.explain, case .unknown(let why) = input.moment.modifiers {
            trace.append(.moment("shift_asks: which keys are held is unknown (\(why))"))
        }
        return decide(parsed: parsed, input: input, depth: 0, trace: trace)
    }

    /// Decides for `url`. `explain` records every rule tried (slower: no index); `forceAsk`
    /// turns the decision into a chooser; `context` (the link's text, its page) goes into the
    /// safety verdict. Throws when `url` is not a URL.
    /// `moment` holds the facts of the click's moment the rules look at (`momentNeeds`).
    public func decide(_ url: String, opener: Opener? = nil, moment: Moment = Moment(), explain: Bool = false, forceAsk: Bool = false,
                       context: LinkContext? = nil) throws(URLParseError) -> Decision {
        try decide(DecisionInput(url, opener: opener, moment: moment, explain: explain, forceAsk: forceAsk, context: context))
    }

    /// The phases, in order: clean, rewrite (and the locked rules), check the scheme and the
    /// address, choose the rule, take a remembered answer, and make the effect.
    func decide(parsed: ParsedURL, input: DecisionInput, depth: Int, trace: [TraceStep]) -> Decision {
        var state = Deciding(input: input, depth: depth, parsed: parsed, current: parsed,
                             decision: Decision(url: input.url, finalURL: parsed.string, effect: .discard, trace: trace),
                             action: config.defaultAction, notify: config.defaultNotify, appLinks: config.settings.appLinks,
                             policy: config.settings.safety)
        // Each phase works on `state` in place, and the decision is taken out of it once, at
        // the end: copying the input or the decision out per phase cost ~4k instructions a click.
        if depth == 0, let blocked = clean(&state) { return blocked }
        rewrite(&state)
        // What the rules match on: the link after the rewrites (before a rule's `clean = false`
        // redo), built once and lent to the phases that match.
        if let subject = checkSchemeAndAddress(&state) {
            chooseRule(&state, subject)
            takeRememberedAnswer(&state, subject)
            makeEffect(&state, subject)
        }
        // Moved out, not copied: a copy of the decision and the release of the state's were ~900
        // instructions a click.
        var decision = Decision(url: "", finalURL: "", effect: .discard)
        swap(&decision, &state.decision)
        return decision
    }

    /// Hygiene: unwraps and cleans the link; the decision when a ClearURLs rule blocks it.
    private func clean(_ state: inout Deciding) -> Decision? {
        switch applyHygiene(hygiene, to: state.parsed, trace: &state.decision.trace) {
        case .blocked(let provider):
            state.decision.trace.append(.refused("blocked by a ClearURLs rule (completeProvider); set clean = false to let it through"))
            var blocked = Decision(url: state.input.url, finalURL: state.decision.trace.lastURL ?? state.parsed.string,
                                   effect: .blocked(provider: provider), trace: state.decision.trace)
            blocked.safety = judge(state.parsed, context: state.input.context, policy: config.settings.safety)
            return blocked
        case .url(let cleaned):
            state.current = cleaned
            return nil
        }
    }

    /// The rewrites: locked rules see the link after the system's rewrites, before the user's.
    private func rewrite(_ state: inout Deciding) {
        state.current = applyRewrites(to: state.current, opener: state.input.opener, moment: state.input.moment,
                                      layers: lockedCount > 0 ? [.system] : nil, trace: &state.decision.trace)
        if lockedCount > 0 {
            state.locked = firstMatchingRule(MatchSubject(url: state.current, opener: state.input.opener, moment: state.input.moment),
                                             explain: state.input.explain, in: 0..<lockedCount, trace: &state.decision.trace)
            if state.locked == nil {
                state.current = applyRewrites(to: state.current, opener: state.input.opener, moment: state.input.moment,
                                              layers: [.user, .remembered], trace: &state.decision.trace)
            }
        }
        state.decision.finalURL = state.current.string
    }

    /// Refuses a scheme no rule routes, and an address holding a line break or another control:
    /// no rule (nor a forced ask) may hand either on. The subject the rules match, or nil when
    /// the decision is that refusal.
    private func checkSchemeAndAddress(_ state: inout Deciding) -> MatchSubject? {
        let scheme = state.current.scheme
        guard routedSchemes.contains(scheme) else {
            let reason = "scheme \"\(scheme)\" is not routed; to allow it, add a rule with match.scheme = \"\(scheme)\""
            state.decision.effect = .refused(reason)
            state.decision.trace.append(.refused(reason))
            if state.depth == 0 { state.decision.safety = judge(state.current, context: state.input.context, policy: config.settings.safety) }
            return nil
        }
        let subject = MatchSubject(url: state.current, opener: state.input.opener, moment: state.input.moment)
        if let problem = subject.mailto?.problem {
            refuse(problem, decision: &state.decision)
            return nil
        }
        if let repeated = subject.mailto?.repeatedFields, !repeated.isEmpty {
            // Said, so a mail that arrives with two bodies joined (or one subject of two) is no surprise.
            let said = repeated.map { $0 == "body" ? "the body= fields are joined, one per line" : "of the subject= fields the last stands" }
            state.decision.trace.append(.note("mailto gives " + repeated.map { "\($0)=" }.joined(separator: " and ") + " more than once: " + said.joined(separator: "; ")))
        }
        return subject
    }

    /// The first matching rule (a locked one already found stands), Shift's forced ask, and
    /// what the rule sets: its action, notification, app links and safety policy, and a
    /// less-cleaned link when it keeps tracking parameters or wrappers.
    private func chooseRule(_ state: inout Deciding, _ subject: borrowing MatchSubject) {
        let matched = state.locked ?? firstMatchingRule(subject, explain: state.input.explain, in: lockedCount..<config.rules.count,
                                                        trace: &state.decision.trace)
        // Shift asks, except when a locked rule decided: the system's choice is not asked about.
        if state.depth == 0, !state.input.forceAsk, state.locked == nil, shiftAsks(state.input.moment, rule: matched) {
            state.input.forceAsk = true
            state.decision.trace.append(.moment("shift is held and [settings] shift_asks = true: asking"))
        }
        guard let rule = matched else { return state.decision.trace.append(.defaultAction) }
        state.action = rule.action
        state.notify = rule.notify
        state.appLinks = rule.appLinks ?? state.appLinks
        if state.policy != .off, let own = rule.safety { state.policy = own }
        state.decision.rule = rule.name.map { .named($0) } ?? .index(rule.index)
        state.decision.ruleSource = rule.source
        if state.depth == 0, rule.clean == false || rule.unwrap == false {
            // The rule wants the link less cleaned: redo hygiene and rewrites without those steps.
            var redone: [TraceStep] = []
            if case .url(let kept) = applyHygiene(config.hygiene(clean: rule.clean, unwrap: rule.unwrap), to: state.parsed, trace: &redone) {
                state.current = applyRewrites(to: kept, opener: state.input.opener, moment: state.input.moment,
                                              layers: rule.source.locked ? [.system] : nil, trace: &redone)
                state.redone = true
                state.decision.finalURL = state.current.string
                state.decision.trace.append(.changed(step: "rule \(rule.label) keeps \(rule.clean == false ? "tracking parameters" : "redirect wrappers")",
                                                     url: state.current.string))
            }
        }
    }

    /// `[settings] shift_asks` and Shift held: ask, unless the rule that decided looks at the
    /// keys itself (`match.modifiers`), which then wins over the built-in default.
    private func shiftAsks(_ moment: Moment, rule: Rule?) -> Bool {
        guard config.settings.shiftAsks, moment.modifiers.value?.contains(.shift) == true else { return false }
        return !(rule?.matchers.contains { $0.needs.contains(.modifiers) } ?? false)
    }

    /// A remembered answer is the answer to a question: it applies only where the decision
    /// would have been to ask (the asking rule, `[default] ask`, a forced ask), never before
    /// another rule. A rule the system configuration locked is never answered for the user.
    private func takeRememberedAnswer(_ state: inout Deciding, _ subject: borrowing MatchSubject) {
        guard state.locked == nil, state.action.kind == .ask || state.input.forceAsk, let answer = rememberedAnswer(for: subject) else { return }
        let location = "\(config.rememberedPath ?? RememberedRules.fileName):\(answer.position.line)"
        state.decision.trace.append(.remembered(rule: answer.label, location: location, asked: state.decision.rule))
        state.action = answer.action
        state.notify = answer.notify
        state.decision.rule = .named(answer.label)
        state.answered = true
    }

    /// The effect: a forced ask's question, or the action carried to its target (a native app
    /// for a web link when one is installed), with the safety verdict on the link as it will be
    /// opened, before a webmail or app conversion.
    private func makeEffect(_ state: inout Deciding, _ subject: borrowing MatchSubject) {
        let judged = state.depth == 0
            ? judge(state.current, context: state.input.context, policy: state.policy, mailto: state.redone ? nil : subject.mailto) : nil
        let traceIndex = state.decision.trace.count
        let scheme = state.current.scheme
        // A forced ask of a rule that already asks keeps the rule's question; a locked rule is not asked about.
        if state.input.forceAsk, let locked = state.locked {
            state.decision.trace.append(.note("rule \(locked.label) is locked by the system configuration: it decides, whatever --ask says"))
        } else if state.input.forceAsk, !state.answered, state.action.kind != .ask {
            state.decision.notify = state.notify ?? false
            state.decision.effect = .ask(offeredChoices(asked: [], forcedFrom: state.action, scheme: scheme), forced: true)
            if let judged { applySafety(judged, to: &state.decision, action: state.action, scheme: scheme, traceIndex: traceIndex) }
            return
        }
        state.decision.notify = state.notify ?? (state.action.kind == .copy)
        apply(state.action, url: state.current, decision: &state.decision, opener: state.input.opener, moment: state.input.moment,
              explain: state.input.explain, depth: state.depth)
        if case .open = state.decision.effect { openInNativeApp(state.appLinks, url: state.current, decision: &state.decision) }
        if let judged { applySafety(judged, to: &state.decision, action: state.action, scheme: scheme, traceIndex: traceIndex) }
    }
}

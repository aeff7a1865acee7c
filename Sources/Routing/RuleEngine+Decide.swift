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
    public func decide(_ input: consuming DecisionInput) throws(URLParseError) -> Decision {
        let parsed = try ParsedURL(input.url)
        var trace: [TraceStep] = []
        // A click's trace holds a few steps (hygiene, the rule, the verdict): grown one at a
        // time it was reallocated two or three times a click.
        trace.reserveCapacity(4)
        if config.settings.shiftAsks, !input.forceAsk, input.explain, case .unknown(let why) = input.moment.modifiers {
            trace.append(.moment("shift_asks: which keys are held is unknown (\(why))"))
        }
        return decide(parsed: parsed, input: input, depth: 0, trace: consume trace)
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
    /// `input` and `trace` are taken, not borrowed: a borrowed trace stored in the decision was
    /// shared with the caller's, so the first step appended copied it, and the input was copied
    /// into the state (~800 instructions a click together).
    func decide(parsed: ParsedURL, input: consuming DecisionInput, depth: Int, trace: consuming [TraceStep]) -> Decision {
        // The decision is a local of its own, beside the state, each phase working on both in
        // place: held inside the state, it was copied in and swapped out (a copy and a release
        // of the whole decision each way, ~1.2k instructions a click).
        var decision = Decision(url: input.url, finalURL: parsed.string, effect: .discard, trace: consume trace)
        var state = Deciding(input: input, depth: depth, parsed: parsed, current: parsed,
                             action: config.defaultAction, notify: config.defaultNotify, appLinks: config.settings.appLinks,
                             policy: config.settings.safety)
        if depth == 0, !clean(&state, &decision) { return consume decision }
        rewrite(&state, &decision)
        // What the rules match on: the link after the rewrites (before a rule's `clean = false`
        // redo), built once and lent to the phases that match.
        // Not an Optional subject: its release went through Optional's generic witness (~350
        // instructions a click).
        if checkScheme(&state, &decision) {
            let subject = MatchSubject(url: state.current, opener: state.input.opener, moment: state.input.moment)
            if checkAddress(subject, &decision) {
                chooseRule(&state, &decision, subject)
                takeRememberedAnswer(&state, &decision, subject)
                makeEffect(&state, &decision, subject)
            }
        }
        // Moved out: returned as is, it was copied and the local released (~550 instructions).
        return consume decision
    }

    /// Hygiene: unwraps and cleans the link. False when a ClearURLs rule blocks it: the decision
    /// (still as `decide` made it, but for the trace) is then that block. Made in place: a
    /// decision returned from here, as an Optional, made `decide` copy its own (~550 instructions).
    private func clean(_ state: inout Deciding, _ decision: inout Decision) -> Bool {
        switch applyHygiene(hygiene, to: state.parsed, trace: &decision.trace) {
        case .blocked(let provider):
            decision.trace.append(.refused("blocked by a ClearURLs rule (completeProvider); set clean = false to let it through"))
            decision.finalURL = decision.trace.lastURL ?? state.parsed.string
            decision.effect = .blocked(provider: provider)
            decision.safety = judge(state.parsed, context: state.input.context, policy: config.settings.safety)
            return false
        case .url(let cleaned):
            state.current = cleaned
            return true
        }
    }

    /// The rewrites: locked rules see the link after the system's rewrites, before the user's.
    private func rewrite(_ state: inout Deciding, _ decision: inout Decision) {
        state.current = applyRewrites(to: state.current, opener: state.input.opener, moment: state.input.moment,
                                      layers: lockedCount > 0 ? [.system] : nil, trace: &decision.trace)
        if lockedCount > 0 {
            state.locked = firstMatchingRule(MatchSubject(url: state.current, opener: state.input.opener, moment: state.input.moment),
                                             explain: state.input.explain, in: 0..<lockedCount, trace: &decision.trace)
            if state.locked == nil {
                state.current = applyRewrites(to: state.current, opener: state.input.opener, moment: state.input.moment,
                                              layers: [.user, .remembered], trace: &decision.trace)
            }
        }
        decision.finalURL = state.current.string
    }

    /// Refuses a scheme no rule routes: no rule (nor a forced ask) may hand it on. False when
    /// the decision is that refusal.
    private func checkScheme(_ state: inout Deciding, _ decision: inout Decision) -> Bool {
        let scheme = state.current.scheme
        // The three default schemes by comparison, before the Set's hash (~300 instructions).
        guard scheme == "https" || scheme == "http" || scheme == "mailto" || routedSchemes.contains(scheme) else {
            let reason = "scheme \"\(scheme)\" is not routed; to allow it, add a rule with match.scheme = \"\(scheme)\""
            decision.effect = .refused(reason)
            decision.trace.append(.refused(reason))
            if state.depth == 0 { decision.safety = judge(state.current, context: state.input.context, policy: config.settings.safety) }
            return false
        }
        return true
    }

    /// Refuses a mailto address holding a line break or another control, as it refuses an
    /// unrouted scheme; says when a mailto repeats a field. False when the decision is that refusal.
    private func checkAddress(_ subject: borrowing MatchSubject, _ decision: inout Decision) -> Bool {
        if let problem = subject.mailto?.problem {
            refuse(problem, decision: &decision)
            return false
        }
        if let repeated = subject.mailto?.repeatedFields, !repeated.isEmpty {
            // Said, so a mail that arrives with two bodies joined (or one subject of two) is no surprise.
            let said = repeated.map { $0 == "body" ? "the body= fields are joined, one per line" : "of the subject= fields the last stands" }
            decision.trace.append(.note("mailto gives " + repeated.map { "\($0)=" }.joined(separator: " and ") + " more than once: " + said.joined(separator: "; ")))
        }
        return true
    }

    /// The first matching rule (a locked one already found stands), Shift's forced ask, and
    /// what the rule sets: its action, notification, app links and safety policy, and a
    /// less-cleaned link when it keeps tracking parameters or wrappers.
    private func chooseRule(_ state: inout Deciding, _ decision: inout Decision, _ subject: borrowing MatchSubject) {
        let matched = state.locked ?? firstMatchingRule(subject, explain: state.input.explain, in: lockedCount..<config.rules.count,
                                                        trace: &decision.trace)
        // Shift asks, except when a locked rule decided: the system's choice is not asked about.
        if state.depth == 0, !state.input.forceAsk, state.locked == nil, shiftAsks(state.input.moment, rule: matched) {
            state.input.forceAsk = true
            decision.trace.append(.moment("shift is held and [settings] shift_asks = true: asking"))
        }
        guard let rule = matched else { return decision.trace.append(.defaultAction) }
        state.action = rule.action
        state.notify = rule.notify
        state.appLinks = rule.appLinks ?? state.appLinks
        if state.policy != .off, let own = rule.safety { state.policy = own }
        decision.rule = rule.name.map { .named($0) } ?? .index(rule.index)
        decision.ruleSource = rule.source
        if state.depth == 0, rule.clean == false || rule.unwrap == false {
            // The rule wants the link less cleaned: redo hygiene and rewrites without those steps.
            var redone: [TraceStep] = []
            if case .url(let kept) = applyHygiene(config.hygiene(clean: rule.clean, unwrap: rule.unwrap), to: state.parsed, trace: &redone) {
                state.current = applyRewrites(to: kept, opener: state.input.opener, moment: state.input.moment,
                                              layers: rule.source.locked ? [.system] : nil, trace: &redone)
                state.redone = true
                decision.finalURL = state.current.string
                decision.trace.append(.changed(step: "rule \(rule.label) keeps \(rule.clean == false ? "tracking parameters" : "redirect wrappers")",
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
    private func takeRememberedAnswer(_ state: inout Deciding, _ decision: inout Decision, _ subject: borrowing MatchSubject) {
        guard state.locked == nil, state.action.kind == .ask || state.input.forceAsk, let answer = rememberedAnswer(for: subject) else { return }
        let location = "\(config.rememberedPath ?? RememberedRules.fileName):\(answer.position.line)"
        decision.trace.append(.remembered(rule: answer.label, location: location, asked: decision.rule))
        state.action = answer.action
        state.notify = answer.notify
        decision.rule = .named(answer.label)
        state.answered = true
    }

    /// The effect: a forced ask's question, or the action carried to its target (a native app
    /// for a web link when one is installed), with the safety verdict on the link as it will be
    /// opened, before a webmail or app conversion.
    private func makeEffect(_ state: inout Deciding, _ decision: inout Decision, _ subject: borrowing MatchSubject) {
        let traceIndex = decision.trace.count
        let scheme = state.current.scheme
        // A forced ask of a rule that already asks keeps the rule's question; a locked rule is not asked about.
        if state.input.forceAsk, let locked = state.locked {
            decision.trace.append(.note("rule \(locked.label) is locked by the system configuration: it decides, whatever --ask says"))
        } else if state.input.forceAsk, !state.answered, state.action.kind != .ask {
            decision.notify = state.notify ?? false
            decision.effect = .ask(offeredChoices(asked: [], forcedFrom: state.action, scheme: scheme), forced: true)
            judgeSafety(state, &decision, subject, traceIndex: traceIndex)
            return
        }
        decision.notify = state.notify ?? (state.action.kind == .copy)
        apply(state.action, url: state.current, decision: &decision, opener: state.input.opener, moment: state.input.moment,
              explain: state.input.explain, depth: state.depth)
        if case .open = decision.effect { openInNativeApp(state.appLinks, url: state.current, decision: &decision) }
        judgeSafety(state, &decision, subject, traceIndex: traceIndex)
    }

    /// The safety verdict, for the click itself (not a webmail's compose link decided again),
    /// on the link as it will be opened: `state.current`, before a webmail or app conversion
    /// (which `apply` makes in the decision only). Judged here, not into an Optional at the
    /// start: its release went through Optional's generic witness (~200 instructions a click).
    private func judgeSafety(_ state: borrowing Deciding, _ decision: inout Decision, _ subject: borrowing MatchSubject, traceIndex: Int) {
        guard state.depth == 0 else { return }
        // Assigned straight from the call, not through a local handed on: that cost three
        // copies and releases of the safety (~600 instructions a click).
        decision.safety = judge(state.current, context: state.input.context, policy: state.policy, mailto: state.redone ? nil : subject.mailto)
        applySafety(to: &decision, action: state.action, scheme: state.current.scheme, traceIndex: traceIndex)
    }
}

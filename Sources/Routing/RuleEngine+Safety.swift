import LinkSafety
import URLModel
import RoutingCore
import ConfigLanguage

/// The safety verdict in a decision: judged once per decision on the link as it will be opened,
/// then the policy (`[settings] safety`, a rule's `safety`) applied to what the rule does.
extension RuleEngine {
    /// The verdict on `url` with what to show of its host; `policy` is the one in force.
    func judge(_ url: ParsedURL, context: LinkContext?, policy: SafetyPolicy, mailto: MailtoURL? = nil) -> DecisionSafety {
        let verdict = safety.verdict(for: url, linkText: context?.linkText, mailto: mailto)
        // By pattern, not `==`: the synthesized comparison copied the verdict's payloads.
        var isSafe = false
        if case .safe = verdict { isSafe = true }
        var shown = url.host.isEmpty ? nil : safety.shownHost(of: url, verdict: verdict)
        if !isSafe, url.scheme == "mailto" { shown = warnedAddresses(of: url) }
        return DecisionSafety(verdict: verdict, policy: policy, shownHost: shown, showsUnicode: safety.checks.idn && isSafe, context: context)
    }

    /// The recipients of a mailto the checks warn about, in ASCII form, so every mail warning
    /// names the address ("billing@paypa1.com: looks like paypal.com"); each is judged alone,
    /// which costs only when the link is warned about. Nil when none is found alone (the
    /// verdict came from the link as a whole).
    private func warnedAddresses(of url: ParsedURL) -> String? {
        let named = MailtoURL(url).addresses.filter { address in
            guard let single = try? ParsedURL("mailto:" + PercentEncoding.encode(address.ascii)) else { return false }
            return safety.verdict(for: single, linkText: nil) != .safe
        }.map(\.ascii)
        return named.isEmpty ? nil : named.joined(separator: ", ")
    }

    /// The verdict on `finalURL` as shown with a question asked again (after a restart): judged
    /// with the checks and policy in force, without the link text it first came with; a URL
    /// that no longer parses is unchecked.
    public func judgedAgain(_ finalURL: String) -> DecisionSafety {
        guard let url = try? ParsedURL(finalURL) else { return .unchecked }
        return judge(url, context: nil, policy: config.settings.safety)
    }

    /// Applies the decision's judged safety to it: a block-listed link that would open, copy or
    /// ask is held; a `warn` on an open or copy is carried out with a notification, asked about,
    /// or held, as the policy says. The trace gets the verdict where the rule decided (`traceIndex`).
    func applySafety(to decision: inout Decision, action: Intent, scheme: String, traceIndex: Int) {
        // Worked on in the decision, and the effect looked at in place: a local copy of the
        // verdict, and a tuple of the two for one switch, cost a copy and a release of each
        // (~1k instructions a click for a safe link).
        if !decision.safety.isSafe {
            let acts = decision.safety.policy != .off
            let opens: Bool, copies: Bool, asks: Bool
            switch decision.effect {
            case .open: (opens, copies, asks) = (true, false, false)
            case .copy: (opens, copies, asks) = (false, true, false)
            case .ask: (opens, copies, asks) = (false, false, true)
            default: (opens, copies, asks) = (false, false, false)
            }
            let verdict = decision.safety.verdict
            switch verdict {
            case .block where opens || copies || asks:
                if acts {
                    decision.effect = .held(decision.effect)
                    decision.safety.action = .hold
                }
            case .warn where (opens || copies) && verdict.isLesser:
                if acts { decision.safety.action = .notify }
            case .warn where opens || copies:
                switch decision.safety.policy {
                case .warn: decision.safety.action = .notify
                case .ask:
                    decision.effect = .ask(safetyChoices(for: action, scheme: scheme), forced: false)
                    decision.safety.action = .ask
                case .block:
                    decision.effect = .held(decision.effect)
                    decision.safety.action = .hold
                case .off: break
                }
            default:
                break
            }
        }
        // With `[settings] safety = "off"` nothing was checked: the trace says nothing.
        if config.settings.safety != .off {
            // Appended when it goes last, as it mostly does: `insert` took a generic path (~700 instructions).
            let step = TraceStep.safety(decision.safety)
            if traceIndex >= decision.trace.count { decision.trace.append(step) } else { decision.trace.insert(step, at: traceIndex) }
        }
    }

    /// What a warned link's ask offers: what the rule would have done first, then what a forced
    /// ask offers.
    private func safetyChoices(for action: Intent, scheme: String) -> [Choice] {
        var choices = offeredChoices(asked: [], forcedFrom: action, scheme: scheme)
        if case .copy = action, let copy = choices.firstIndex(where: { $0.action == .copy }) {
            choices.insert(choices.remove(at: copy), at: 0)
        }
        return choices
    }

    /// Adds the registrable domains of `hosts` (ASCII; sites the user opened) to the known
    /// domains, "which you opened recently", leaving out any the IDN rules flag or that looks
    /// like a domain already known (a look-alike once opened must not make the real site look
    /// like it). Returns the domains added; costs a skeleton and a few hash look-ups each.
    @discardableResult
    public mutating func addVisited(hosts: [String]) -> [String] {
        guard safety.checks.lookalikes else { return [] }
        var added: [String] = []
        for host in hosts where !host.isEmpty {
            let domain = safety.registrableDomain(of: host) ?? host
            guard !safety.knownDomains.contains(domain), safety.trusts(host: domain, unicodeHost: Punycode.toUnicode(host: domain)),
                  safety.knownDomains.add(KnownDomain(domain: domain, description: "you opened recently")) else { continue }
            added.append(domain)
        }
        return added
    }
}

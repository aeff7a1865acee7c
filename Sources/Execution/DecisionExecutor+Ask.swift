import Records
import ConfigFiles
import DBus
import Notifying
import Platform
import URLModel
import RoutingCore
import ConfigLanguage
import Routing

/// Asking: the question goes out the ways the settings name, each answer is carried out and
/// recorded under the click's id, and a "Remember" answer becomes a rule. In the daemon the
/// question is also recorded as pending (`PendingAsks`) before it is shown, until its first
/// answer, so a daemon that stops does not lose it.
extension DecisionExecutor {
    /// Puts `decision`'s choices to the user; answers are carried out as they come. The time
    /// to answer (`ask_timeout`) counts from the click's arrival on the monotonic clock (for a
    /// click from before a restart, its wall time's age, a time in the future being now).
    func ask(_ decision: Decision, click: Click, id: UInt32?) {
        let click = click.stamped(on: session.clock)
        let settings = engine.config.settings
        // The window and the picker go on the click's display when this process has none.
        var environment = session.environment
        for (name, value) in click.environment { environment[name] = value }
        let picker = settings.picker.map { Picker(argv: $0, environment: environment, timeout: Double(settings.askTimeout)) }
        let chooser = session.staysForAnswers ? self.chooser : nil
        let asker = Asker(notifications: session.staysForAnswers ? notices.notifications : nil, picker: picker, chooser: chooser,
                          order: settings.askOrder, environment: environment, loop: session.loop) { Log.warning($0) }
        let request = AskRequest(decision: decision, activationToken: click.activationToken, opener: click.opener?.names.first,
                                 environment: click.environment, expires: (click.arrived ?? session.clock.elapsed()) + Double(settings.askTimeout), clock: session.clock)
        let pendingID = session.staysForAnswers ? id.flatMap { $0 == 0 ? nil : $0 } : nil
        if let pendingID {
            pending?.add(PendingAsk(id: pendingID, time: click.time, decision: decision, opener: click.opener?.names.first,
                                    environment: click.environment))
        }
        var answered = false
        asker.ask(request, shownAsNotification: { [weak self] notification in
            if let pendingID { self?.pending?.shown(id: pendingID, notification: notification) }
        }) { [weak self] answer in
            guard let self else { return }
            let followUp = answered
            answered = true
            if let pendingID, !followUp { self.pending?.resolve(id: pendingID) }
            switch answer {
            case .chosen(let choice, let editedURL, let remember, _):
                let token = followUp ? nil : click.activationToken
                self.carryOut(choice.action, for: decision, editedURL: editedURL, activationToken: token, environment: click.environment) { chosen, outcome in
                    self.recordAnswer(chosen, outcome: outcome, id: id, click: click, followUp: followUp)
                    if let remember { self.remember(remember, choice: choice.action) }
                }
            case .cancelled:
                // Closing a window after a Ctrl+Enter choice is not a cancel of what was opened.
                if !followUp { self.recordAnswer(decision, outcome: .cancelled, id: id, click: click, followUp: false) }
            case .expired:
                guard !followUp else { return }
                self.recordAnswer(decision, outcome: .expired, id: id, click: click, followUp: false)
                self.tellUnanswered(decision, click: click, id: id, reason: .noAnswer)
            case .unavailable(let why):
                // Never a silent drop: open the first target offered (else the first choice) and say so.
                guard let choice = Self.fallbackChoice(decision) else {
                    return self.recordAnswer(decision, outcome: .failed("cannot ask: \(why)"), id: id, click: click, followUp: false)
                }
                self.carryOut(choice.action, for: decision, editedURL: nil, activationToken: click.activationToken, environment: click.environment) { chosen, outcome in
                    if outcome == .done { self.notices.unasked(chosen, reason: why, label: self.label(chosen)) }
                    self.recordAnswer(chosen, outcome: outcome, id: id, click: click, followUp: false)
                }
            }
        }
    }

    /// What a question becomes when nobody answers it: the first target offered, else the first choice.
    static func fallbackChoice(_ decision: Decision) -> Choice? {
        let choices = decision.choices
        return choices.first(where: { if case .open = $0.action { return true } else { return false } }) ?? choices.first
    }

    /// Carries out one answer to `asked`; an edited URL must still be a URL of a routed scheme.
    func carryOut(_ choice: Choice.Action, for asked: Decision, editedURL: String?, activationToken: String?,
                          environment: [String: String], completion: @escaping (Decision, Outcome) -> Void) {
        var url = asked.finalURL
        if let editedURL, editedURL != url {
            guard let parsed = try? ParsedURL(editedURL), engine.allowedSchemes.contains(parsed.scheme) else {
                let message = "the edited link \(String(reflecting: String(editedURL.prefix(200)))) is not an http, https or mailto URL (or another routed scheme); nothing opened"
                notices.failed(message, decision: nil, label: "")
                return completion(asked, .failed(message))
            }
            url = parsed.string
        }
        do {
            var chosen = try engine.decide(choice: choice, for: url)
            chosen.url = asked.url
            chosen.rule = asked.rule
            perform(chosen, click: Click(activationToken: activationToken, environment: environment), id: nil) { completion(chosen, $0) }
        } catch {
            completion(asked, .failed("\(error)"))
        }
    }

    /// Settles what became of a question: the click's own entry, or a new one for a second
    /// choice from a window kept open with Ctrl+Enter.
    func recordAnswer(_ decision: Decision, outcome: Outcome, id: UInt32?, click: Click, followUp: Bool) {
        guard session.staysForAnswers else { return }
        settle(decision, outcome, click: click, id: followUp ? nil : id ?? 0, event: "ask answered")
    }

    /// Writes "Remember for …" as a rule, and reloads so the very next click follows it.
    private func remember(_ request: RememberRequest, choice: Choice.Action) {
        guard session.staysForAnswers else { return }
        do {
            let name = try rules.remember(request, choice: choice)
            Log.info("remembered \(choice) as rule \"\(name)\" in \(ConfigFile.rememberedPath(besides: rules.configPath))")
        } catch {
            notices.failed("could not remember the choice: \(error)", decision: nil, label: "")
        }
    }
}

import Records
import Platform
import Notifying
import RoutingCore
import ConfigLanguage
import Routing

/// Questions that outlive their asking: the ones a stopped daemon left (asked again, or past
/// `ask_timeout` recorded `interrupted`), the ones this daemon leaves when it stops, and the
/// notification that offers **Open** and **Ask again** for those nobody answered.
extension DecisionExecutor {
    /// Asks again what a previous daemon left unanswered in the pending file: a question still
    /// within `ask_timeout` of its click is put again (its prompt, if a notification, closed
    /// first), under its own id; an older one is recorded `interrupted` and offered in one
    /// notification. Call once, on the loop, when this daemon owns the bus name.
    public func resumePendingAsks() {
        guard session.staysForAnswers, let pending else { return }
        let config = engine.config
        // A click the wall clock puts in the future (it was set back since) counts as now: its
        // question gets `ask_timeout` from this resume, not the hour the clock went back.
        let now = session.clock.now()
        let asks = pending.load(now: now) { key in Self.choice(key, in: config) }
        guard !asks.isEmpty else { return }
        let timeout = Double(config.settings.askTimeout)
        for var ask in asks {
            // The verdict is not kept in the pending file: the window and notification show the
            // one the checks in force give now (the first click's link text is not kept).
            ask.decision.safety = engine.judgedAgain(ask.decision.finalURL)
            if let notification = ask.notification { notices.notifications?.dismiss(id: notification) }
            let click = Click(opener: Self.opener(named: ask.opener), environment: ask.environment, time: ask.time)
            guard !ask.decision.choices.isEmpty else {
                pending.resolve(id: ask.id)
                recordAnswer(ask.decision, outcome: .failed("none of its choices resolves with the rules in force"), id: ask.id, click: click, followUp: false)
                continue
            }
            if session.clock.age(ofWallTime: ask.time) >= timeout {
                pending.resolve(id: ask.id)
                settle(ask.decision, .interrupted, click: click, id: ask.id, event: "ask interrupted (openurld stopped before it was answered, \(Int(timeout)) s ago or more)")
                tellUnanswered(ask.decision, click: click, id: ask.id, reason: .interrupted, show: false)
            } else {
                settle(ask.decision, .asking, click: click, id: ask.id, event: "asking again (openurld stopped before it was answered)")
                Log.info("asking #\(ask.id) again")
                self.ask(ask.decision, click: click, id: ask.id)
            }
        }
        showUnanswered()
    }

    /// The daemon is stopping: each question still waiting is recorded `interrupted` (the next
    /// daemon finds it in the pending file and asks again, or offers it), its notification is
    /// closed (its buttons would reach nobody) and the chooser window goes.
    public func interruptPendingAsks() {
        guard session.staysForAnswers, let pending else { return }
        for ask in pending.all {
            settle(ask.decision, .interrupted, click: Click(), id: ask.id, event: "ask interrupted (openurld is stopping)")
            if let notification = ask.notification { notices.notifications?.dismiss(id: notification) }
        }
        if !pending.all.isEmpty { Log.info("stopping with \(pending.all.count) question(s) unanswered; the next openurld asks again") }
        chooserIfStarted?.shutDown()
        record?.save()
    }

    /// Adds a link nobody answered for to the one "Link not opened" notification (low urgency),
    /// whose **Open** sends each link to the first target its question offered and whose
    /// **Ask again** asks each again, under its own id, with a new `ask_timeout`.
    func tellUnanswered(_ decision: Decision, click: Click, id: UInt32?, reason: NotificationText.Unanswered, show: Bool = true) {
        guard session.staysForAnswers else { return }
        unanswered.links.append(UnansweredLinks.Link(decision: decision, click: click, id: id))
        unanswered.reasons.insert(reason)
        if show { showUnanswered() }
    }

    /// Shows (or replaces) the "Link not opened" notification with every link it holds.
    private func showUnanswered() {
        guard !unanswered.links.isEmpty else { return }
        let request = NotificationText.unanswered(unanswered.links.map(\.decision.finalURL), reasons: unanswered.reasons)
        notices.show(request, kind: .unanswered, onAction: { [weak self] key in self?.unansweredAction(key) },
                     onClose: { [weak self] _ in self?.unanswered.clear() })
    }

    private func unansweredAction(_ key: String) {
        guard key == NotificationText.openActionKey || key == NotificationText.askAgainActionKey else { return }
        let links = unanswered.links
        unanswered.clear()
        notices.close(.unanswered)
        for link in links {
            if key == NotificationText.askAgainActionKey {
                settle(link.decision, .asking, click: link.click, id: link.id ?? 0, event: "asking again")
                ask(link.decision, click: Click(opener: link.click.opener, environment: link.click.environment), id: link.id)
            } else if let choice = Self.fallbackChoice(link.decision) {
                carryOut(choice.action, for: link.decision, editedURL: nil, activationToken: nil, environment: link.click.environment) { chosen, outcome in
                    self.recordAnswer(chosen, outcome: outcome, id: link.id, click: link.click, followUp: false)
                }
            }
        }
    }

    /// A choice's key as the pending file keeps it (`firefox.desktop`, `work`, `copy`), resolved
    /// with `config`.
    static func choice(_ key: String, in config: Config) -> Choice.Action? {
        switch key {
        case "copy": return .copy
        case "discard": return .discard
        default: return Target(key, in: config).map(Choice.Action.open)
        }
    }

    /// An opener known only by the name the pending file kept.
    static func opener(named name: String?) -> Opener? {
        guard let name, !name.isEmpty else { return nil }
        return name.hasSuffix(".desktop") ? Opener(desktopID: name) : Opener(processName: name)
    }
}

/// The links of the "Link not opened" notification on screen, and why.
final class UnansweredLinks {
    /// One link and the click it came from.
    struct Link {
        var decision: Decision
        var click: Click
        var id: UInt32?
    }

    /// The links, oldest first.
    var links: [Link] = []
    /// Why they were not opened.
    var reasons: Set<NotificationText.Unanswered> = []

    /// The notification went: start afresh.
    func clear() {
        links = []
        reasons = []
    }
}

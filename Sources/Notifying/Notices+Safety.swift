import Platform
import RoutingCore

/// What the user is told about a link's safety verdict.
extension Notices {
    /// A link judged `warn` was carried out (`safety = "warn"`): the notification names what
    /// was found, the host in ASCII.
    public func warned(_ decision: Decision, label: String) {
        let found = decision.safety.summary ?? "may mislead"
        say(.warning, "\(decision.kind.rawValue) despite a safety warning: \(found)")
        show(NotificationText.warned(decision, label: label), kind: .safety)
    }

    /// A link was held (`safety = "block"`, or a block list names it): the notification offers
    /// Open anyway, which calls `openAnyway` (only in a session that stays for answers).
    public func held(_ decision: Decision, label: String, openAnyway: @escaping () -> Void) {
        say(.warning, "held \(Log.shown(decision.finalURL)): \(decision.safety.summary ?? "safety") (nothing opened)")
        show(NotificationText.held(decision, label: label, openAnyway: staysForAnswers), kind: .safety) { key in
            if key == NotificationText.openAnywayActionKey { openAnyway() }
        }
    }
}

import URLModel
import RoutingCore

/// What the notifications about a link's safety say: the host always in the form that cannot
/// mislead (ASCII), in the title and the body.
extension NotificationText {
    /// A link judged `warn` and carried out anyway (`safety = "warn"`): where it went, what was found.
    public static func warned(_ decision: Decision, label: String) -> NotificationRequest {
        let place = decision.safety.shownHost ?? "a mail address"
        let what = decision.kind == .copy ? "Copied a link to \(place)" : "Opened \(place) in \(label)"
        return NotificationRequest(
            summary: "Careful: \(what)", body: (decision.safety.summary ?? "this link may mislead") + "\n" + shortened(decision.finalURL),
            urgency: .critical, icon: NotificationClient.Icon.error)
    }

    /// A link held by the safety policy: what was found, that nothing happened, and "Open anyway"
    /// (which opens or copies it as decided); without `openAnyway` (nobody stays to hear the
    /// button: embedded mode) only the link, so it is not lost.
    public static func held(_ decision: Decision, label: String, openAnyway: Bool = true) -> NotificationRequest {
        let place = decision.safety.shownHost ?? "a mail address"
        let listed = decision.safety.isBlockListed
        let then: String
        switch decision.underlyingEffect {
        case .copy: then = "Open anyway copies it."
        case .ask: then = "Open anyway asks where to open it."
        default: then = "Open anyway opens it in \(label)."
        }
        guard openAnyway else {
            return NotificationRequest(
                summary: listed ? "Link held: \(place) is on a block list" : "Link held: \(place) may mislead",
                body: (decision.safety.summary ?? "this link may mislead") + "\nNothing was opened.\n" + shortened(decision.finalURL),
                urgency: .critical, icon: NotificationClient.Icon.error)
        }
        return NotificationRequest(
            summary: listed ? "Link held: \(place) is on a block list" : "Link held: \(place) may mislead",
            body: (decision.safety.summary ?? "this link may mislead") + "\nNothing was opened. \(then)\n" + shortened(decision.finalURL),
            actions: [(key: openAnywayActionKey, label: "Open anyway")], urgency: .critical, icon: NotificationClient.Icon.error)
    }
}

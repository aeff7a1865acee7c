import ConfigFiles
import Platform
import Notifying
import URLModel
import RoutingCore

/// The safety verdict carried out: a held link waits for Open anyway, and a site opened safely
/// joins the known domains.
extension DecisionExecutor {
    /// Holds `decision`: nothing happens until the user picks Open anyway on the notification,
    /// which carries out what was held and records it under the click's `id`.
    func hold(_ decision: Decision, click: Click, id: UInt32?) {
        let released = decision.releasingHold()
        notices.held(decision, label: label(decision)) { [weak self] in
            guard let self else { return }
            self.carryOutLater(released, click: Click(environment: click.environment), id: id, event: "opened anyway from a notification")
        }
    }

    /// A site the user opened (safe, carried out) becomes a known domain: a later look-alike of
    /// it is a `warn` ("looks like example.org, which you opened recently").
    func noteVisited(_ decision: Decision) {
        guard decision.safety.isSafe, decision.kind == .open || decision.kind == .system,
              let url = try? ParsedURL(decision.finalURL), !url.host.isEmpty else { return }
        rules.noteVisited(hosts: [url.matchingHost])
    }
}

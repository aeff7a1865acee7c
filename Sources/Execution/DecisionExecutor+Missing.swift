import Platform
import Notifying
import URLModel
import RoutingCore
import Routing

/// A link whose target is not installed: the user is offered what is.
extension DecisionExecutor {
    /// Shows why `decision` was refused (its target is not installed) with a button for the
    /// previous default handler and each installed app for the link's scheme; a button carries
    /// the link there and the click's record (`id`) says what became of it.
    func offerInstalled(_ decision: Decision, target: String, reason: String, click: Click, id: UInt32?) {
        Log.warning("not opened, \(target) is not installed: \(Log.shown(decision.finalURL))")
        let scheme = (try? ParsedURL(decision.finalURL))?.scheme ?? "https"
        let choices = engine.installedChoices(forScheme: scheme)
        notices.show(NotificationText.unavailable(target: target, url: decision.finalURL, reason: reason, choices: choices), kind: .failure) { [weak self] key in
            guard let self, let choice = choices.first(where: { $0.key == key }),
                  var chosen = try? self.engine.decide(choice: choice.action, for: decision.finalURL) else { return }
            chosen.url = decision.url
            chosen.rule = decision.rule
            self.carryOutLater(chosen, click: Click(opener: click.opener, environment: click.environment), id: id, event: "opened from a notification")
        }
    }
}

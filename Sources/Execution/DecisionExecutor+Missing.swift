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
        offerOthers(decision, click: click, id: id) { choices in
            NotificationText.unavailable(target: target, url: decision.finalURL, reason: reason, choices: choices)
        }
    }

    /// A launch that failed at the click (the app was uninstalled since the config loaded, its
    /// program is gone or cannot start): the same offer as for a target missing at load.
    func offerAfterFailedLaunch(_ decision: Decision, message: String, click: Click, id: UInt32?) {
        // Logged as URLs are (a mailto's fields are not repeated).
        var logged = message
        for url in [decision.finalURL, decision.url] { logged = logged.replacingEvery(url, with: Log.shown(url)) }
        Log.error(logged)
        offerOthers(decision, click: click, id: id) { choices in
            NotificationText.launchFailed(target: self.label(decision), url: decision.finalURL, error: message, choices: choices)
        }
    }

    /// Shows `notification` (built with the choices offered) with a button for the previous
    /// default handler and each installed app for the link's scheme.
    private func offerOthers(_ decision: Decision, click: Click, id: UInt32?, notification: ([Choice]) -> NotificationRequest) {
        let scheme = (try? ParsedURL(decision.finalURL))?.scheme ?? "https"
        let target = decision.target?.description
        let choices = engine.installedChoices(forScheme: scheme).filter { $0.key != target }
        notices.show(notification(choices), kind: .failure) { [weak self] key in
            guard let self, let choice = choices.first(where: { $0.key == key }),
                  var chosen = try? self.engine.decide(choice: choice.action, for: decision.finalURL) else { return }
            chosen.url = decision.url
            chosen.rule = decision.rule
            self.carryOutLater(chosen, click: Click(opener: click.opener, environment: click.environment), id: id, event: "opened from a notification")
        }
    }
}

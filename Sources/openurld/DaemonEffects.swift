import DBus
import Desktop
import Routing

/// The daemon's copy, ask and notify: logs until the clipboard and notification backends are
/// wired in.
final class DaemonEffects: DecisionEffects {
    let connection: DBusConnection
    let environment: [String: String]
    weak var router: LinkRouter?
    private let logging = LoggingEffects { Log.info($0) }

    init(connection: DBusConnection, environment: [String: String]) {
        self.connection = connection
        self.environment = environment
    }

    func copy(_ text: String, for decision: Decision) throws { try logging.copy(text, for: decision) }
    func ask(_ decision: Decision, labels: [String], choose: @escaping (AskChoice?) -> Void) { logging.ask(decision, labels: labels, choose: choose) }
    func reportError(_ message: String, for decision: Decision?) { Log.error(message) }
    func confirm(_ decision: Decision) { logging.confirm(decision) }
}

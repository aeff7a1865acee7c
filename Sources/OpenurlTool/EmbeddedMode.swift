import ConfigFiles
import DBus
import Notifying
import Execution
import Platform
import ConfigLanguage
import Routing

/// Embedded mode: the same executor the daemon uses, in this process, with a session that has
/// no loop and does not stay for answers (notifications get no buttons, asks go to the picker).
extension Client {
    /// An executor over `config` for this process.
    func embeddedExecutor(config: Config, verbose: Bool) -> DecisionExecutor {
        let session = Session(bus: try? DBusConnection.session(), loop: nil, environment: environment, paths: paths,
                              staysForAnswers: false, verbose: verbose)
        return DecisionExecutor(session: session, rules: RulesInForce(engine: RuleEngine(config: config), paths: paths, environment: environment),
                                record: nil, notices: Notices(session: session))
    }
}

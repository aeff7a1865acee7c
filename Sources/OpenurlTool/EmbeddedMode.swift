import ConfigFiles
import DBus
import Notifying
import Execution
import Platform
import ConfigLanguage
import Routing
import RoutingCore
import SessionState

/// Embedded mode: the same executor the daemon uses, in this process, with a session that has
/// no loop and does not stay for answers (notifications get no buttons, asks go to the picker).
extension Client {
    /// An executor over `config` for this process.
    func embeddedExecutor(config: Config, verbose: Bool) -> DecisionExecutor {
        let session = Session(bus: try? DBusConnection.session(), loop: nil, environment: environment, paths: paths,
                              staysForAnswers: false, verbose: verbose)
        return DecisionExecutor(session: session, rules: RulesInForce(engine: RuleEngine(config: config), paths: paths, environment: environment),
                                record: nil, notices: Notices(session: session), readMoment: embeddedMoment())
    }

    /// The same moment the daemon would read, read once for all the links of this run: no
    /// watcher here, so NetworkManager is read once (only when a rule looks at the network).
    private func embeddedMoment() -> MomentReading {
        let sources = MomentSources(network: nil, environment: environment)
        var read: Moment?
        return { needs, click, completion in
            let moment = read ?? sources.moment(needs: needs, click: click)
            read = moment
            completion(moment)
        }
    }
}

import Foundation
import Routing

/// The side effects of a decision that are not launching: copying, asking and telling the user.
/// The daemon implements them with the clipboard and notifications; a logging implementation
/// stands in where those are not available.
public protocol DecisionEffects: AnyObject {
    /// Puts `text` on the clipboard (and confirms it when `decision.notify`).
    func copy(_ text: String, for decision: Decision) throws
    /// Offers `decision.choices`; calls `choose` with the pick, or nil when dismissed.
    func ask(_ decision: Decision, labels: [String], choose: @escaping (AskChoice?) -> Void)
    /// Tells the user something went wrong (a failed launch, a refused link).
    func reportError(_ message: String, for decision: Decision?)
    /// Tells the user about a decision that asked for it (`notify = true` on open or discard).
    func confirm(_ decision: Decision)
    /// Copies as `copy(_:for:)` with the click's display variables added to the environment
    /// (the daemon may have been started without a display).
    func copy(_ text: String, for decision: Decision, environment: [String: String]) throws
    /// Tells the user a ClearURLs `completeProvider` blocked the link, offering to open it anyway.
    func blocked(_ decision: Decision, environment: [String: String])
}

extension DecisionEffects {
    /// Copies with the effects' own environment.
    public func copy(_ text: String, for decision: Decision, environment: [String: String]) throws {
        try copy(text, for: decision)
    }

    /// Reports the block as an error.
    public func blocked(_ decision: Decision, environment: [String: String]) {
        reportError("\(decision.url): blocked by the ClearURLs rule \(decision.blockedBy ?? "?") (set clean = false on a rule to let it through)", for: nil)
    }
}

/// What became of a routed link.
public enum RouteOutcome: Sendable, Equatable, CustomStringConvertible {
    /// Carried out.
    case done
    /// Only decided (`dry-run`).
    case decidedOnly
    /// The same URL was routed moments ago (`dedupe_ms`); nothing was done again.
    case duplicate
    /// Waiting for the user's choice.
    case asking
    /// Could not be carried out, with why.
    case failed(String)
    /// A ClearURLs `completeProvider` blocked it (the user was told, with "Open anyway").
    case blocked(String)
    /// The client gave up waiting before the daemon got to the call, and routed the link itself.
    case abandoned

    /// `done`, `dry-run`, `duplicate`, `asking`, `failed: why`, `blocked by PROVIDER` or `abandoned`.
    public var description: String {
        switch self {
        case .done: return "done"
        case .decidedOnly: return "dry-run"
        case .duplicate: return "duplicate"
        case .asking: return "asking"
        case .failed(let why): return "failed: \(why)"
        case .blocked(let provider): return "blocked by \(provider)"
        case .abandoned: return "abandoned"
        }
    }
}

/// Carries out decisions: launches targets, hands links to the previous default handler,
/// copies, asks. Shared by the daemon and the client's embedded mode.
public final class LinkRouter {
    /// The rules in force.
    public var engine: RuleEngine
    /// Launches desktop entries and argvs.
    public let launcher: AppLauncher
    /// The default handlers recorded at install (for `system`).
    public let handlers: DefaultHandlers
    /// Copy, ask and notify.
    public let effects: DecisionEffects
    /// Calls `org.freedesktop.Application` for `DBusActivatable` apps; nil spawns their Exec.
    public var dbusActivator: ((DBusActivationRequest) throws -> Void)?

    /// Creates a router.
    public init(engine: RuleEngine, launcher: AppLauncher, handlers: DefaultHandlers, effects: DecisionEffects) {
        self.engine = engine
        self.launcher = launcher
        self.handlers = handlers
        self.effects = effects
    }

    /// Carries out `decision`; `completion` runs when an `ask` is answered (immediately otherwise).
    /// `environment` holds the click's display variables when the launcher's own lack one.
    public func carryOut(_ decision: Decision, activationToken: String?, environment: [String: String] = [:],
                         completion: ((Decision, RouteOutcome) -> Void)? = nil) -> RouteOutcome {
        if let error = decision.error {
            effects.reportError("\(decision.url): \(error)", for: decision)
            return .failed(error)
        }
        switch decision.kind {
        case .open, .system:
            guard let launch = decision.launch else { return .failed("nothing to launch") }
            do {
                try perform(launch, url: decision.finalURL, activationToken: activationToken, environment: environment)
                if decision.notify { effects.confirm(decision) }
                return .done
            } catch {
                let message = "could not open \(decision.finalURL) with \(decision.target?.description ?? "the system handler"): \(error)"
                effects.reportError(message, for: decision)
                return .failed(message)
            }
        case .copy:
            do {
                try effects.copy(decision.copyText ?? decision.finalURL, for: decision, environment: environment)
                return .done
            } catch {
                let message = "could not copy: \(error)"
                effects.reportError(message, for: decision)
                return .failed(message)
            }
        case .discard:
            if let provider = decision.blockedBy {
                effects.blocked(decision, environment: environment)
                return .blocked(provider)
            }
            if decision.notify { effects.confirm(decision) }
            return .done
        case .ask:
            effects.ask(decision, labels: labels(for: decision.choices)) { [weak self] choice in
                guard let self else { return }
                guard let choice else {
                    completion?(decision, .done)
                    return
                }
                do {
                    let chosen = try self.engine.decide(choice: choice, for: decision.finalURL)
                    let outcome = self.carryOut(chosen, activationToken: activationToken, environment: environment)
                    completion?(chosen, outcome)
                } catch {
                    completion?(decision, .failed("\(error)"))
                }
            }
            return .asking
        }
    }

    /// Choices as a person reads them: app names from their desktop entries, each distinct.
    public func labels(for choices: [AskChoice]) -> [String] {
        NotificationText.choiceLabels(choices, entries: launcher.entries)
    }

    /// What `launch` comes down to: the target and URL handed to the launcher (`system` is
    /// resolved to the previous default handler here).
    public func launchTarget(for launch: Decision.Launch) throws -> (target: LaunchTarget, url: String) {
        switch launch {
        case .desktopEntry(let id, let action, let url):
            return (.desktopEntry(id: id, action: action), url)
        case .desktopEntryWithArguments(let id, let arguments):
            return (.desktopEntryWithArguments(id: id, arguments: arguments), "")
        case .desktopEntryAdding(let id, let arguments, let url):
            return (.desktopEntryAdding(id: id, arguments: arguments), url)
        case .argv(let argv):
            return (.argv(argv), "")
        case .system(let url):
            let scheme = url.prefix(while: { $0 != ":" }).lowercased()
            let entry = try handlers.systemHandler(forScheme: scheme)
            return (.desktopEntry(id: entry.id), url)
        }
    }

    /// How `decision` would be launched, without launching it (`openurl test` prints this).
    public func plan(_ decision: Decision, activationToken: String? = nil) throws -> LaunchPlan? {
        guard let launch = decision.launch else { return nil }
        let (target, url) = try launchTarget(for: launch)
        return try launcher.plan(target, url: url.isEmpty ? decision.finalURL : url, activationToken: activationToken)
    }

    private func perform(_ launch: Decision.Launch, url: String, activationToken: String?, environment: [String: String]) throws {
        let (target, launchURL) = try launchTarget(for: launch)
        // The click's display variables, for a daemon started without them.
        var launcher = self.launcher
        for (name, value) in environment { launcher.environment[name] = value }
        try launcher.launch(target, url: launchURL.isEmpty ? url : launchURL, activationToken: activationToken, dbusActivator: dbusActivator)
    }
}

/// Effects that only log what they would do: for embedded mode without a clipboard or
/// notification server, and for tests of the decision path.
public final class LoggingEffects: DecisionEffects {
    private let log: (String) -> Void

    /// Logs through `log`.
    public init(log: @escaping (String) -> Void) { self.log = log }

    /// Logs the text it would copy.
    public func copy(_ text: String, for decision: Decision) throws { log("would copy: \(text)") }

    /// Logs the choices and takes the first.
    public func ask(_ decision: Decision, labels: [String], choose: @escaping (AskChoice?) -> Void) {
        log("would ask about \(decision.finalURL): \(labels.joined(separator: ", ")); taking the first choice")
        choose(decision.choices.first)
    }

    /// Logs the error.
    public func reportError(_ message: String, for decision: Decision?) { log("error: \(message)") }

    /// Logs the decision.
    public func confirm(_ decision: Decision) { log("\(decision.kind.rawValue): \(decision.finalURL)") }
}

import DesktopDefaults
import Launching
import Platform
import Routing
import URLModel

/// The side effects of a decision that are not launching: copying, asking and telling the user.
/// The daemon implements them with the clipboard and notifications; a logging implementation
/// stands in where those are not available.
public protocol DecisionEffects: AnyObject {
    /// Puts `text` on the clipboard (and confirms it when `decision.notify`).
    func copy(_ text: String, for decision: Decision) throws
    /// Offers `request.decision.choices`; calls `answer` with what became of the question (more
    /// than once only for a chooser window kept open, see `AskAnswer`).
    func ask(_ request: AskRequest, answer: @escaping (AskAnswer) -> Void)
    /// Tells the user that nobody could be asked, so the link went to `decision` instead.
    func reportUnasked(_ decision: Decision, reason: String)
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
    /// The question was dismissed (Escape, window or notification closed, picker cancelled).
    case cancelled
    /// Nobody answered the question in time.
    case expired
    /// Could not be carried out, with why.
    case failed(String)
    /// A ClearURLs `completeProvider` blocked it (the user was told, with "Open anyway").
    case blocked(String)
    /// The client gave up waiting before the daemon got to the call, and routed the link itself.
    case abandoned

    /// `done`, `dry-run`, `duplicate`, `asking`, `cancelled`, `expired`, `failed: why`,
    /// `blocked by PROVIDER` or `abandoned`.
    public var description: String {
        switch self {
        case .done: return "done"
        case .decidedOnly: return "dry-run"
        case .duplicate: return "duplicate"
        case .asking: return "asking"
        case .cancelled: return "cancelled"
        case .expired: return "expired"
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

    /// Carries out `decision`; for an `ask`, `completion` runs with each answer carried out (at
    /// least once: a dismissed or expired question too), otherwise it is not called.
    /// `environment` holds the click's display variables when the launcher's own lack one.
    public func carryOut(_ decision: Decision, activationToken: String?, opener: String? = nil, environment: [String: String] = [:],
                         completion: ((AskResult) -> Void)? = nil) -> RouteOutcome {
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
            var asked = decision
            asked.choices = offeredChoices(for: decision)
            var request = AskRequest(decision: asked, labels: labels(for: asked.choices), icons: icons(for: asked.choices),
                                     activationToken: activationToken, opener: opener)
            request.environment = environment
            var answered = false
            effects.ask(request) { [weak self] answer in
                guard let self else { return }
                let followUp = answered
                answered = true
                switch answer {
                case .chosen(let choice, let editedURL, let remember, _):
                    let (chosen, outcome) = self.carryOut(choice, for: asked, editedURL: editedURL, activationToken: followUp ? nil : activationToken,
                                                                 environment: environment)
                    completion?(AskResult(decision: chosen, outcome: outcome, remember: remember, choice: choice, isFollowUp: followUp))
                case .cancelled, .expired:
                    // Closing a window after a Ctrl+Enter choice is not a cancel of what was opened.
                    if !followUp { completion?(AskResult(decision: asked, outcome: answer == .expired ? .expired : .cancelled, remember: nil, choice: nil, isFollowUp: false)) }
                case .unavailable(let why):
                    // Never a silent drop: open the first target offered (else the first choice) and say so.
                    guard let choice = asked.choices.first(where: { if case .open = $0 { return true } else { return false } }) ?? asked.choices.first else {
                        completion?(AskResult(decision: asked, outcome: .failed("cannot ask: \(why)"), remember: nil, choice: nil, isFollowUp: false))
                        return
                    }
                    let (chosen, outcome) = self.carryOut(choice, for: asked, editedURL: nil, activationToken: activationToken, environment: environment)
                    if outcome == .done { self.effects.reportUnasked(chosen, reason: why) }
                    completion?(AskResult(decision: chosen, outcome: outcome, remember: nil, choice: choice, isFollowUp: false))
                }
            }
            return .asking
        }
    }

    /// Carries out one answer to `asked`; an edited URL must still be a URL of a routed scheme.
    private func carryOut(_ choice: AskChoice, for asked: Decision, editedURL: String?, activationToken: String?,
                          environment: [String: String]) -> (Decision, RouteOutcome) {
        var url = asked.finalURL
        if let editedURL, editedURL != url {
            guard let parsed = try? ParsedURL(editedURL), engine.allowedSchemes.contains(parsed.scheme) else {
                let message = "the edited link \(String(reflecting: String(editedURL.prefix(200)))) is not an http, https or mailto URL (or another routed scheme); nothing opened"
                effects.reportError(message, for: nil)
                return (asked, .failed(message))
            }
            url = parsed.string
        }
        do {
            var chosen = try engine.decide(choice: choice, for: url)
            chosen.url = asked.url
            chosen.rule = asked.rule
            return (chosen, carryOut(chosen, activationToken: activationToken, environment: environment))
        } catch {
            return (asked, .failed("\(error)"))
        }
    }

    /// The choices an `ask` offers: the rule's list; when the ask was forced or the list is empty,
    /// also the installed apps for the scheme (browsers, and browser profiles where ListApps has
    /// them), the webmail targets for a mailto, Copy and Discard.
    public func offeredChoices(for decision: Decision) -> [AskChoice] {
        guard decision.askWasForced || decision.choices.isEmpty else { return decision.choices }
        var choices = decision.choices.filter { $0 != .copy && $0 != .discard }
        let scheme = decision.finalURL.prefix(while: { $0 != ":" }).lowercased()
        for app in launcher.listApps(forScheme: scheme) {
            guard let target = OpenTarget(app.id, in: engine.config) else { continue }
            let choice = AskChoice.open(target)
            if !choices.contains(choice) { choices.append(choice) }
        }
        if scheme == "mailto" {
            for name in engine.config.webmail.keys.sorted() + Webmail.builtIn.keys.sorted() where !choices.contains(.open(.webmail(name))) {
                choices.append(.open(.webmail(name)))
            }
        }
        return choices + [.copy, .discard]
    }

    /// An icon per choice: the desktop entry's, else a themed icon for the kind of choice.
    public func icons(for choices: [AskChoice]) -> [String] {
        choices.map { choice in
            switch choice {
            case .copy: return "edit-copy"
            case .discard: return "user-trash"
            case .open(.webmail): return "mail-send"
            case .open(.system): return "web-browser"
            case .open(.browser(let target)): return launcher.entries.entry(id: target.desktopID)?.icon ?? "web-browser"
            case .open(.desktopEntry(let id, _)): return launcher.entries.entry(id: id)?.icon ?? "application-x-executable"
            case .open(.app(let name)):
                if case .desktop(let id, _)? = engine.config.apps[name], let icon = launcher.entries.entry(id: id)?.icon { return icon }
                return "application-x-executable"
            }
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

    /// Logs the choices; nobody can answer, so the router's fallback takes over.
    public func ask(_ request: AskRequest, answer: @escaping (AskAnswer) -> Void) {
        log("would ask about \(request.decision.finalURL): \(request.labels.joined(separator: ", "))")
        answer(.unavailable("nobody to ask"))
    }

    /// Logs what was opened instead.
    public func reportUnasked(_ decision: Decision, reason: String) {
        log("could not ask (\(reason)); \(decision.kind.rawValue) \(decision.target?.description ?? "") \(decision.finalURL)")
    }

    /// Logs the error.
    public func reportError(_ message: String, for decision: Decision?) { log("error: \(message)") }

    /// Logs the decision.
    public func confirm(_ decision: Decision) { log("\(decision.kind.rawValue): \(decision.finalURL)") }
}

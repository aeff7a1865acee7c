import Launching
import DBus
import Execution
import Platform
import Routing
import URLModel
import LinkExtraction

/// The daemon's copy, ask and notify: the clipboard backend the settings choose, and
/// notifications on the daemon's own connection (servers answer only the sender).
final class DaemonEffects: DecisionEffects {
    let connection: DBusConnection
    let loop: EventLoop
    let environment: [String: String]
    weak var router: LinkRouter?
    private var client: NotificationClient?

    init(connection: DBusConnection, loop: EventLoop, environment: [String: String]) {
        self.connection = connection
        self.loop = loop
        self.environment = environment
    }

    private var settings: Config.Settings { (router?.engine.config ?? Config()).settings }

    /// The notification client, made on first use (a server may start after the daemon).
    private var notifications: NotificationClient? {
        if client == nil {
            // Synchronous calls (the ask path's capability check) stay short; Notify is sent
            // without waiting and may take a loaded desktop up to 10 s to answer.
            client = try? NotificationClient(connection: connection, callTimeout: 2)
            client?.notifyTimeout = 10
        }
        return client
    }

    func copy(_ text: String, for decision: Decision) throws {
        try copy(text, for: decision, environment: [:])
    }

    func copy(_ text: String, for decision: Decision, environment clickEnvironment: [String: String]) throws {
        var environment = self.environment
        for (name, value) in clickEnvironment { environment[name] = value }
        let writer = try ClipboardSelector.writer(setting: settings.clipboard, environment: environment, bus: connection)
        try writer.copy(text)
        Log.info("copied with \(writer.name): \(Log.shown(copied: text))")
        guard decision.notify, let url = try? ParsedURL(decision.finalURL) else { return }
        show(NotificationText.copied(text: text, url: url), kind: .copied) { [weak self] key in
            guard key == NotificationText.openActionKey else { return }
            self?.openAfterAll(decision.finalURL, environment: clickEnvironment)
        }
    }

    func blocked(_ decision: Decision, environment: [String: String]) {
        let provider = decision.blockedBy ?? "ClearURLs"
        Log.info("blocked by the ClearURLs rule \(provider): \(Log.shown(decision.url))")
        show(NotificationText.blocked(provider: provider, url: decision.url), kind: .blocked) { [weak self] key in
            guard key == NotificationText.openAnywayActionKey else { return }
            self?.openAfterAll(decision.url, environment: environment)
        }
    }

    /// "Open" on a copy, "Open anyway" on a block: the default target if it opens, else the
    /// system handler.
    private func openAfterAll(_ url: String, environment: [String: String]) {
        guard let router else { return }
        var target = OpenTarget.system
        if case .open(let configured) = router.engine.config.defaultAction { target = configured }
        guard let decision = try? router.engine.decide(choice: .open(target), for: url) else { return }
        let outcome = router.carryOut(decision, activationToken: nil, environment: environment)
        Log.info("opened from a notification: \(Log.shown(url)) (\(outcome))")
    }

    /// The chooser window, found once (beside openurld, else on PATH); nil when not installed.
    private lazy var chooser: ChooserLauncher? = ChooserLauncher.locate(environment: environment).map {
        ChooserLauncher(executable: $0, loop: loop)
    }

    func ask(_ request: AskRequest, answer: @escaping (AskAnswer) -> Void) {
        let settings = self.settings
        // The window and the picker go on the click's display when the daemon has none.
        var environment = self.environment
        for (name, value) in request.environment { environment[name] = value }
        let picker = settings.picker.map { Picker(argv: $0, environment: environment, timeout: Double(settings.askTimeout)) }
        chooser?.timeout = Double(settings.askTimeout)
        let asker = Asker(notifications: notifications, picker: picker, chooser: chooser, order: settings.askOrder,
                          environment: environment, loop: loop) { Log.warning($0) }
        asker.ask(request, completion: answer)
    }

    func reportUnasked(_ decision: Decision, reason: String) {
        Log.warning("could not ask (\(reason)); \(decision.kind.rawValue) \(decision.target?.description ?? "") instead")
        let what: String
        switch decision.kind {
        case .copy: what = "Copied it instead"
        case .discard: what = "Discarded it"
        default: what = "Opened it with \(decision.target.map { router?.labels(for: [.open($0)]).first ?? $0.description } ?? "the system handler")"
        }
        // Plain text: NotificationClient escapes it once, when the server reads markup.
        show(NotificationRequest(summary: "Could not ask where to open a link", body: "\(what): \(decision.finalURL)\n(\(reason))"),
             kind: .failure)
    }

    func reportError(_ message: String, for decision: Decision?) {
        var logged = message
        if let decision {
            for url in [decision.finalURL, decision.url] { logged = logged.replacingEvery(url, with: Log.shown(url)) }
        }
        Log.error(logged)
        // The body is plain text: NotificationClient escapes it once, when the server reads markup.
        if let decision, decision.error == nil {
            let request: NotificationRequest
            if decision.kind == .copy {
                request = NotificationText.copyFailed(url: decision.finalURL, error: message)
            } else {
                request = NotificationText.launchFailed(target: targetName(decision), url: decision.finalURL, error: message)
            }
            show(request, kind: .failure)
        } else if let decision {
            show(NotificationText.refused(url: decision.url, reason: decision.error ?? message), kind: .failure)
        } else if let prefix = [Self.configKeptPrefix, Self.configDefaultsPrefix].first(where: message.hasPrefix) {
            show(NotificationText.configReloadFailed(String(message.dropFirst(prefix.count)), usingDefaults: prefix == Self.configDefaultsPrefix),
                 kind: .config)
        } else {
            show(NotificationRequest(summary: "openurld", body: message, urgency: .critical, icon: NotificationClient.Icon.error), kind: .failure)
        }
    }

    /// The name a person knows a target by: the desktop entry's `Name`, not its id.
    private func targetName(_ decision: Decision) -> String {
        guard let target = decision.target else { return "the previous default handler" }
        guard let router else { return target.description }
        return NotificationText.choiceLabel(.open(target), entries: router.launcher.entries)
    }

    /// How `Daemon.reload` starts its error message, after a good config and before any.
    static let configKeptPrefix = "config not reloaded, the previous rules stay in use: "
    static let configDefaultsPrefix = "config not loaded, using built-in defaults: "

    func confirm(_ decision: Decision) {
        if decision.kind == .discard {
            show(NotificationText.discarded(url: decision.finalURL, rule: decision.rule?.description), kind: .confirmation)
        } else {
            show(NotificationRequest(summary: "Opened link in \(targetName(decision))", body: decision.finalURL), kind: .confirmation)
        }
    }

    /// What a notification is about: each kind replaces its own previous notification, so
    /// repeated errors do not pile up and an error never hides a pending copy confirmation.
    enum Kind: CaseIterable { case copied, blocked, failure, config, confirmation, defaults }
    private var lastIDs: [Kind: UInt32] = [:]

    /// Shows `request`, replacing the previous notification of its `kind`.
    func show(_ request: NotificationRequest, kind: Kind, onAction: ((String) -> Void)? = nil) {
        guard let notifications else {
            Log.info("no notification server: \(request.summary)")
            return
        }
        notifications.notifyAsync(request, replacing: lastIDs[kind] ?? 0, onAction: onAction) { [weak self] result in
            switch result {
            case .success(let id): self?.lastIDs[kind] = id
            case .failure(let error): Log.info("notification not shown (\(error.message)): \(request.summary)")
            }
        }
    }
}

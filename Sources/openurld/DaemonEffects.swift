import DBus
import Desktop
import Foundation
import Routing

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
        if client == nil { client = try? NotificationClient(connection: connection) }
        return client
    }

    func copy(_ text: String, for decision: Decision) throws {
        let writer = try ClipboardSelector.writer(setting: settings.clipboard, environment: environment, bus: connection)
        try writer.copy(text)
        Log.info("copied with \(writer.name): \(text)")
        guard decision.notify, let url = try? ParsedURL(decision.finalURL) else { return }
        show(NotificationText.copied(text: text, url: url)) { [weak self] key in
            guard key == NotificationText.openActionKey else { return }
            self?.openAfterAll(decision.finalURL)
        }
    }

    /// The copy notification's "Open": the default target if it opens, else the system handler.
    private func openAfterAll(_ url: String) {
        guard let router else { return }
        var target = OpenTarget.system
        if case .open(let configured) = router.engine.config.defaultAction { target = configured }
        guard let decision = try? router.engine.decide(choice: .open(target), for: url) else { return }
        _ = router.carryOut(decision, activationToken: nil)
    }

    /// The chooser window, found once (beside openurld, else on PATH); nil when not installed.
    private lazy var chooser: ChooserLauncher? = ChooserLauncher.locate(environment: environment).map {
        ChooserLauncher(executable: $0, loop: loop)
    }

    func ask(_ request: AskRequest, answer: @escaping (AskAnswer) -> Void) {
        let settings = self.settings
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
        show(NotificationRequest(summary: "Could not ask where to open a link",
                                 body: NotificationText.escapeMarkup("\(what): \(decision.finalURL)\n(\(reason))")))
    }

    func reportError(_ message: String, for decision: Decision?) {
        Log.error(message)
        if let decision, decision.error == nil {
            show(NotificationText.launchFailed(target: decision.target?.description ?? "the system handler", url: decision.finalURL, error: message))
        } else if decision == nil, message.hasPrefix("config not reloaded: ") {
            show(NotificationText.configReloadFailed(String(message.dropFirst("config not reloaded: ".count))))
        } else {
            show(NotificationRequest(summary: "openurld", body: NotificationText.escapeMarkup(message), urgency: .critical, icon: NotificationClient.Icon.error))
        }
    }

    func confirm(_ decision: Decision) {
        let summary = decision.kind == .discard ? "Link discarded" : "Opened link"
        let body = [decision.target?.description, decision.finalURL].compactMap { $0 }.joined(separator: "\n")
        show(NotificationRequest(summary: summary, body: body))
    }

    func show(_ request: NotificationRequest, onAction: ((String) -> Void)? = nil) {
        guard let notifications else {
            Log.info("no notification server: \(request.summary): \(request.body)")
            return
        }
        notifications.notifyAsync(request, onAction: onAction) { result in
            if case .failure(let error) = result { Log.info("notification not shown (\(error.message)): \(request.summary)") }
        }
    }
}

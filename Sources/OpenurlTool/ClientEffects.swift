import DBus
import Execution
import Launching
import Platform
import Routing
import URLModel

/// Copy, ask and notify for embedded mode (no daemon).
final class ClientEffects: DecisionEffects {
    let environment: [String: String]
    let settings: Config.Settings
    let verbose: Bool

    init(environment: [String: String], settings: Config.Settings, verbose: Bool) {
        self.environment = environment
        self.settings = settings
        self.verbose = verbose
    }

    static func clipboardDescription(environment: [String: String], settings: Config.Settings) -> String {
        ClipboardSelector.describe(setting: settings.clipboard, environment: environment, bus: try? DBusConnection.session())
    }

    func copy(_ text: String, for decision: Decision) throws {
        let bus = try? DBusConnection.session()
        let writer = try ClipboardSelector.writer(setting: settings.clipboard, environment: environment, bus: bus)
        try writer.copy(text)
        if verbose { Output.error("openurl: copied with \(writer.name)") }
        guard decision.notify, let bus, let url = try? ParsedURL(decision.finalURL),
              let notifications = try? NotificationClient(connection: bus) else { return }
        // Without the daemon nobody waits for the notification's answer, so it has no buttons.
        var request = NotificationText.copied(text: text, url: url)
        request.actions = []
        _ = try? notifications.notify(request)
    }

    /// Without a daemon nobody can receive a notification's answer: use the picker when one is
    /// set; otherwise (or when it cannot run) the router's fallback opens the first target.
    func ask(_ request: AskRequest, answer: @escaping (AskAnswer) -> Void) {
        guard let argv = settings.picker else { return answer(.unavailable("no daemon to ask through and no [settings] picker")) }
        let outcome = Picker(argv: argv, environment: environment, timeout: Double(settings.askTimeout)).pick(labels: request.labels)
        switch outcome {
        case .chosen(let index): answer(.chosen(request.decision.choices[index], url: nil, remember: nil, keepAsking: false))
        case .cancelled: answer(.cancelled)
        case .expired: answer(.expired)
        case .failed(let why): answer(.unavailable("picker failed: \(why)"))
        }
    }

    func reportUnasked(_ decision: Decision, reason: String) {
        let message = "could not ask (\(reason)); \(decision.kind.rawValue) \(decision.target?.description ?? "") \(decision.finalURL)"
        if verbose || StandardStream.error.isTerminal { Output.error("openurl: \(message)") }
        if !StandardStream.error.isTerminal { Notifier.show(summary: "Could not ask where to open a link", body: message, urgent: false) }
    }

    func reportError(_ message: String, for decision: Decision?) {
        Output.error("openurl: \(message)")
        let summary = decision?.kind == .copy ? "Could not copy" : decision?.error != nil ? "Link not opened" : "Could not open link"
        if !StandardStream.error.isTerminal { Notifier.show(summary: summary, body: message, urgent: true) }
    }

    func confirm(_ decision: Decision) {
        if verbose { Output.error("openurl: \(decision.kind.rawValue) \(decision.finalURL)") }
    }
}

/// One-shot desktop notifications from the client (errors when no terminal is attached),
/// escaped by `NotificationClient` once and only when the server reads markup.
enum Notifier {
    static func show(summary: String, body: String, urgent: Bool) {
        guard let connection = try? DBusConnection.session(),
              let client = try? NotificationClient(connection: connection, callTimeout: 5) else { return }
        _ = try? client.notify(NotificationRequest(summary: summary, body: body, urgency: urgent ? .critical : .normal,
                                                   icon: NotificationClient.Icon.error))
    }
}

/// Reads the primary selection (`wl-paste -p` on Wayland, `xclip -o` on X11).
enum PrimarySelection {
    static func read(environment: [String: String]) -> String? {
        var commands: [[String]] = []
        if environment["WAYLAND_DISPLAY"] != nil { commands.append(["wl-paste", "--primary", "--no-newline"]) }
        if environment["DISPLAY"] != nil { commands += [["xclip", "-o", "-selection", "primary"], ["xsel", "--primary", "--output"]] }
        for argv in commands {
            guard ProcessLauncher.resolve(argv[0], environment: environment) != nil,
                  let result = try? ProcessLauncher().run(argv, environment: environment, timeout: 5), result.exitCode == 0 else { continue }
            return result.outputText
        }
        return nil
    }
}

import DBus
import Desktop
import Foundation
import Routing

/// Copy, ask and notify for embedded mode (no daemon).
final class ClientEffects: DecisionEffects {
    let environment: [String: String]
    let settings: Config.Settings
    let verbose: Bool
    var labels: ((AskChoice) -> String)?

    init(environment: [String: String], settings: Config.Settings, verbose: Bool) {
        self.environment = environment
        self.settings = settings
        self.verbose = verbose
    }

    static func clipboardDescription(environment: [String: String], settings: Config.Settings) -> String {
        "not wired yet"
    }

    func copy(_ text: String, for decision: Decision) throws {
        throw DaemonlessError("no clipboard backend yet")
    }

    /// Without a daemon there is nobody to receive a notification's answer: use the picker
    /// when one is set, else take the first choice.
    func ask(_ decision: Decision, labels: [String], choose: @escaping (AskChoice?) -> Void) {
        if verbose { Output.error("openurl: no daemon to ask through; taking the first choice") }
        choose(decision.choices.first)
    }

    func reportError(_ message: String, for decision: Decision?) {
        Output.error("openurl: \(message)")
        if isatty(2) == 0 { Notifier.show(summary: "openurl", body: message, urgent: true) }
    }

    func confirm(_ decision: Decision) {
        if verbose { Output.error("openurl: \(decision.kind.rawValue) \(decision.finalURL)") }
    }
}

struct DaemonlessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One-shot desktop notifications from the client (errors when no terminal is attached).
enum Notifier {
    static func show(summary: String, body: String, urgent: Bool) {
        guard let connection = try? DBusConnection.session() else { return }
        _ = try? connection.call(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications", method: "Notify",
            arguments: [.string("openurld"), .uint32(0), .string("dialog-error"), .string(summary), .string(body),
                        .stringArray([]), .vardict(["urgency": .byte(urgent ? 2 : 1), "desktop-entry": .string("io.github.openurld")]), .int32(-1)],
            timeout: 2)
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

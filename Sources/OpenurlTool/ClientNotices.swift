import DBus
import Notifying
import Execution
import Launching
import Platform

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

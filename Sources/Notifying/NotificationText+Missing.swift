import RoutingCore
import ConfigLanguage
import TOML



/// What the user is told about apps a config names that are not installed.
extension NotificationText {
    /// Once per change, after a load: the targets that are not installed, where they are written.
    public static func missingApps(_ apps: [MissingApp]) -> NotificationRequest {
        let shown = apps.prefix(5).map { "\($0.target) (\(Self.location($0.diagnostic)))" }
        let more = apps.count > shown.count ? "\n… and \(apps.count - shown.count) more" : ""
        let noun = apps.count == 1 ? "A target in the config is" : "\(apps.count) targets in the config are"
        return NotificationRequest(
            summary: "openurld: \(noun) not installed",
            body: shown.joined(separator: "\n") + more + "\nThe rest of the config is in use; a link headed for one of these offers what is installed instead. Check with: openurl check",
            icon: NotificationClient.Icon.error)
    }

    /// A link whose target is not installed: why, the link, and a button for each of `choices`
    /// (the previous default handler and the installed browsers), keyed as the choices are.
    public static func unavailable(target: String, url: String, reason: String, choices: [Choice]) -> NotificationRequest {
        NotificationRequest(
            summary: "Link not opened: \(target) is not installed",
            body: "\(shortened(url))\n\(reason)" + (choices.isEmpty ? "" : "\nOpen it with:"),
            actions: choices.map { (key: $0.key, label: $0.label) }, urgency: .critical, timeout: 0, icon: NotificationClient.Icon.error)
    }

    /// `config.toml:12:8` (the file's last component).
    static func location(_ diagnostic: ConfigDiagnostic) -> String {
        let file = diagnostic.path.split(separator: "/").last.map(String.init) ?? diagnostic.path
        return "\(file):\(diagnostic.position.line):\(diagnostic.position.column)"
    }
}

import RouterContract
import Launching
import Platform
import JSON
import RoutingCore

/// The human-readable explanation `openurl test` prints.
enum DecisionText {
    /// What would run: the exact argv, a D-Bus activation, or why it cannot be worked out.
    struct Launch {
        var argv: [String]?
        var dbus: DBusActivationRequest?
        var error: String?

        init(plan: Result<LaunchPlan?, Error>) {
            switch plan {
            case .success(.spawn(let argv)?): self.argv = argv
            case .success(.dbusActivation(let request, let fallback)?):
                dbus = request
                argv = fallback
            case .success(nil): break
            case .failure(let error): self.error = "\(error)"
            }
        }

        /// `org.example.App Open [url]` for a D-Bus activation.
        var dbusText: String? {
            dbus.map { request in
                request.action.map { "\(request.busName) ActivateAction \($0)" } ?? "\(request.busName) Open \(request.uris.joined(separator: " "))"
            }
        }
    }

    static func describe(_ decision: Decision, launch: Launch) -> String {
        var lines: [String] = []
        lines.append("url:       \(decision.url)")
        if decision.finalURL != decision.url { lines.append("final url: \(decision.finalURL)") }
        var summary = "decision:  \(decision.kind.rawValue)"
        if let target = decision.target { summary += " → \(target)" }
        lines.append(summary)
        let origin = decision.ruleSource.map { " (\(LayerText.origin(layer: $0.layer.rawValue, file: $0.file, line: $0.line, locked: $0.locked, recommended: $0.recommended)))" } ?? ""
        lines.append("rule:      \(decision.rule?.description ?? "none ([default])")\(origin)")
        if let copyText = decision.copyText { lines.append("copy text: \(copyText)\(decision.copyLeftOutBcc ? " (Bcc left out)" : "")") }
        if decision.kind == .ask {
            // One per line, numbered as the window numbers them, with the label it shows.
            for (index, choice) in decision.choices.enumerated() {
                let number = index < 9 ? "\(index + 1)" : " "
                lines.append("\(index == 0 ? "choices:" : "         ")  \(number) \(choice.key)\(choice.label == choice.key ? "" : " (\(choice.label))")")
            }
        }
        if let error = decision.error { lines.append("error:     \(error)") }
        lines.append("safety:    " + decision.safety.text.dropFirst("safety: ".count))
        if let dbus = launch.dbusText { lines.append("d-bus:     \(dbus)") }
        if let argv = launch.argv { lines.append("\(launch.dbus == nil ? "argv" : "or argv"):\(launch.dbus == nil ? "      " : "   ")\(argv.map(shellQuoted).joined(separator: " "))") }
        if let error = launch.error { lines.append("launch:    cannot launch: \(error)") }
        lines.append("trace:")
        for step in decision.trace { lines.append("  \(step.text)") }
        return lines.joined(separator: "\n")
    }

    /// The design's keys, then `argv` (the exact argv that would run, null when nothing is spawned)
    /// and `launch_error` when the launch cannot be worked out.
    static func json(_ decision: Decision, launch: Launch) -> JSONValue {
        guard case .object(var members) = decision.json else { return decision.json }
        members.append(("rule_source", decision.ruleSource?.json ?? .null))
        members.append(("argv", launch.argv.map { .array($0.map { .string($0) }) } ?? .null))
        if let dbus = launch.dbusText { members.append(("dbus", .string(dbus))) }
        if let error = launch.error { members.append(("launch_error", .string(error))) }
        return .object(members)
    }

    /// A word as a POSIX shell would need it, for reading only: nothing here is run by a shell.
    static func shellQuoted(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || "0123456789-_./:=@%+,".unicodeScalars.contains($0) }
        if safe, !word.isEmpty { return word }
        return "'" + word.replacingEvery("'", with: "'\\''") + "'"
    }
}

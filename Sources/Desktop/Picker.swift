import DBus
import Foundation

/// What a picker run came to.
public enum PickerOutcome: Equatable, Sendable {
    /// The user chose the label at this index.
    case chosen(Int)
    /// Empty output, a non-zero exit, or the timeout: nothing was chosen.
    case cancelled
    /// The picker printed something that is not one of the labels, or could not be started.
    case failed(String)

    /// The chosen index, nil otherwise.
    public var index: Int? {
        if case .chosen(let index) = self { return index }
        return nil
    }
}

/// A dmenu-style chooser (`fuzzel --dmenu`, `wofi --dmenu`, `rofi -dmenu`, `bemenu`,
/// `zenity --list --column=Open`): one label per line on its stdin, the chosen line on its stdout.
///
/// The async form runs the picker on a background thread (it is a blocking child process that
/// waits for a person) and delivers the result on the daemon's `EventLoop` with `perform`, so the
/// loop keeps serving D-Bus meanwhile. The picker is killed (its whole process group) at `timeout`.
public struct Picker: Sendable {
    /// The command, e.g. `["fuzzel", "--dmenu"]`.
    public var argv: [String]
    /// The environment it runs with (`WAYLAND_DISPLAY`/`DISPLAY` matter).
    public var environment: [String: String]
    /// Seconds before an unanswered picker is killed and counted as cancelled.
    public var timeout: Double

    /// A picker running `argv`; the default timeout is two minutes.
    public init(argv: [String], environment: [String: String], timeout: Double = 120) {
        self.argv = argv
        self.environment = environment
        self.timeout = timeout
    }

    /// Runs the picker and waits for the answer (blocking: use `pick(labels:loop:completion:)` in the daemon).
    public func pick(labels: [String]) -> PickerOutcome {
        let shown = labels.map(Self.oneLine)
        let input = Array(shown.map { $0 + "\n" }.joined().utf8)
        let result: CommandResult
        do {
            result = try ProcessLauncher().run(argv, environment: environment, stdin: input, timeout: timeout)
        } catch {
            return .failed("picker \(argv.first ?? ""): \(error)")
        }
        guard result.exitCode == 0 else { return .cancelled }
        return Self.match(output: result.outputText, labels: shown)
    }

    /// Runs the picker on a background thread; `completion` runs on `loop`'s thread.
    public func pick(labels: [String], loop: EventLoop, completion: @escaping (PickerOutcome) -> Void) {
        let picker = self
        let thread = Thread {
            let outcome = picker.pick(labels: labels)
            loop.perform { completion(outcome) }
        }
        thread.name = "openurld-picker"
        thread.start()
    }

    /// Maps the picker's output back to a label: the first line, exactly, else with surrounding
    /// spaces ignored. Empty output is a cancel.
    static func match(output: String, labels: [String]) -> PickerOutcome {
        let line = output.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        } ?? ""
        if line.isEmpty { return .cancelled }
        if let index = labels.firstIndex(of: line) { return .chosen(index) }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .cancelled }
        if let index = labels.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == trimmed }) {
            return .chosen(index)
        }
        return .failed("picker printed \(String(reflecting: String(line.prefix(200)))), which is none of the choices")
    }

    /// A label must be one line for a line-based picker.
    static func oneLine(_ label: String) -> String {
        String(label.map { $0.isNewline ? " " : $0 })
    }
}

import Launching
import Platform

/// Debian's `x-www-browser` and `gnome-www-browser` alternatives, which `sensible-browser` runs
/// by path: `openurl doctor --fix --system` makes openurl their choice with
/// `update-alternatives`, recording how each was chosen before (auto, or by hand and which) so
/// `openurl uninstall --system` puts it back.
public struct BrowserAlternatives {
    /// The alternatives a browser provides.
    public static let names = ["x-www-browser", "gnome-www-browser"]
    /// openurl's priority: above every browser's (Firefox ESR 70, Chromium 40), so auto mode picks it.
    public static let priority = "300"

    /// Where the record is kept (beside the system takeover's record).
    public var recordFile: String
    /// The environment `update-alternatives` runs in.
    public var environment: [String: String]

    /// Alternatives recorded in `recordFile`.
    public init(recordFile: String, environment: [String: String]) {
        self.recordFile = recordFile
        self.environment = environment
    }

    /// One alternative as it stands: its link, whether chosen by hand, and what it points at.
    struct State {
        var name: String
        var link: String
        var manual: Bool
        var value: String
    }

    /// The alternative as `update-alternatives --query` tells it (dpkg's own files are its to read).
    func state(_ name: String) -> State? {
        Self.query(name, environment: environment).map { State(name: name, link: $0.link, manual: $0.manual, value: $0.value) }
    }

    /// `--query NAME`'s link, status and value; nil when there is no such alternative.
    public static func query(_ name: String, environment: [String: String]) -> (link: String, manual: Bool, value: String)? {
        guard ProcessLauncher.resolve("update-alternatives", environment: environment) != nil,
              let result = try? ProcessLauncher().run(["update-alternatives", "--query", name], environment: environment, timeout: 10),
              result.exitCode == 0 else { return nil }
        var fields: [String: String] = [:]
        for line in result.outputText.split(separator: "\n") {
            guard !line.hasPrefix(" "), let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon])
            if fields[key] == nil { fields[key] = String(line[line.index(after: colon)...]).trimmingASCIIWhitespace() }
        }
        guard let link = fields["Link"] else { return nil }
        return (link, fields["Status"] == "manual", fields["Value"] ?? "")
    }

    func run(_ arguments: [String]) throws {
        let result = try ProcessLauncher().run(["update-alternatives"] + arguments, environment: environment, timeout: 30)
        guard result.exitCode == 0 else {
            throw AlternativesError(message: "update-alternatives \(arguments.joined(separator: " ")) failed: \(result.errorText.trimmingASCIIWhitespace())")
        }
    }

    /// Makes `openurl` (a path every user can run) the choice of each installed alternative that
    /// points elsewhere; returns what it changed, one line each.
    public func take(openurl: String) throws -> [String] {
        var record = FileSystem.utf8Text(recordFile) ?? ""
        var changed: [String] = []
        for name in Self.names {
            guard let state = state(name), state.value != openurl else { continue }
            if !record.split(separator: "\n").contains(where: { $0.hasPrefix(name + "\t") }) {
                record += [name, state.manual ? "manual" : "auto", state.value, openurl].joined(separator: "\t") + "\n"
                _ = try? FileSystem.createDirectory(Path.parent(recordFile), mode: 0o755, intermediates: true)
                try FileSystem.writeAtomically(Array(record.utf8), to: recordFile, mode: 0o644)
            }
            try run(["--install", state.link, name, openurl, Self.priority])
            if state.manual { try run(["--set", name, openurl]) }
            changed.append("the \(name) alternative now points at \(openurl) (was \(state.value), \(state.manual ? "chosen by hand" : "auto"))")
        }
        return changed
    }

    /// Takes openurl out of each alternative recorded (the path `take` gave), and gives one chosen
    /// by hand its choice back.
    public func restore() throws -> [String] {
        guard let text = FileSystem.utf8Text(recordFile) else { return [] }
        var restored: [String] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else { continue }
            try run(["--remove", fields[0], fields[3]])
            if fields[1] == "manual", !fields[2].isEmpty, FileSystem.exists(fields[2]) { try run(["--set", fields[0], fields[2]]) }
            restored.append("the \(fields[0]) alternative points at \(state(fields[0])?.value ?? "nothing") again")
        }
        try FileSystem.remove(recordFile)
        return restored
    }
}

/// `update-alternatives` refused.
public struct AlternativesError: Error, CustomStringConvertible {
    /// What it said.
    public var message: String
    /// The message.
    public var description: String { message }
}

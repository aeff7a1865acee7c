import Launching
import DBus
import Platform

/// What a picker run came to.
public enum PickerOutcome: Equatable, Sendable {
    /// The user chose the label at this index.
    case chosen(Int)
    /// Empty output or a non-zero exit: nothing was chosen.
    case cancelled
    /// Nobody answered before the timeout; the picker was killed.
    case expired
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
    ///
    /// The answer is read up to end-of-file on the picker's stdout rather than by waiting for its exit
    /// status, because the daemon's `ChildReaper.reapAll()` may collect the picker first.
    public func pick(labels: [String]) -> PickerOutcome {
        let shown = labels.map(Self.oneLine)
        let input = Array(shown.map { $0 + "\n" }.joined().utf8)
        let output: [UInt8]
        let exit: ChildWait
        do {
            (output, exit) = try run(input: input)
        } catch {
            return .failed("picker \(argv.first ?? ""): \(error)")
        }
        switch exit {
        case .stillRunning: return .expired  // timed out and killed
        case .exited(let code) where code != 0: return .cancelled
        default: return Self.match(output: String(decoding: output, as: UTF8.self), labels: shown)
        }
    }

    /// Spawns the picker with `input` on stdin; returns its stdout and how it ended.
    private func run(input: [UInt8]) throws -> ([UInt8], ChildWait) {
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1]
        try ProcessLauncher.makePipe(&inPipe)
        do { try ProcessLauncher.makePipe(&outPipe) } catch { inPipe.forEach(ChildIO.close); throw error }
        let pid: Int32
        do {
            // Tied to the daemon (this thread waits for it): a picker never outlives the daemon.
            pid = try QuestionChildren.shared.spawn(argv, environment: environment, stdin: inPipe[0], stdout: outPipe[1])
        } catch {
            (inPipe + outPipe).forEach(ChildIO.close)
            throw error
        }
        defer { QuestionChildren.shared.ended(pid) }
        ChildIO.close(inPipe[0])
        ChildIO.close(outPipe[1])
        // A dmenu reads all its input before showing anything, so the labels fit in one pass.
        ProcessLauncher.writeAll(input, to: inPipe[1])
        ChildIO.close(inPipe[1])
        defer { ChildIO.close(outPipe[0]) }
        var output: [UInt8] = []
        let deadline = Deadline(after: timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let remaining = deadline.remainingSeconds
            if remaining <= 0 {
                ChildIO.killWithGroup(pid)
                _ = ChildWait.wait(for: pid, timeout: 1)
                return (output, .stillRunning)
            }
            let ready = ChildIO.wait(readable: [outPipe[0]], milliseconds: Int32(min(remaining, 1) * 1000) + 1)
            if ready == .failed { break }
            guard ready == .ready else { continue }
            guard case .bytes(let count) = ChildIO.read(outPipe[0], into: &buffer) else { break }
            output += buffer[0..<count]
            if output.count > 65536 { break }  // nobody's choice is that long
        }
        // Stdout is closed: the answer is in. A picker that lingers after that is left to the reaper.
        let ended = ChildWait.wait(for: pid, timeout: 2)
        return (output, ended == .stillRunning ? .reapedElsewhere : ended)
    }

    /// Runs the picker on a background thread; `completion` runs on `loop`'s thread.
    public func pick(labels: [String], loop: EventLoop, completion: @escaping (PickerOutcome) -> Void) {
        let picker = self
        BackgroundThread.start(name: "openurld-picker") {
            let outcome = picker.pick(labels: labels)
            loop.perform { completion(outcome) }
        }
    }

    /// Maps the picker's output back to a label: the first line, exactly, else with surrounding
    /// spaces ignored. Empty output is a cancel.
    static func match(output: String, labels: [String]) -> PickerOutcome {
        // "\r\n" is one Character in Swift, so split on any newline character rather than on "\n".
        let line = output.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .first.map(String.init) ?? ""
        if line.isEmpty { return .cancelled }
        if let index = labels.firstIndex(of: line) { return .chosen(index) }
        let trimmed = trimmingSpaces(line)
        if trimmed.isEmpty { return .cancelled }
        if let index = labels.firstIndex(where: { trimmingSpaces($0) == trimmed }) {
            return .chosen(index)
        }
        return .failed("picker printed \(String(reflecting: String(line.prefix(200)))), which is none of the choices")
    }

    /// `text` without the tabs and space separators (Unicode Zs, as Foundation's `.whitespaces`)
    /// around it: pickers pad labels with spaces, some with no-break ones.
    static func trimmingSpaces(_ text: String) -> String {
        func isSpace(_ character: Character) -> Bool {
            character == "\t" || character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator }
        }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }

    /// A label must be one line for a line-based picker.
    static func oneLine(_ label: String) -> String {
        String(label.map { $0.isNewline ? " " : $0 })
    }
}

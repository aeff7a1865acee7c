import DBus
import Foundation
import Routing

/// Runs `openurl-chooser`, the GTK window for `ask`, one at a time: a question asked while a
/// window is open waits for it to close, then gets its own window.
///
/// The chooser prints one JSON line per answer (`{"answer":"choose","choice":"firefox.desktop",
/// "url":…,"remember":{"scope":…,"value":…},"keep":true}` or `{"answer":"cancel"}`); a thread
/// reads them and hands each to the daemon's loop. The chooser first prints `{"event":"shown"}`
/// when its window is mapped: one that exits before that (no display it can open, GTK missing)
/// could not ask, and the question goes to the next way of asking. A window that goes away
/// without an answer is a cancel; no answer within `timeout` kills it and counts as expired.
public final class ChooserLauncher: @unchecked Sendable {
    /// The program name.
    public static let programName = "openurl-chooser"
    /// The chooser's path.
    public let executable: String
    /// Seconds before an unanswered window is closed.
    public var timeout: Double
    private let loop: EventLoop
    private var busy = false
    private var waiting: [() -> Void] = []

    /// A launcher for the chooser at `executable`.
    public init(executable: String, loop: EventLoop, timeout: Double = 120) {
        self.executable = executable
        self.loop = loop
        self.timeout = timeout
    }

    /// The chooser beside the running executable (an install or a build directory), else on `PATH`.
    public static func locate(environment: [String: String]) -> String? {
        if let own = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let beside = (own as NSString).deletingLastPathComponent + "/" + programName
            if access(beside, X_OK) == 0 { return beside }
        }
        return ProcessLauncher.resolve(programName, environment: environment)
    }

    /// True when `environment` has a display the window can appear on.
    public static func hasDisplay(_ environment: [String: String]) -> Bool {
        !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || !(environment["DISPLAY"] ?? "").isEmpty
    }

    /// The chooser's arguments for `request`.
    public func arguments(for request: AskRequest) -> [String] {
        var argv = [executable, "--url", request.decision.finalURL]
        if request.decision.url != request.decision.finalURL { argv += ["--original", request.decision.url] }
        if let opener = request.opener, !opener.isEmpty { argv += ["--opener", opener] }
        for (index, choice) in request.decision.choices.enumerated() {
            let clean = { (text: String) in String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 }) }
            let label = index < request.labels.count ? request.labels[index] : choice.description
            let icon = index < request.icons.count ? request.icons[index] : ""
            argv += ["--choice", "\(choice.description)\t\(clean(label))\t\(clean(icon))"]
        }
        return argv
    }

    /// Shows the window for `request` with `environment`; `answer` runs on the loop's thread for each
    /// answer, the last one being a choice without `keepAsking`, `.cancelled`, `.expired` or
    /// `.unavailable` (the window could not be started).
    public func show(_ request: AskRequest, environment: [String: String], answer: @escaping (AskAnswer) -> Void) {
        let start = { [weak self] in
            guard let self else { return }
            self.busy = true
            self.run(request, environment: environment) { [weak self] reply in
                answer(reply)
                if case .chosen(_, _, _, true) = reply { return }
                self?.finished()
            }
        }
        if busy { waiting.append(start) } else { start() }
    }

    private func finished() {
        busy = false
        if !waiting.isEmpty { waiting.removeFirst()() }
    }

    private func run(_ request: AskRequest, environment: [String: String], answer: @escaping (AskAnswer) -> Void) {
        let argv = arguments(for: request)
        let env = ProcessLauncher.environment(environment, activationToken: request.activationToken)
        let choices = request.decision.choices
        let timeout = self.timeout
        let loop = self.loop
        var outPipe: [Int32] = [-1, -1]
        let pid: pid_t
        do {
            try ProcessLauncher.makePipe(&outPipe)
            pid = try ProcessLauncher().spawnRedirected(argv, environment: env, stdin: nil, stdout: outPipe[1])
        } catch {
            outPipe.filter { $0 >= 0 }.forEach { close($0) }
            return answer(.unavailable("the chooser window could not start: \(error)"))
        }
        close(outPipe[1])
        let readEnd = outPipe[0]
        let thread = Thread {
            var finished = false
            var shown = false
            Self.readAnswers(fd: readEnd, pid: pid, timeout: timeout) { line in
                if line.hasPrefix("{\"event\":\"shown\"") { shown = true }
                guard let reply = Self.parse(line, choices: choices) else { return }
                if case .chosen(_, _, _, true) = reply {} else { finished = true }
                loop.perform { answer(reply) }
            } ended: { expired in
                guard !finished else { return }
                finished = true
                let reply: AskAnswer = expired ? .expired : shown ? .cancelled : .unavailable("the chooser window exited before showing itself (see the log for why)")
                loop.perform { answer(reply) }
            }
            close(readEnd)
        }
        thread.name = "openurld-chooser"
        thread.start()
    }

    /// Reads lines until end of file or `timeout`, killing the window at the timeout.
    private static func readAnswers(fd: Int32, pid: pid_t, timeout: Double, line: (String) -> Void, ended: (Bool) -> Void) {
        let deadline = Date().addingTimeInterval(timeout)
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                kill(pid, SIGTERM)
                _ = ChildReaper.waitForExit(pid, timeout: 1)
                kill(pid, SIGKILL)
                return ended(true)
            }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0, errno != EINTR { break }
            guard ready > 0 else { continue }
            let count = read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: 0x0A) {
                line(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
            if pending.count > 1 << 20 { break }  // not a chooser talking
        }
        ended(false)
    }

    /// One answer line; nil for a line that is not one (logged by nobody: the chooser is ours).
    static func parse(_ line: String, choices: [AskChoice]) -> AskAnswer? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
              let kind = object["answer"] as? String else { return nil }
        guard kind == "choose" else { return kind == "cancel" ? .cancelled : nil }
        guard let key = object["choice"] as? String else { return nil }
        // Ctrl+C copies whatever the rule offered.
        guard let choice = choices.first(where: { $0.description == key }) ?? (key == "copy" ? .copy : nil) else { return nil }
        var remember: RememberRequest?
        if let fields = object["remember"] as? [String: Any], let scope = fields["scope"] as? String, let value = fields["value"] as? String {
            remember = RememberRequest(scope: scope, value: value)
        }
        return .chosen(choice, url: object["url"] as? String, remember: remember, keepAsking: object["keep"] as? Bool ?? false)
    }
}

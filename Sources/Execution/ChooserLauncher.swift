import Launching
import DBus
import Platform
import Routing
import JSON

/// Runs `openurl-chooser`, the GTK window for `ask`, one question at a time: a question asked
/// while a window is open waits for it to close, then gets its own window.
///
/// The chooser runs as a server (`openurl-chooser --serve`): started for the first question and
/// kept for `keepAlive` seconds after the last, so later questions cost a window, not a GTK start.
/// Each question is one JSON line on its stdin (`question(for:)`); it prints `{"event":"shown"}`
/// once the window is mapped, then one JSON line per answer (`{"answer":"choose","index":0,
/// "choice":"firefox.desktop","url":…,"remember":{"scope":…,"value":…},"keep":true}` or
/// `{"answer":"cancel"}`). A thread reads them and hands each to the daemon's loop.
/// A chooser that exits before showing the window (no display it can open, GTK missing) could not
/// ask, and the question goes to the next way of asking; one that exits after is a cancel; no
/// answer within `timeout` closes it and counts as expired.
public final class ChooserLauncher: @unchecked Sendable {
    /// The program name.
    public static let programName = "openurl-chooser"
    /// The chooser's path.
    public let executable: String
    /// Seconds before an unanswered window is closed.
    public var timeout: Double
    /// Seconds an idle chooser process is kept for the next question.
    public var keepAlive: Double = 600
    private let loop: EventLoop
    private var server: Server?
    private var active: Active?
    private var waiting: [() -> Void] = []
    private var idleTimer: EventLoopToken?
    private var nextServerID = 0

    /// A running `openurl-chooser --serve`.
    private struct Server {
        var id: Int
        var pid: Int32
        var input: Int32
        var display: String
    }

    /// The question being shown.
    private struct Active {
        var serverID: Int
        var choices: [Choice]
        var answer: (AskAnswer) -> Void
        var shown = false
        var timer: EventLoopToken?
    }

    /// A launcher for the chooser at `executable`.
    public init(executable: String, loop: EventLoop, timeout: Double = 120) {
        self.executable = executable
        self.loop = loop
        self.timeout = timeout
    }

    deinit { stopServer() }

    /// The chooser beside the running executable (an install or a build directory), else on `PATH`.
    public static func locate(environment: [String: String]) -> String? {
        if let own = try? FileSystem.symbolicLinkTarget("/proc/self/exe") {
            let beside = Path.parent(own) + "/" + programName
            if FileSystem.isExecutable(beside) { return beside }
        }
        return ProcessLauncher.resolve(programName, environment: environment)
    }

    /// True when `environment` has a display the window can appear on.
    public static func hasDisplay(_ environment: [String: String]) -> Bool {
        !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || !(environment["DISPLAY"] ?? "").isEmpty
    }

    /// The question line for `request`: the link, the original, the opener, the decision's safety
    /// verdict and each choice with its label and icon, all JSON strings (a tab or newline in a
    /// label survives).
    public static func question(for request: AskRequest) -> JSONValue {
        var members: [(String, JSONValue)] = [("url", .string(request.decision.finalURL))]
        if request.decision.url != request.decision.finalURL { members.append(("original", .string(request.decision.url))) }
        if let opener = request.opener, !opener.isEmpty { members.append(("opener", .string(opener))) }
        members.append(("safety", request.decision.safety.json))
        members.append(("choices", .array(request.choices.map { choice in
            .object([("key", .string(choice.key)), ("label", .string(choice.label)), ("icon", .string(choice.icon))])
        })))
        members.append(("token", .string(request.activationToken ?? "")))
        return .object(members)
    }

    /// Shows the window for `request` with `environment`; `answer` runs on the loop's thread for each
    /// answer, the last one being a choice without `keepAsking`, `.cancelled`, `.expired` or
    /// `.unavailable` (the window could not be shown). Call on the loop's thread.
    public func show(_ request: AskRequest, environment: [String: String], answer: @escaping (AskAnswer) -> Void) {
        if active != nil {
            waiting.append { [weak self] in self?.show(request, environment: environment, answer: answer) }
            return
        }
        if let idleTimer { loop.remove(idleTimer) }
        idleTimer = nil
        let display = (environment["WAYLAND_DISPLAY"] ?? "") + "|" + (environment["DISPLAY"] ?? "")
        if let server, server.display != display { stopServer() }
        if server == nil {
            do { server = try startServer(environment: environment, display: display) } catch {
                return answer(.unavailable("the chooser window could not start: \(error)"))
            }
        }
        guard let server else { return }
        let line = Self.question(for: request).text + "\n"
        active = Active(serverID: server.id, choices: request.choices, answer: answer)
        active?.timer = loop.addTimer(after: timeout) { [weak self] in
            guard let self, self.active?.serverID == server.id else { return }
            self.stopServer()
            self.complete(.expired)
        }
        ProcessLauncher.writeAll(Array(line.utf8), to: server.input)
    }

    private func startServer(environment: [String: String], display: String) throws -> Server {
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1]
        try ProcessLauncher.makePipe(&inPipe)
        do { try ProcessLauncher.makePipe(&outPipe) } catch { inPipe.forEach(ChildIO.close); throw error }
        let env = ProcessLauncher.environment(environment, activationToken: nil)
        let pid: Int32
        do {
            pid = try ProcessLauncher().spawnRedirected([executable, "--serve"], environment: env, stdin: inPipe[0], stdout: outPipe[1])
        } catch {
            (inPipe + outPipe).forEach(ChildIO.close)
            throw error
        }
        ChildIO.close(inPipe[0])
        ChildIO.close(outPipe[1])
        nextServerID += 1
        let id = nextServerID
        let readEnd = outPipe[0]
        let loop = self.loop
        BackgroundThread.start(name: "openurld-chooser") { [weak self] in
            Self.readLines(fd: readEnd) { line in
                loop.perform { self?.received(line, from: id) }
            }
            ChildIO.close(readEnd)
            loop.perform { self?.serverEnded(id) }
        }
        return Server(id: id, pid: pid, input: inPipe[1], display: display)
    }

    private func received(_ line: String, from id: Int) {
        guard let active, active.serverID == id else { return }
        if line.hasPrefix("{\"event\":\"shown\"") {
            self.active?.shown = true
            return
        }
        guard let reply = Self.parse(line, choices: active.choices) else { return }
        if case .chosen(_, _, _, true) = reply { return active.answer(reply) }
        complete(reply)
    }

    private func serverEnded(_ id: Int) {
        if server?.id == id {
            ChildIO.close(server?.input ?? -1)
            server = nil
        }
        guard let active, active.serverID == id else { return }
        complete(active.shown ? .cancelled : .unavailable("the chooser window exited before showing itself (see the log for why)"))
    }

    /// Ends the active question with `reply`, then keeps the server for a while and asks the next.
    private func complete(_ reply: AskAnswer) {
        guard let finished = active else { return }
        active = nil
        if let timer = finished.timer { loop.remove(timer) }
        finished.answer(reply)
        if server != nil {
            idleTimer = loop.addTimer(after: keepAlive) { [weak self] in
                self?.idleTimer = nil
                if self?.active == nil { self?.stopServer() }
            }
        }
        if !waiting.isEmpty { waiting.removeFirst()() }
    }

    /// Closes the server's stdin (it exits on end of file) and makes sure it goes.
    private func stopServer() {
        guard let server else { return }
        self.server = nil
        ChildIO.close(server.input)
        ChildIO.terminate(server.pid)
    }

    /// Reads lines until end of file.
    private static func readLines(fd: Int32, _ line: (String) -> Void) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard case .bytes(let count) = ChildIO.read(fd, into: &buffer) else { return }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: 0x0A) {
                line(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
            if pending.count > 1 << 20 { return }  // not a chooser talking
        }
    }

    /// One answer line; nil for a line that is not one (logged by nobody: the chooser is ours).
    static func parse(_ line: String, choices: [Choice]) -> AskAnswer? {
        guard let object = try? JSONValue(parsing: line), let kind = object["answer"]?.string else { return nil }
        guard kind == "choose" else { return kind == "cancel" ? .cancelled : nil }
        let choice: Choice
        if let index = object["index"]?.integer {
            guard choices.indices.contains(index) else { return nil }
            choice = choices[index]
        } else {
            // Ctrl+C copies the link even where the question offered no Copy.
            guard object["choice"]?.string == "copy" else { return nil }
            choice = Choice(action: .copy, label: "Copy", icon: "edit-copy")
        }
        var remember: RememberRequest?
        if let fields = object["remember"], let scope = fields["scope"]?.string, let value = fields["value"]?.string {
            remember = RememberRequest(scope: scope, value: value)
        }
        return .chosen(choice, url: object["url"]?.string, remember: remember, keepAsking: object["keep"]?.bool ?? false)
    }
}

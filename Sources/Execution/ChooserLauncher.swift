import Launching
import DBus
import Platform
import JSON
import RoutingCore
import RouterContract

/// Runs `openurl-chooser`, the GTK window for `ask`, one question at a time: a question asked
/// while a window is open waits for it to close, then gets its own window.
///
/// The chooser runs as a server (`openurl-chooser --serve`): started for the first question and
/// kept for `keepAlive` seconds after the last (`[settings] chooser_idle`), so later questions
/// cost a window, not a GTK start. The lines it reads and writes are in `ChooserProtocol.swift`;
/// a thread reads them and hands each to the daemon's loop.
///
/// Time runs from the click: a question whose `expires` passes, queued or shown, is `.expired`
/// (its window is closed, the chooser kept; a queued one with under a second left when its turn
/// comes gets no window). A chooser that fails is a failure to ask, never an
/// answer (`.unavailable`, and the question goes to the next way of asking): one that exits
/// without answering (it crashed, or was killed), or does not show its window within
/// `showDeadline`, or, while a window is up, does not answer a ping within `pingDeadline`
/// (frozen: `SIGSTOP`, a hang). A chooser that does not answer is killed (`SIGKILL`, which a
/// stopped process cannot ignore) before anything else is shown, so one question never has two
/// windows. The heartbeat outlasts a question whose time ran out: its close is followed by a ping,
/// and a chooser that does not answer it is killed, so a frozen window cannot stay on screen
/// while no other question needs the chooser.
public final class ChooserLauncher: @unchecked Sendable {
    /// The program name.
    public static let programName = "openurl-chooser"
    /// The chooser's path.
    public let executable: String
    /// Seconds an idle chooser process is kept for the next question (0: one per question),
    /// read when it falls idle (`[settings] chooser_idle` of the rules in force).
    private let keepAlive: () -> Double
    /// Seconds a chooser has to map a question's window: one that starts GTK first, one running.
    public var showDeadline: (starting: Double, running: Double) = (10, 5)
    /// While a window is up, the chooser is pinged this often and must answer within `pingDeadline`.
    public var pingInterval = 2.0
    /// Seconds a chooser has to answer a ping.
    public var pingDeadline = 3.0
    /// A queued question with less time than this left when its turn comes gets no window.
    static let minimumWindowSeconds = 1.0

    private let loop: EventLoop
    private var server: Server?
    private var active: Active?
    private var waiting: [Queued] = []
    /// A window closed unanswered (its time ran out) whose chooser has yet to confirm it is gone.
    private var closing: Closing?
    private var idleTimer: EventLoopToken?
    private var nextServerID = 0
    private var nextQuestionID = 0

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
        var questionID: Int
        var answer: (AskAnswer) -> Void
        /// What `begin` was given: the choices an answer is read against, and for the one
        /// restart of a chooser that exits unshown.
        var request: AskRequest
        var environment: [String: String]
        var restarted: Bool
        var shown = false
        var expiry: EventLoopToken?
        /// The deadline for the window to appear, or for the chooser to answer the last ping.
        var watchdog: EventLoopToken?
        /// When the next ping goes.
        var ping: EventLoopToken?
    }

    /// The heartbeat after a close: the chooser must answer the ping sent behind `{"close":ID}`
    /// (it reads lines in order, so the pong says the window is down) within `pingDeadline`.
    private struct Closing {
        var serverID: Int
        var questionID: Int
        var watchdog: EventLoopToken
    }

    /// A question waiting for the window.
    private final class Queued {
        let request: AskRequest
        let environment: [String: String]
        let answer: (AskAnswer) -> Void
        var expiry: EventLoopToken?

        init(request: AskRequest, environment: [String: String], answer: @escaping (AskAnswer) -> Void) {
            self.request = request
            self.environment = environment
            self.answer = answer
        }
    }

    /// A launcher for the chooser at `executable`, keeping an idle one for `keepAlive()` seconds.
    public init(executable: String, loop: EventLoop, keepAlive: @escaping () -> Double = { 600 }) {
        self.keepAlive = keepAlive
        self.executable = executable
        self.loop = loop
    }

    deinit { stopServer(kill: false) }

    /// The questions waiting for the window (not counting the one shown).
    public var queuedCount: Int { waiting.count }

    /// Shows the window for `request` with `environment`; `answer` runs on the loop's thread for each
    /// answer, the last one being a choice without `keepAsking`, `.cancelled`, `.expired` or
    /// `.unavailable` (the window could not be shown, or the chooser failed). Call on the loop's thread.
    public func show(_ request: AskRequest, environment: [String: String], answer: @escaping (AskAnswer) -> Void) {
        if request.remainingSeconds == 0 { return answer(.expired) }
        guard active == nil else {
            let queued = Queued(request: request, environment: environment, answer: answer)
            if let remaining = request.remainingSeconds {
                queued.expiry = loop.addTimer(after: remaining) { [weak self, weak queued] in
                    guard let self, let queued, let index = self.waiting.firstIndex(where: { $0 === queued }) else { return }
                    self.waiting.remove(at: index)
                    queued.answer(.expired)
                }
            }
            waiting.append(queued)
            return
        }
        begin(request, environment: environment, answer: answer)
    }

    /// Takes the window and the chooser down and forgets every question without answering it
    /// (the daemon is stopping; they are recorded as interrupted).
    public func shutDown() {
        for queued in waiting { if let timer = queued.expiry { loop.remove(timer) } }
        waiting = []
        if let active { cancelTimers(active) }
        active = nil
        stopServer(kill: true)  // and the closing watchdog
    }

    private func begin(_ request: AskRequest, environment: [String: String], restarted: Bool = false,
                       answer: @escaping (AskAnswer) -> Void) {
        if let idleTimer { loop.remove(idleTimer) }
        idleTimer = nil
        let display = (environment["WAYLAND_DISPLAY"] ?? "") + "|" + (environment["DISPLAY"] ?? "")
        if let server, server.display != display { stopServer(kill: false) }
        let starting = server == nil
        if server == nil {
            do { server = try startServer(environment: environment, display: display) } catch {
                return answer(.unavailable("the chooser window could not start: \(error)"))
            }
        }
        guard let server else { return }
        nextQuestionID += 1
        let questionID = nextQuestionID
        var shown = Active(serverID: server.id, questionID: questionID, answer: answer,
                           request: request, environment: environment, restarted: restarted)
        if let remaining = request.remainingSeconds {
            shown.expiry = loop.addTimer(after: remaining) { [weak self] in self?.expire(questionID) }
        }
        let deadline = starting ? showDeadline.starting : showDeadline.running
        shown.watchdog = loop.addTimer(after: deadline) { [weak self] in
            self?.unresponsive(questionID, "did not show its window within \(Self.seconds(deadline))")
        }
        active = shown
        send(Self.question(for: request, id: questionID).text + "\n", to: server)
    }

    /// Asks the next queued question, answering those whose time ran out while they waited.
    private func startNext() {
        while active == nil, !waiting.isEmpty {
            let queued = waiting.removeFirst()
            if let timer = queued.expiry { loop.remove(timer) }
            // A window for less than a second is a flash nobody can answer: it expires unseen.
            if let remaining = queued.request.remainingSeconds, remaining < Self.minimumWindowSeconds {
                queued.answer(.expired)
                continue
            }
            begin(queued.request, environment: queued.environment, answer: queued.answer)
        }
        guard active == nil, waiting.isEmpty, server != nil, idleTimer == nil else { return }
        let keepAlive = self.keepAlive()
        guard keepAlive > 0 else { return stopServer(kill: false) }
        idleTimer = loop.addTimer(after: keepAlive) { [weak self] in
            self?.idleTimer = nil
            if self?.active == nil { self?.stopServer(kill: false) }
        }
    }

    private func startServer(environment: [String: String], display: String) throws -> Server {
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1]
        try ProcessLauncher.makePipe(&inPipe)
        do { try ProcessLauncher.makePipe(&outPipe) } catch { inPipe.forEach(ChildIO.close); throw error }
        let env = ProcessLauncher.environment(environment, activationToken: nil)
        let pid: Int32
        do {
            // Spawned on the loop's thread, which lives as long as the daemon: tied to it (see QuestionChildren).
            pid = try QuestionChildren.shared.spawn([executable, "--serve"], environment: env, stdin: inPipe[0], stdout: outPipe[1])
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

    private func send(_ line: String, to server: Server) {
        // A chooser that is gone is found by its end of file; one that is frozen, by its deadline.
        ProcessLauncher.writeAll(Array(line.utf8), to: server.input)
    }

    private func received(_ line: String, from serverID: Int) {
        if let closing, closing.serverID == serverID, case .pong(closing.questionID)? = Self.read(line, choices: []) {
            loop.remove(closing.watchdog)
            self.closing = nil
            return
        }
        guard let active, active.serverID == serverID, let read = Self.read(line, choices: active.request.choices) else { return }
        switch read {
        case .shown(let id) where id == nil || id == active.questionID:
            // Mapped in time: from now on the pings tell whether it still answers.
            if let watchdog = active.watchdog { loop.remove(watchdog) }
            self.active?.watchdog = nil
            self.active?.shown = true
            schedulePing()
        case .pong(let id) where id == active.questionID:
            if let watchdog = active.watchdog { loop.remove(watchdog) }
            self.active?.watchdog = nil
            schedulePing()
        case .answer(let reply, let id) where id == nil || id == active.questionID:
            if case .chosen(_, _, _, true) = reply { return active.answer(reply) }
            complete(reply)
        default:
            return  // a line about an earlier question
        }
    }

    /// While the window is up: ping in `pingInterval`, and count the chooser frozen when it does
    /// not answer within `pingDeadline`.
    private func schedulePing() {
        guard let active, let server, server.id == active.serverID else { return }
        if let ping = active.ping { loop.remove(ping) }
        let questionID = active.questionID
        self.active?.ping = loop.addTimer(after: pingInterval) { [weak self] in
            guard let self, let current = self.active, current.questionID == questionID, let server = self.server else { return }
            self.active?.ping = nil
            if let watchdog = current.watchdog { self.loop.remove(watchdog) }
            self.active?.watchdog = self.loop.addTimer(after: self.pingDeadline) { [weak self] in
                guard let self else { return }
                self.unresponsive(questionID, "stopped answering (no reply within \(Self.seconds(self.pingDeadline)); frozen or stopped)")
            }
            self.send(Self.command(.ping(questionID)), to: server)
        }
    }

    /// The question's time ran out: its window goes, the chooser stays for the next one, if it
    /// confirms the close. The heartbeat goes on after the question: a chooser frozen with the
    /// window up would otherwise keep it on screen until another question needed the chooser.
    private func expire(_ questionID: Int) {
        guard let active, active.questionID == questionID else { return }
        if let server, server.id == active.serverID {
            send(Self.command(.close(questionID)) + Self.command(.ping(questionID)), to: server)
            if let closing { loop.remove(closing.watchdog) }
            let serverID = server.id
            let watchdog = loop.addTimer(after: pingDeadline) { [weak self] in self?.closeUnconfirmed(serverID: serverID) }
            closing = Closing(serverID: server.id, questionID: questionID, watchdog: watchdog)
        }
        complete(.expired)
    }

    /// The chooser did not confirm a close within `pingDeadline`: frozen with the window up. It is
    /// killed (`SIGKILL`: the window goes with it) and a question it has since been given moves on.
    private func closeUnconfirmed(serverID: Int) {
        guard let closing, closing.serverID == serverID else { return }
        self.closing = nil
        let why = "stopped answering (no reply within \(Self.seconds(pingDeadline)) after question \(closing.questionID)'s time ran out; frozen or stopped)"
        if let active, active.serverID == serverID { return unresponsive(active.questionID, why) }
        guard let server, server.id == serverID else { return }
        Log.warning("the chooser window \(why); killed it (pid \(server.pid))")
        stopServer(kill: true)
    }

    /// The chooser did not do what it must in time: kill it for good, and ask another way.
    private func unresponsive(_ questionID: Int, _ why: String) {
        guard let active, active.questionID == questionID else { return }
        let pid = server?.pid
        stopServer(kill: true)
        complete(.unavailable("the chooser window \(why); killed it (pid \(pid.map(String.init) ?? "?"))"))
    }

    private func serverEnded(_ id: Int) {
        if let ended = server, ended.id == id {
            ChildIO.close(ended.input)
            QuestionChildren.shared.ended(ended.pid)
            server = nil
        }
        guard let active, active.serverID == id else { return }
        // A chooser that exits before showing its window gets one more start (what it wrote is
        // on the daemon's stderr): a start that failed on something passing, such as the display
        // or the bus it raced with, does not cost the question its window.
        if !active.shown, !active.restarted {
            Log.warning("the chooser window exited before showing itself (its output is on the daemon's stderr); starting it again")
            cancelTimers(active)
            self.active = nil
            return begin(active.request, environment: active.environment, restarted: true, answer: active.answer)
        }
        complete(.unavailable(active.shown ? "the chooser window went away without an answer (it crashed or was killed)"
                                           : "the chooser window exited before showing itself, twice (its output is on the daemon's stderr)"))
    }

    /// Ends the active question with `reply`, then asks the next or keeps the server for a while.
    private func complete(_ reply: AskAnswer) {
        guard let finished = active else { return }
        active = nil
        cancelTimers(finished)
        finished.answer(reply)
        startNext()
    }

    private func cancelTimers(_ question: Active) {
        for timer in [question.expiry, question.watchdog, question.ping].compactMap({ $0 }) { loop.remove(timer) }
    }

    /// Closes the server's stdin (it exits on end of file) and makes sure it goes: `kill` with
    /// `SIGKILL` for one that does not answer (a stopped process holds its window until then).
    private func stopServer(kill: Bool) {
        if let idleTimer { loop.remove(idleTimer) }
        idleTimer = nil
        if let closing { loop.remove(closing.watchdog) }
        closing = nil
        guard let server else { return }
        self.server = nil
        ChildIO.close(server.input)
        QuestionChildren.shared.ended(server.pid)
        if kill { ChildIO.killWithGroup(server.pid) } else { ChildIO.terminate(server.pid) }
    }
}

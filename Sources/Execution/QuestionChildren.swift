import Launching
import Platform

/// The processes the daemon starts to ask a question (pickers, the chooser), so that none
/// outlives it: a prompt left on screen by a daemon that is gone would be answered for nobody,
/// and the next daemon asks again, so the user would see the question twice.
///
/// Two guards, because a daemon can end in two ways:
/// - it stops (`SIGTERM`, logout, a replacement, a lost bus): the shutdown path calls `endAll()`,
///   which kills each child's process group (spawned children lead their own session, so this
///   takes whatever the picker started too);
/// - it is killed or crashes, and runs no code: with `tie(through:)` set (the daemon sets it to
///   its own binary), children are spawned through `ParentDeath`'s wrapper and the kernel kills
///   them (`PR_SET_PDEATHSIG`). The chooser also exits when its stdin closes, which needs it to be
///   running; the kernel's signal reaches a stopped one too.
/// A record in the state directory, killed by the next daemon, was the other way considered: it
/// leaves the prompt on screen until a next daemon starts (perhaps never) and risks killing a
/// stranger that reused the pid; the kernel's signal is immediate and exact.
public final class QuestionChildren: Sendable {
    /// The daemon's one set.
    public static let shared = QuestionChildren()

    private struct State {
        var wrapper: String?
        var running: Set<Int32> = []
    }
    private let state = Lock(State())

    /// An empty set; children are not tied until `tie(through:)`.
    public init() {}

    /// From now on children are spawned through `executable` (this process's own multi-call
    /// binary, `/proc/self/exe`), which ties them to this process. Only the daemon calls it: a test
    /// runner's own binary is no wrapper.
    public func tie(through executable: String = "/proc/self/exe") {
        state.withLock { $0.wrapper = executable }
    }

    /// Spawns `argv` as a question's child (see `ProcessLauncher.spawnRedirected`) and remembers it
    /// until `ended(_:)`. Call from a thread that outlives the child (the kernel's signal follows the
    /// spawning thread).
    func spawn(_ argv: [String], environment: [String: String], stdin: Int32, stdout: Int32) throws -> Int32 {
        let wrapper = state.withLock { $0.wrapper }
        let pid = try ProcessLauncher().spawnRedirected(argv, environment: environment, stdin: stdin, stdout: stdout, tiedThrough: wrapper)
        state.withLock { _ = $0.running.insert(pid) }
        return pid
    }

    /// `pid` is done with (answered, killed, exited): `endAll()` leaves it alone.
    func ended(_ pid: Int32) {
        state.withLock { _ = $0.running.remove(pid) }
    }

    /// The pids still running, for the log.
    public var running: [Int32] { state.withLock { $0.running.sorted() } }

    /// Kills every child still running, with its process group (`SIGKILL`: a stopped picker
    /// cannot ignore it); the daemon is stopping and nobody would read their answers.
    public func endAll() {
        let pids = state.withLock { state in
            defer { state.running = [] }
            return state.running
        }
        for pid in pids { ChildIO.killWithGroup(pid) }
    }
}

import Glibc

/// Starting programs with `posix_spawn`: argv only (never a shell), an explicit environment, a
/// new session, default signal handling, chosen standard descriptors and nothing else inherited.
public enum ProcessSpawn {
    /// glibc's `POSIX_SPAWN_SETSID` (the macro does not import into Swift).
    static let setsid: Int32 = 0x80

    /// `posix_spawn_file_actions_addclosefrom_np` and `…_addchdir_np` (glibc ≥ 2.34 and 2.29):
    /// declared only under `_GNU_SOURCE`, which the Glibc module lacks, so found at run time.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }
    private static let addChdir: AddChdir? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: AddChdir.self) }

    /// A process writing to a pipe whose reader died must get `EPIPE`, not be killed by SIGPIPE;
    /// children get default dispositions back. Done once, however often it is called.
    public static func ignoreBrokenPipes() { _ = ignoreSigpipeOnce }
    private static let ignoreSigpipeOnce: Void = { signal(SIGPIPE, SIG_IGN); return () }()

    /// Spawns the program at `path` with `argv` and exactly `environment`; `stdin` nil reads
    /// `/dev/null`, `stdout` and `stderr` nil are inherited; `workingDirectory` nil keeps ours.
    /// Descriptors from 3 up are closed in the child. Returns the child's pid; the error's
    /// code is posix_spawn's.
    public static func spawn(path: String, argv: [String], environment: [String: String], stdin: Int32? = nil,
                             stdout: Int32? = nil, stderr: Int32? = nil, workingDirectory: String? = nil) throws(SystemError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) }
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr, 2) }
        if let workingDirectory { _ = addChdir?(&actions, workingDirectory) }
        // Our sockets (the D-Bus connection, inotify, pipe ends) must not leak into long-lived children.
        _ = addCloseFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        let flags = setsid | Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgv.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        var result = posix_spawn(&pid, path, &actions, &attributes, cArgv, cEnv)
        // ETXTBSY: a script written a moment ago can still be open for writing in a child that
        // another thread forked before its exec closed the descriptor; it clears in microseconds.
        var retries = 0
        while result == ETXTBSY && retries < 20 {
            pause(microseconds: 5_000)
            retries += 1
            result = posix_spawn(&pid, path, &actions, &attributes, cArgv, cEnv)
        }
        guard result == 0 else { throw SystemError(operation: "posix_spawn", path: path, code: result) }
        return pid
    }
}

/// Waiting for, reaping and signalling child processes.
public enum ChildProcesses {
    /// How a child is doing, asked without blocking.
    public enum Status: Equatable, Sendable {
        /// It exited with this code (128 + signal when killed); it is now reaped.
        case exited(Int32)
        /// It is still running.
        case running
        /// It is not (or no longer) our child: someone else reaped it.
        case gone
    }

    /// The exit code a raw wait status stands for: the code, or 128 + the signal that killed it.
    public static func exitCode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Makes this process the reaper of its orphaned descendants (`PR_SET_CHILD_SUBREAPER`);
    /// false when the kernel refused.
    public static func becomeSubreaper() -> Bool { ProcessControl.call(36, 1) == 0 }

    /// Collects every child that has exited, without blocking: their pids and raw wait statuses.
    public static func reapAll() -> [(pid: Int32, status: Int32)] {
        var reaped: [(pid: Int32, status: Int32)] = []
        while true {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            if pid > 0 { reaped.append((pid, status)); continue }
            if pid < 0, Glibc.errno == EINTR { continue }
            return reaped
        }
    }

    /// Waits up to `timeout` seconds for `pid` to exit: its exit code, or nil on timeout or when
    /// it is not our child (already reaped).
    public static func waitForExit(_ pid: Int32, timeout: Double) -> Int32? {
        let deadline = Deadline(after: timeout)
        repeat {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return exitCode(status) }
            if result < 0, Glibc.errno != EINTR { return nil }
            pause(microseconds: 2_000)
        } while !deadline.hasPassed
        return nil
    }

    /// Whether `pid` has exited, reaping it if so; never blocks.
    public static func status(of pid: Int32) -> Status {
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return .exited(exitCode(status)) }
            if result == 0 { return .running }
            if Glibc.errno == EINTR { continue }
            return .gone
        }
    }

    /// Blocks until `pid` exits and reaps it.
    public static func waitUntilExited(_ pid: Int32) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, Glibc.errno == EINTR {}
    }

    /// Kills `pid` and its process group (spawned children lead their own session) with SIGKILL.
    public static func killWithGroup(_ pid: Int32) {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
    }

    /// Asks `pid` to finish (SIGTERM), waking it first if it was stopped (SIGSTOP), so it can.
    public static func terminate(_ pid: Int32) {
        kill(pid, SIGTERM)
        kill(pid, SIGCONT)
    }
}

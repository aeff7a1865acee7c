// The module's only Glibc import: process spawning, reaping, and the pipes, polls and waits around
// them (`ChildIO`, for the files that drive children). Files, clocks and the environment come from
// Platform.
import Glibc
import Platform
import CGIO

/// Why a spawn failed.
public enum SpawnError: Error, Equatable, CustomStringConvertible {
    /// The argv was empty.
    case emptyArgv
    /// The program was not found in `PATH` (from the environment given) or is not executable.
    case notFound(String)
    /// A system call failed with `errno`.
    case system(call: String, errno: Int32)

    /// A one-line explanation for logs and notifications.
    public var description: String {
        switch self {
        case .emptyArgv: return "nothing to run (empty command)"
        case .notFound(let program): return "\(program): command not found"
        case .system(let call, let code): return "\(call): \(String(cString: strerror(code)))"
        }
    }
}

/// Starts programs detached from the caller with `posix_spawn`: argv only (never a shell),
/// an explicit environment, a new session (`POSIX_SPAWN_SETSID`), default signal handling,
/// stdin from `/dev/null` or a pipe, and no inherited file descriptors beyond 0–2.
///
/// Foundation `Process` is deliberately not used: it waits on an inherited descriptor and hangs
/// when the child forks and keeps running (browsers, clipboard tools). Children must be reaped
/// with `ChildReaper`.
public struct ProcessLauncher: Sendable {
    /// glibc's `POSIX_SPAWN_SETSID` (the macro does not import into Swift).
    static let spawnSetsid: Int32 = 0x80

    /// The directory children start in; nil keeps ours. The daemon passes `$HOME`, so an app
    /// never inherits whatever directory the daemon was started from.
    public var workingDirectory: String?

    /// Creates a launcher whose children start in `workingDirectory` (ours when nil).
    public init(workingDirectory: String? = nil) { self.workingDirectory = workingDirectory }

    /// Adds the activation token under both names apps read: `XDG_ACTIVATION_TOKEN` (Wayland)
    /// and `DESKTOP_STARTUP_ID` (X11 startup notification). A nil or empty token removes both, so
    /// a stale token from our own environment is never passed on.
    public static func environment(_ base: [String: String], activationToken: String?) -> [String: String] {
        var env = base
        if let token = activationToken, !token.isEmpty {
            env["XDG_ACTIVATION_TOKEN"] = token
            env["DESKTOP_STARTUP_ID"] = token
        } else {
            env["XDG_ACTIVATION_TOKEN"] = nil
            env["DESKTOP_STARTUP_ID"] = nil
        }
        return env
    }

    /// Resolves `program` against the `PATH` in `environment` (not our own `PATH`), as `execvp` would.
    public static func resolve(_ program: String, environment: [String: String]) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (dir.isEmpty ? "." : String(dir)) + "/" + program
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Spawns `argv` with exactly `environment`; when `stdin` is given it is written to the child's
    /// standard input through a pipe which is then closed, otherwise stdin is `/dev/null`.
    /// Returns the child's pid. Stdout and stderr are inherited.
    @discardableResult
    public func spawn(_ argv: [String], environment: [String: String], stdin input: [UInt8]? = nil) throws -> pid_t {
        try spawnFeeding(argv, environment: environment, stdin: input).pid
    }

    /// `spawn`, also saying how many bytes of `stdin` the child took: writing stops when the
    /// child closes its input (or exits) or takes nothing for `stall` seconds, so a command that
    /// never reads cannot hold the caller for long.
    public func spawnFeeding(_ argv: [String], environment: [String: String], stdin input: [UInt8]?,
                             stall: Double = 1) throws -> (pid: pid_t, written: Int) {
        var pipeEnds: [Int32] = [-1, -1]
        if input != nil {
            try Self.makePipe(&pipeEnds)
        }
        let pid: pid_t
        do {
            pid = try spawnRedirected(argv, environment: environment, stdin: input != nil ? pipeEnds[0] : nil)
        } catch {
            if input != nil { close(pipeEnds[0]); close(pipeEnds[1]) }
            throw error
        }
        var written = 0
        if let input {
            close(pipeEnds[0])
            written = Self.writeAll(input, to: pipeEnds[1], stall: stall)
            close(pipeEnds[1])
        }
        return (pid, written)
    }

    /// Spawns with the given descriptors as the child's stdin/stdout/stderr (nil: `/dev/null`
    /// for stdin, inherited for stdout and stderr). The caller keeps and closes its descriptors.
    package func spawnRedirected(_ argv: [String], environment: [String: String], stdin: Int32? = nil,
                         stdout: Int32? = nil, stderr: Int32? = nil) throws -> pid_t {
        guard let program = argv.first, !program.isEmpty else { throw SpawnError.emptyArgv }
        guard let path = Self.resolve(program, environment: environment) else { throw SpawnError.notFound(program) }
        Self.ignoreSigpipeOnce

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
        if let workingDirectory { openurld_spawn_addchdir(&actions, workingDirectory) }
        // Our sockets (the D-Bus connection, inotify, pipe ends) must not leak into long-lived children.
        openurld_spawn_addclosefrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        let flags = Self.spawnSetsid | Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
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
        guard result == 0 else { throw SpawnError.system(call: "posix_spawn \(program)", errno: result) }
        return pid
    }

    /// A pipe whose ends are close-on-exec (the child gets its end through dup2 only).
    package static func makePipe(_ ends: inout [Int32]) throws {
        guard pipe(&ends) == 0 else { throw SpawnError.system(call: "pipe", errno: errno) }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    }

    /// A daemon writing to a pipe whose reader died must get `EPIPE`, not be killed by SIGPIPE.
    /// Children get default dispositions back through `POSIX_SPAWN_SETSIGDEF`.
    static let ignoreSigpipeOnce: Void = { signal(SIGPIPE, SIG_IGN); return () }()

    /// Writes the bytes, giving up after a few seconds if the reader stops reading, so a stuck
    /// clipboard tool cannot hang the daemon.
    /// Writes `bytes` to the non-blocking `fd` until done, the reader goes away (EPIPE), or
    /// `stall` seconds pass with no progress; returns how many bytes were written.
    @discardableResult
    package static func writeAll(_ bytes: [UInt8], to fd: Int32, stall: Double = 1) -> Int {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var offset = 0
        var deadline = Deadline(after: stall)
        while offset < bytes.count, !deadline.hasPassed {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
                deadline = Deadline(after: stall)
                continue
            }
            if written < 0, errno != EAGAIN, errno != EINTR { return offset }
            var pollFD = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&pollFD, 1, 50)
        }
        return offset
    }
}

/// Reaps finished children so the daemon never accumulates zombies (PID 1 on some systems, and
/// in containers, does not reap orphans either: see `becomeSubreaper`).
public enum ChildReaper {
    /// Collects every child that has exited, without blocking; returns their pids and raw wait
    /// statuses. Safe to call from an event loop after SIGCHLD, or periodically.
    @discardableResult
    public static func reapAll() -> [(pid: pid_t, status: Int32)] {
        var reaped: [(pid: pid_t, status: Int32)] = []
        while true {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            if pid > 0 { reaped.append((pid, status)); continue }
            if pid < 0, errno == EINTR { continue }
            return reaped
        }
    }

    /// Waits up to `timeout` seconds for one child to exit; returns its exit code (128+signal when
    /// killed), or nil on timeout or when it is not our child (already reaped).
    public static func waitForExit(_ pid: pid_t, timeout: Double) -> Int32? {
        let deadline = Deadline(after: timeout)
        repeat {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let signal = status & 0x7f
                return signal == 0 ? (status >> 8) & 0xff : 128 + signal
            }
            if result < 0, errno != EINTR { return nil }
            pause(microseconds: 2_000)
        } while !deadline.hasPassed
        return nil
    }

    /// Makes this process the reaper for its orphaned descendants (`PR_SET_CHILD_SUBREAPER`), so
    /// a browser or `xclip` that daemonises is reparented to us and reaped by `reapAll` rather than
    /// left as a zombie under a PID 1 that never reaps. Returns false if the kernel refused.
    @discardableResult
    public static func becomeSubreaper() -> Bool {
        openurld_set_child_subreaper() == 0
    }
}

/// The raw descriptor and child calls of the code that drives children (CommandRunner, Clipboard,
/// Picker, ChooserLauncher), so Glibc is imported in this file alone.
package enum ChildIO {
    /// How one read ended.
    package enum ReadResult: Equatable {
        /// This many bytes are at the start of the buffer.
        case bytes(Int)
        /// The writer closed its end.
        case endOfFile
        /// Nothing to read now (a non-blocking descriptor).
        case wouldBlock
        /// The read failed.
        case failed
    }

    /// How waiting on descriptors ended.
    package enum PollResult: Equatable {
        /// At least one is ready.
        case ready
        /// None became ready in time (or a signal cut the wait short).
        case timedOut
        /// poll(2) failed.
        case failed
    }

    /// How a child is doing, asked without blocking.
    package enum Status: Equatable {
        /// It exited with this code (128 + signal when killed); it is now reaped.
        case exited(Int32)
        /// It is still running.
        case running
        /// It is not (or no longer) our child: someone else reaped it.
        case gone
    }

    /// Closes `fd` (nothing for -1).
    package static func close(_ fd: Int32) { if fd >= 0 { _ = Glibc.close(fd) } }

    /// Makes reads and writes on `fd` return at once instead of blocking.
    package static func setNonBlocking(_ fd: Int32) { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }

    /// One read into `buffer`, retried when a signal interrupts it.
    package static func read(_ fd: Int32, into buffer: inout [UInt8]) -> ReadResult {
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfFile }
            if errno == EINTR { continue }
            return errno == EAGAIN ? .wouldBlock : .failed
        }
    }

    /// One write of what fits: the count written, 0 when it would block or a signal interrupted
    /// it, nil when the reader is gone (EPIPE) or the write failed.
    package static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int? {
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written >= 0 { return written }
        return errno == EAGAIN || errno == EINTR ? 0 : nil
    }

    /// Waits up to `milliseconds` for one of `readable` to have input (or end of file) or one of
    /// `writable` to take output.
    @discardableResult
    package static func wait(readable: [Int32], writable: [Int32] = [], milliseconds: Int32) -> PollResult {
        var entries = readable.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            + writable.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
        let ready = poll(&entries, nfds_t(entries.count), milliseconds)
        if ready > 0 { return .ready }
        return ready == 0 || errno == EINTR ? .timedOut : .failed
    }

    /// Whether `pid` has exited, reaping it if so; never blocks.
    package static func status(of pid: Int32) -> Status {
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let signal = status & 0x7f
                return .exited(signal == 0 ? (status >> 8) & 0xff : 128 + signal)
            }
            if result == 0 { return .running }
            if errno == EINTR { continue }
            return .gone
        }
    }

    /// Blocks until `pid` exits and reaps it.
    package static func waitUntilExited(_ pid: Int32) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    /// Kills `pid` and its process group (spawned children lead their own session) with SIGKILL.
    package static func killWithGroup(_ pid: Int32) {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
    }

    /// Asks `pid` to finish (SIGTERM), waking it first if it was stopped (SIGSTOP), so it can.
    package static func terminate(_ pid: Int32) {
        kill(pid, SIGTERM)
        kill(pid, SIGCONT)
    }
}

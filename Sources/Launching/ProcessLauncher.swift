// Process spawning, reaping, and the pipes, polls and waits around them (`ChildIO`, for the files
// that drive children), over Platform's `ProcessSpawn`, `ChildProcesses` and `Descriptor`.
import Platform

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
        case .system(let call, let code): return SystemError(operation: call, path: nil, code: code).description
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
        if let token = usableToken(activationToken) {
            env["XDG_ACTIVATION_TOKEN"] = token
            env["DESKTOP_STARTUP_ID"] = token
        } else {
            env["XDG_ACTIVATION_TOKEN"] = nil
            env["DESKTOP_STARTUP_ID"] = nil
        }
        return env
    }

    /// Real activation tokens are a few dozen bytes; no app reads a longer one than this.
    public static let maximumTokenBytes = 4096

    /// The token as it may be passed on: nil for none, and for one so long (or holding a NUL)
    /// that the launch itself would fail (over 128 KiB, `execve` refused it: E2BIG). Dropping
    /// it costs only the window's focus; the link still opens.
    public static func usableToken(_ token: String?) -> String? {
        guard let token, !token.isEmpty else { return nil }
        guard token.utf8.count <= maximumTokenBytes, !token.utf8.contains(0) else {
            Log.warning("activation token of \(token.utf8.count) bytes dropped (at most \(maximumTokenBytes)): the app starts without it")
            return nil
        }
        return token
    }

    /// Resolves `program` against the `PATH` in `environment` (not our own `PATH`), as `execvp` would.
    public static func resolve(_ program: String, environment: [String: String]) -> String? {
        if program.contains("/") { return FileSystem.isExecutable(program) ? program : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (dir.isEmpty ? "." : String(dir)) + "/" + program
            if FileSystem.isRegularFile(candidate), FileSystem.isExecutable(candidate) {
                return candidate
            }
        }
        return nil
    }

    /// Spawns `argv` with exactly `environment`; when `stdin` is given it is written to the child's
    /// standard input through a pipe which is then closed, otherwise stdin is `/dev/null`.
    /// Returns the child's pid. Stdout and stderr are inherited.
    @discardableResult
    public func spawn(_ argv: [String], environment: [String: String], stdin input: [UInt8]? = nil) throws -> Int32 {
        try spawnFeeding(argv, environment: environment, stdin: input).pid
    }

    /// `spawn`, also saying how many bytes of `stdin` the child took: writing stops when the
    /// child closes its input (or exits) or takes nothing for `stall` seconds, so a command that
    /// never reads cannot hold the caller for long.
    public func spawnFeeding(_ argv: [String], environment: [String: String], stdin input: [UInt8]?,
                             stall: Double = 1) throws -> (pid: Int32, written: Int) {
        var pipeEnds: [Int32] = [-1, -1]
        if input != nil {
            try Self.makePipe(&pipeEnds)
        }
        let pid: Int32
        do {
            pid = try spawnRedirected(argv, environment: environment, stdin: input != nil ? pipeEnds[0] : nil)
        } catch {
            if input != nil { ChildIO.close(pipeEnds[0]); ChildIO.close(pipeEnds[1]) }
            throw error
        }
        var written = 0
        if let input {
            ChildIO.close(pipeEnds[0])
            written = Self.writeAll(input, to: pipeEnds[1], stall: stall)
            ChildIO.close(pipeEnds[1])
        }
        return (pid, written)
    }

    /// Spawns with the given descriptors as the child's stdin/stdout/stderr (nil: `/dev/null`
    /// for stdin, inherited for stdout and stderr). The caller keeps and closes its descriptors.
    /// With `tiedThrough` (this binary), the child runs through `ParentDeath`'s wrapper, so the
    /// kernel kills it when this process dies.
    package func spawnRedirected(_ argv: [String], environment: [String: String], stdin: Int32? = nil,
                         stdout: Int32? = nil, stderr: Int32? = nil, tiedThrough wrapper: String? = nil) throws -> Int32 {
        guard let program = argv.first, !program.isEmpty else { throw SpawnError.emptyArgv }
        guard let path = Self.resolve(program, environment: environment) else { throw SpawnError.notFound(program) }
        ProcessSpawn.ignoreBrokenPipes()
        let spawned = wrapper.map { ParentDeath.tiedArgv(argv, path: path, executable: $0) } ?? (path: path, argv: argv)
        do {
            return try ProcessSpawn.spawn(path: spawned.path, argv: spawned.argv, environment: environment, stdin: stdin, stdout: stdout,
                                          stderr: stderr, workingDirectory: workingDirectory)
        } catch {
            throw SpawnError.system(call: "posix_spawn \(program)", errno: error.code)
        }
    }

    /// A pipe whose ends are close-on-exec (the child gets its end through dup2 only).
    package static func makePipe(_ ends: inout [Int32]) throws {
        do {
            let pipe = try Descriptor.pipe()
            ends = [pipe.read, pipe.write]
        } catch {
            throw SpawnError.system(call: "pipe", errno: error.code)
        }
    }

    /// Writes the bytes, giving up after a few seconds if the reader stops reading, so a stuck
    /// clipboard tool cannot hang the daemon.
    /// Writes `bytes` to the non-blocking `fd` until done, the reader goes away (EPIPE), or
    /// `stall` seconds pass with no progress; returns how many bytes were written.
    @discardableResult
    package static func writeAll(_ bytes: [UInt8], to fd: Int32, stall: Double = 1) -> Int {
        Descriptor.setNonBlocking(fd)
        var offset = 0
        var deadline = Deadline(after: stall)
        while offset < bytes.count, !deadline.hasPassed {
            guard let written = Descriptor.write(fd, bytes[offset...]) else { return offset }
            if written > 0 {
                offset += written
                deadline = Deadline(after: stall)
                continue
            }
            _ = Poll.wait([(fd, .writable)], milliseconds: 50)
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
    public static func reapAll() -> [(pid: Int32, status: Int32)] { ChildProcesses.reapAll() }

    /// Waits up to `timeout` seconds for one child to exit; returns its exit code (128+signal when
    /// killed), or nil on timeout or when it is not our child (already reaped).
    public static func waitForExit(_ pid: Int32, timeout: Double) -> Int32? { ChildProcesses.waitForExit(pid, timeout: timeout) }

    /// Makes this process the reaper for its orphaned descendants (`PR_SET_CHILD_SUBREAPER`), so
    /// a browser or `xclip` that daemonises is reparented to us and reaped by `reapAll` rather than
    /// left as a zombie under a PID 1 that never reaps. Returns false if the kernel refused.
    @discardableResult
    public static func becomeSubreaper() -> Bool {
        ChildProcesses.becomeSubreaper()
    }
}

/// The raw descriptor and child calls of the code that drives children (CommandRunner, Clipboard,
/// Picker, ChooserLauncher), over Platform, so none of them needs Glibc.
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
    package static func close(_ fd: Int32) { Descriptor.close(fd) }

    /// Makes reads and writes on `fd` return at once instead of blocking.
    package static func setNonBlocking(_ fd: Int32) { Descriptor.setNonBlocking(fd) }

    /// One read into `buffer`, retried when a signal interrupts it.
    package static func read(_ fd: Int32, into buffer: inout [UInt8]) -> ReadResult {
        switch Descriptor.read(fd, into: &buffer) {
        case .bytes(let count): return .bytes(count)
        case .endOfFile: return .endOfFile
        case .wouldBlock: return .wouldBlock
        case .failed: return .failed
        }
    }

    /// One write of what fits: the count written, 0 when it would block or a signal interrupted
    /// it, nil when the reader is gone (EPIPE) or the write failed.
    package static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int? { Descriptor.write(fd, bytes) }

    /// Waits up to `milliseconds` for one of `readable` to have input (or end of file) or one of
    /// `writable` to take output.
    @discardableResult
    package static func wait(readable: [Int32], writable: [Int32] = [], milliseconds: Int32) -> PollResult {
        let requests = readable.map { (fd: $0, events: Poll.Events.readable) } + writable.map { (fd: $0, events: Poll.Events.writable) }
        switch Poll.wait(requests, milliseconds: milliseconds) {
        case .ready: return .ready
        case .timedOut: return .timedOut
        case .failed: return .failed
        }
    }

    /// Whether `pid` has exited, reaping it if so; never blocks.
    package static func status(of pid: Int32) -> Status {
        switch ChildProcesses.status(of: pid) {
        case .exited(let code): return .exited(code)
        case .running: return .running
        case .gone: return .gone
        }
    }

    /// Blocks until `pid` exits and reaps it.
    package static func waitUntilExited(_ pid: Int32) { ChildProcesses.waitUntilExited(pid) }

    /// Kills `pid` and its process group (spawned children lead their own session) with SIGKILL.
    package static func killWithGroup(_ pid: Int32) { ChildProcesses.killWithGroup(pid) }

    /// Asks `pid` to finish (SIGTERM), waking it first if it was stopped (SIGSTOP), so it can.
    package static func terminate(_ pid: Int32) { ChildProcesses.terminate(pid) }
}

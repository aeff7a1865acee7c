import Foundation
import Glibc

/// An error from a test harness, saying what went wrong and what to install or fix.
public struct HarnessError: Error, CustomStringConvertible {
    /// The explanation.
    public var description: String
    /// Creates an error with an explanation.
    public init(_ description: String) { self.description = description }
}

/// A child started with `posix_spawn` in its own session, so a timeout can kill its whole group.
///
/// Foundation's `Process` hangs when a child daemonises and keeps an inherited descriptor
/// open; this type waits on the child's exit status, never on pipe EOF.
public final class ChildProcess {
    /// The child's process id.
    public let pid: pid_t
    /// Our read end of the child's stdout, when captured.
    public let stdoutFD: Int32?
    /// Our read end of the child's stderr, when captured.
    public let stderrFD: Int32?
    private var exitStatus: Int32?

    /// Spawns `argv` (looked up in `PATH`). `environment` nil inherits ours. stdin is /dev/null
    /// unless `stdin` is given; stdout/stderr are captured into pipes when asked, else go to `logPath`
    /// (or /dev/null). `stderrPath` sends stderr to that file even when stdout is captured.
    public init(
        _ argv: [String], environment: [String: String]? = nil, stdin stdinData: [UInt8]? = nil,
        captureOutput: Bool = true, logPath: String? = nil, stderrPath: String? = nil
    ) throws {
        guard let program = argv.first else { throw HarnessError("empty argv") }
        guard Self.findExecutable(program) != nil else {
            throw HarnessError("\(program) not found in PATH: \(Self.installHint(for: program))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        // 0x80 is POSIX_SPAWN_SETSID on glibc (not imported into Swift).
        posix_spawnattr_setflags(&attributes, Int16(0x80 | POSIX_SPAWN_SETSIGMASK))

        var closeAfterSpawn: [Int32] = []
        defer { for fd in closeAfterSpawn { close(fd) } }
        var stdinWriter: Int32?
        if stdinData != nil {
            let (readEnd, writeEnd) = try Self.makePipe()
            posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
            closeAfterSpawn.append(readEnd)
            stdinWriter = writeEnd
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        var captured: [Int32] = []
        for target: Int32 in [1, 2] {
            if target == 2, let stderrPath {
                posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            } else if captureOutput {
                let (readEnd, writeEnd) = try Self.makePipe()
                posix_spawn_file_actions_adddup2(&actions, writeEnd, target)
                closeAfterSpawn.append(writeEnd)
                captured.append(readEnd)
            } else {
                posix_spawn_file_actions_addopen(
                    &actions, target, logPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
            }
        }

        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
        defer { for p in cArgs + cEnv { free(p) } }
        var child: pid_t = 0
        // Nothing but 0, 1 and 2: a file another test thread is writing without O_CLOEXEC
        // (Foundation's writes) would otherwise stay open for writing in this child as long
        // as it lives, and exec'ing that file fails with ETXTBSY ("Text file busy"), as
        // SystemLayerTests' launcher script once did.
        _ = Self.addCloseFrom?(&actions, 3)
        let rc = posix_spawnp(&child, program, &actions, &attributes, &cArgs, &cEnv)
        guard rc == 0 else {
            for fd in captured { close(fd) }
            if let stdinWriter { close(stdinWriter) }
            throw HarnessError("posix_spawn \(program): \(String(cString: strerror(rc)))")
        }
        pid = child
        Self.owners.update { _ = $0.insert(child) }
        stdoutFD = captured.first
        stderrFD = captured.count > 1 ? captured[1] : nil
        if let stdinWriter, let stdinData {
            // Small inputs only (tests): a pipe buffer holds 64 KiB.
            stdinData.withUnsafeBytes { _ = write(stdinWriter, $0.baseAddress, $0.count) }
            close(stdinWriter)
        }
    }

    deinit {
        if exitStatus == nil {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: 5)
        }
        if let stdoutFD { close(stdoutFD) }
        if let stderrFD { close(stderrFD) }
    }

    /// Reaps the child if it has exited; returns its status (exit code, or 128 + signal), or
    /// `reapedElsewhere` when another `waitpid` in this process collected it first.
    public func poll() -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
            let signal = status & 0x7f
            exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        } else if result < 0, errno == ECHILD {
            // Waiting on would only end at the timeout, as a hang the child never had.
            exitStatus = Self.reapedElsewhere
        } else {
            return nil
        }
        Self.owners.update { _ = $0.remove(pid) }
        return exitStatus
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc does not import.
    private static let addCloseFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    /// The status `poll` gives a child whose exit another `waitpid(-1)` in the test process took.
    public static let reapedElsewhere: Int32 = -2

    /// The children a `ChildProcess` waits on; `reapStrays` leaves them to it.
    static let owners = Locked<Set<pid_t>>([])
    /// When each stray zombie was first seen, so a zombie someone is about to reap is left to them.
    static let straysSeen = Locked<[pid_t: Date]>([:])

    /// Reaps the exited children of the test process that nobody waits on (what a launcher
    /// spawned and left, orphans given to a subreaper), each one zombie for at least `settled`
    /// seconds, so a waiter polling its own child is never robbed. `waitpid(-1)`, which the
    /// product's `ChildReaper.reapAll` is, would also take the children of tests running in
    /// parallel (RealBrowserTests' `gio open` once timed out that way). Returns what it reaped.
    @discardableResult
    public static func reapStrays(settled: Double = 0.3) -> [(pid: pid_t, status: Int32)] {
        let zombies = zombieChildren()
        let owned = owners.value
        let now = Date()
        var due: [pid_t] = []
        straysSeen.update { seen in
            seen = seen.filter { zombies.contains($0.key) }
            for pid in zombies where !owned.contains(pid) {
                let first = seen[pid] ?? now
                seen[pid] = first
                if now.timeIntervalSince(first) >= settled { due.append(pid) }
            }
        }
        var reaped: [(pid: pid_t, status: Int32)] = []
        for pid in due {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { reaped.append((pid, status)) }
        }
        return reaped
    }

    /// The children of `parent` (this process unless given) in state Z, from /proc.
    public static func zombieChildren(of parent: pid_t = getpid()) -> Set<pid_t> {
        Set(children(of: parent).filter { $0.state == "Z" }.map(\.pid))
    }

    /// Every child of `parent` (this process unless given) with its state letter (`R`, `S`,
    /// `Z`, …), from /proc.
    public static func children(of parent: pid_t = getpid()) -> [(pid: pid_t, state: Character)] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
            guard let pid = pid_t(name), let data = FileManager.default.contents(atPath: "/proc/\(name)/stat") else { return nil }
            let text = String(decoding: data, as: UTF8.self)
            // The command name may hold spaces and parentheses: the fields follow the last ")".
            guard let close = text.lastIndex(of: ")") else { return nil }
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count > 2, pid_t(fields[1]) == parent, let state = fields[0].first else { return nil }
            return (pid, state)
        }
    }

    /// Waits up to `timeout` seconds for exit; nil if still running.
    public func waitForExit(timeout: Double) -> Int32? {
        let end = Date().addingTimeInterval(timeout)
        while true {
            if let status = poll() { return status }
            if Date() >= end { return nil }
            usleep(2_000)
        }
    }

    /// Sends SIGTERM, then SIGKILL to the whole group after `grace` seconds; reaps the child.
    @discardableResult
    public func terminate(grace: Double = 2) -> Int32? {
        if let status = poll() { return status }
        kill(pid, SIGTERM)
        if let status = waitForExit(timeout: grace) { return status }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        return waitForExit(timeout: 5)
    }

    static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw HarnessError("pipe: \(String(cString: strerror(errno)))") }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// The absolute path of `program` (searched in `PATH` unless it contains a slash).
    public static func findExecutable(_ program: String) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(program)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    static func installHint(for program: String) -> String {
        switch program {
        case "dbus-daemon", "dbus-send": return "install dbus (apt-get install dbus)"
        case "gdbus": return "install libglib2.0-bin (apt-get install libglib2.0-bin)"
        default: return "install the package providing \(program)"
        }
    }
}

extension ChildProcess {
    /// The first line the child writes to stdout, or nil at the timeout or its exit.
    public func firstLine(timeout: Double) -> String? {
        guard let fd = stdoutFD else { return nil }
        var collected: [UInt8] = []
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            guard Glibc.poll(&fds, 1, 50) >= 0 else { return nil }
            if fds[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 256)
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { return nil }
                collected += buffer[0..<count]
                if let newline = collected.firstIndex(of: 10) {
                    return String(decoding: collected[..<newline], as: UTF8.self)
                }
            } else if poll() != nil {
                return nil
            }
        }
        return nil
    }
}

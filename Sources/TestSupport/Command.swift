import Foundation
import Glibc

/// What a finished command produced.
public struct ToolResult: CustomStringConvertible {
    /// Exit code, or 128 + signal number; -1 if it had to be killed at the timeout.
    public var status: Int32
    /// Captured standard output.
    public var stdout: String
    /// Captured standard error.
    public var stderr: String
    /// Whether the timeout expired and the command was killed.
    public var timedOut: Bool

    /// A result as a finished command gives it.
    public init(status: Int32, stdout: String, stderr: String, timedOut: Bool) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.timedOut = timedOut
    }

    /// A one-line summary for test failure messages.
    public var description: String {
        let lost = status == ChildProcess.reapedElsewhere ? " (its exit status was taken by another waitpid in the test process)" : ""
        return "status \(status)\(timedOut ? " (timed out)" : "")\(lost), stdout: \(stdout.debugDescription), stderr: \(stderr.debugDescription)"
    }
}

/// Runs commands for tests: argv only (never a shell), output captured, always bounded by a timeout.
public enum Command {
    /// Runs `argv` to completion or `timeout` seconds. `environment` nil inherits ours;
    /// `extraEnvironment` is laid over whichever base is used.
    public static func run(
        _ argv: [String], environment: [String: String]? = nil, extraEnvironment: [String: String] = [:],
        stdin: String? = nil, timeout: Double = 20
    ) throws -> ToolResult {
        var env = environment ?? ProcessInfo.processInfo.environment
        for (key, value) in extraEnvironment { env[key] = value }
        let child = try ChildProcess(argv, environment: env, stdin: stdin.map { Array($0.utf8) })
        var out: [UInt8] = []
        var err: [UInt8] = []
        let end = Date().addingTimeInterval(timeout)
        var status: Int32?
        var timedOut = false
        while status == nil {
            drain(child, into: &out, &err, waitMilliseconds: 10)
            status = child.poll()
            if status == nil, Date() >= end {
                timedOut = true
                status = child.terminate(grace: 0.5).map { _ in -1 } ?? -1
            }
        }
        // The child is gone; whatever is already in the pipes is read without waiting for EOF,
        // since a daemonised grandchild may hold the write end open forever.
        drain(child, into: &out, &err, waitMilliseconds: 0)
        return ToolResult(
            status: status ?? -1, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), timedOut: timedOut)
    }

    private static func drain(_ child: ChildProcess, into out: inout [UInt8], _ err: inout [UInt8], waitMilliseconds: Int32) {
        guard let outFD = child.stdoutFD, let errFD = child.stderrFD else { return }
        var fds = [pollfd(fd: outFD, events: Int16(POLLIN), revents: 0), pollfd(fd: errFD, events: Int16(POLLIN), revents: 0)]
        var wait = waitMilliseconds
        while Glibc.poll(&fds, 2, wait) > 0 {
            var progressed = false
            for index in 0..<2 where fds[index].revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = read(fds[index].fd, &buffer, buffer.count)
                if count > 0 {
                    progressed = true
                    if index == 0 { out += buffer[0..<count] } else { err += buffer[0..<count] }
                }
            }
            guard progressed else { return }
            wait = 0
        }
    }
}

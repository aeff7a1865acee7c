import Glibc
import Platform

/// The outcome of a command run to completion.
public struct CommandResult: Sendable, Equatable {
    /// The exit code (128+signal when killed); nil when it timed out and was killed.
    public var exitCode: Int32?
    /// Everything it wrote to stdout.
    public var standardOutput: [UInt8]
    /// Everything it wrote to stderr.
    public var standardError: [UInt8]

    /// Stdout as text, without one trailing newline.
    public var outputText: String {
        var text = String(decoding: standardOutput, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
    /// Stderr as text.
    public var errorText: String { String(decoding: standardError, as: UTF8.self) }
}

extension ProcessLauncher {
    /// Runs `argv` to completion and captures its output (pickers, `xdg-mime query`, tests), with
    /// the same detached spawning as `spawn`. Unlike Foundation `Process` it stops reading when
    /// the child exits, so a child that forks a grandchild holding the pipe (xclip) cannot hang
    /// us; after `timeout` seconds the child's process group is killed and `exitCode` is nil.
    public func run(_ argv: [String], environment: [String: String], stdin input: [UInt8]? = nil,
                    timeout: Double = 10) throws -> CommandResult {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        var inPipe: [Int32] = [-1, -1]
        try Self.makePipe(&outPipe)
        try Self.makePipe(&errPipe)
        if input != nil { try Self.makePipe(&inPipe) }
        let pid: pid_t
        do {
            pid = try spawnRedirected(argv, environment: environment, stdin: input != nil ? inPipe[0] : nil,
                                      stdout: outPipe[1], stderr: errPipe[1])
        } catch {
            (outPipe + errPipe + inPipe).filter { $0 >= 0 }.forEach { close($0) }
            throw error
        }
        close(outPipe[1])
        close(errPipe[1])
        // Stdin is written inside the read loop: a child that echoes (cat, a picker) would block
        // on a full stdout pipe while we block on its full stdin pipe.
        var pendingInput = input.map { $0[...] }
        var inputFD: Int32 = -1
        if input != nil {
            close(inPipe[0])
            inputFD = inPipe[1]
            _ = fcntl(inputFD, F_SETFL, fcntl(inputFD, F_GETFL) | O_NONBLOCK)
        }
        defer {
            close(outPipe[0])
            close(errPipe[0])
            if inputFD >= 0 { close(inputFD) }
        }
        for fd in [outPipe[0], errPipe[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }

        var output: [UInt8] = []
        var errors: [UInt8] = []
        var open = [true, true]
        let deadline = Deadline(after: timeout)
        var exitCode: Int32?
        var exited = false
        while !exited {
            var fds = [pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0),
                       pollfd(fd: errPipe[0], events: Int16(POLLIN), revents: 0),
                       pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)]
            _ = poll(&fds, inputFD >= 0 ? 3 : 2, 20)
            if inputFD >= 0, let remaining = pendingInput {
                let written = remaining.withUnsafeBytes { write(inputFD, $0.baseAddress, $0.count) }
                if written > 0 { pendingInput = remaining.dropFirst(written) }
                if pendingInput?.isEmpty == true || (written < 0 && errno != EAGAIN && errno != EINTR) {
                    close(inputFD)
                    inputFD = -1
                    pendingInput = nil
                }
            }
            open[0] = open[0] && Self.drain(outPipe[0], into: &output)
            open[1] = open[1] && Self.drain(errPipe[0], into: &errors)
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                exited = true
                let signal = status & 0x7f
                exitCode = signal == 0 ? (status >> 8) & 0xff : 128 + signal
            } else if deadline.hasPassed {
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                exited = true
            }
        }
        _ = Self.drain(outPipe[0], into: &output)
        _ = Self.drain(errPipe[0], into: &errors)
        return CommandResult(exitCode: exitCode, standardOutput: output, standardError: errors)
    }

    /// Reads what is available; false once the writer side is closed.
    private static func drain(_ fd: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 { buffer += chunk[0..<count]; continue }
            if count == 0 { return false }
            return errno == EINTR ? true : errno == EAGAIN
        }
    }
}

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
        let pid: Int32
        do {
            pid = try spawnRedirected(argv, environment: environment, stdin: input != nil ? inPipe[0] : nil,
                                      stdout: outPipe[1], stderr: errPipe[1])
        } catch {
            (outPipe + errPipe + inPipe).forEach(ChildIO.close)
            throw error
        }
        ChildIO.close(outPipe[1])
        ChildIO.close(errPipe[1])
        // Stdin is written inside the read loop: a child that echoes (cat, a picker) would block
        // on a full stdout pipe while we block on its full stdin pipe.
        var pendingInput = input.map { $0[...] }
        var inputFD: Int32 = -1
        if input != nil {
            ChildIO.close(inPipe[0])
            inputFD = inPipe[1]
            ChildIO.setNonBlocking(inputFD)
        }
        defer {
            ChildIO.close(outPipe[0])
            ChildIO.close(errPipe[0])
            ChildIO.close(inputFD)
        }
        for fd in [outPipe[0], errPipe[0]] { ChildIO.setNonBlocking(fd) }

        var output: [UInt8] = []
        var errors: [UInt8] = []
        var open = [true, true]
        let deadline = Deadline(after: timeout)
        var exitCode: Int32?
        var exited = false
        while !exited {
            ChildIO.wait(readable: [outPipe[0], errPipe[0]], writable: inputFD >= 0 ? [inputFD] : [], milliseconds: 20)
            if inputFD >= 0, let remaining = pendingInput {
                let written = ChildIO.write(inputFD, remaining)
                if let written, written > 0 { pendingInput = remaining.dropFirst(written) }
                if pendingInput?.isEmpty == true || written == nil {
                    ChildIO.close(inputFD)
                    inputFD = -1
                    pendingInput = nil
                }
            }
            open[0] = open[0] && Self.drain(outPipe[0], into: &output)
            open[1] = open[1] && Self.drain(errPipe[0], into: &errors)
            if case .exited(let code) = ChildIO.status(of: pid) {
                exited = true
                exitCode = code
            } else if deadline.hasPassed {
                ChildIO.killWithGroup(pid)
                ChildIO.waitUntilExited(pid)
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
            switch ChildIO.read(fd, into: &chunk) {
            case .bytes(let count): buffer += chunk[0..<count]
            case .wouldBlock: return true
            case .endOfFile, .failed: return false
            }
        }
    }
}

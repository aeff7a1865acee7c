import Glibc

// The raw calls openurld and openurl-tool add to Platform (standard streams, process identity and
// exit, inotify, signals, appending and tail reads), kept beside SystemCalls.swift so the two can
// be folded into one file of Glibc calls.
extension Sys {
    /// Writes all of `bytes` to `fd`, resuming after short writes and interruptions; stops
    /// quietly at an error (a closed pipe), as there is nowhere left to report it.
    static func writeAllIgnoringErrors(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let count = Glibc.write(fd, base, left)
            if count < 0 {
                if Glibc.errno == EINTR { continue }
                return
            }
            base += count
            left -= count
        }
    }

    /// Everything readable from `fd` until the end of the file (or an error).
    static func readToEnd(_ fd: Int32) -> [UInt8] { readToEnd(fd, limit: Int.max - 1).bytes }

    static func isTerminal(_ fd: Int32) -> Bool { Glibc.isatty(fd) == 1 }

    /// Flushes stdio's buffer of stdout, where Swift's `print` writes.
    static func flushStdioOutput() { _ = fflush(stdout) }

    static func parentProcessID() -> Int32 { Glibc.getppid() }

    static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// Replaces this process with `program` (execv); returns only when that failed, with why.
    static func exec(_ program: String, _ arguments: [String]) -> String {
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        Glibc.execv(program, &cArguments)
        let why = message(Glibc.errno)
        for pointer in cArguments { free(pointer) }
        return why
    }

    // MARK: inotify

    static func inotifyInit() throws(SystemError) -> Int32 {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw failure("inotify_init1", nil) }
        return fd
    }

    static func inotifyAddWatch(_ fd: Int32, _ path: String, mask: UInt32) throws(SystemError) -> Int32 {
        let watch = inotify_add_watch(fd, path, mask)
        guard watch >= 0 else { throw failure("inotify_add_watch", path) }
        return watch
    }

    static func inotifyRemoveWatch(_ fd: Int32, _ watch: Int32) { _ = inotify_rm_watch(fd, watch) }

    static let inotifyMasks: (closeWrite: UInt32, movedTo: UInt32, create: UInt32, delete: UInt32, movedFrom: UInt32,
                              deleteSelf: UInt32, moveSelf: UInt32, attrib: UInt32, ignored: UInt32) =
        (UInt32(IN_CLOSE_WRITE), UInt32(IN_MOVED_TO), UInt32(IN_CREATE), UInt32(IN_DELETE), UInt32(IN_MOVED_FROM),
         UInt32(IN_DELETE_SELF), UInt32(IN_MOVE_SELF), UInt32(IN_ATTRIB), UInt32(IN_IGNORED))

    /// The events waiting on the non-blocking inotify descriptor `fd`: watch, mask and name.
    static func inotifyEvents(_ fd: Int32) -> [(watch: Int32, mask: UInt32, name: String)] {
        var events: [(Int32, UInt32, String)] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let header = MemoryLayout<inotify_event>.size
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, Glibc.errno == EINTR { continue }
            if count <= 0 { break }
            var offset = 0
            while offset + header <= count {
                let (event, name) = buffer.withUnsafeBytes { raw -> (inotify_event, String) in
                    let event = raw.load(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + header
                    let bytes = raw[start..<min(count, start + Int(event.len))].prefix(while: { $0 != 0 })
                    return (event, String(decoding: bytes, as: UTF8.self))
                }
                events.append((event.wd, event.mask, name))
                offset += header + Int(event.len)
            }
        }
        return events
    }

    // MARK: signals

    static let signalNumbers: (terminate: Int32, interrupt: Int32, hangUp: Int32, child: Int32) = (SIGTERM, SIGINT, SIGHUP, SIGCHLD)

    /// Routes `signals` to a new non-blocking pipe, one byte (the signal number) per delivery;
    /// returns its read end.
    static func signalPipe(_ signals: [Int32]) throws(SystemError) -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw failure("pipe", nil) }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        signalPipeWrite = ends[1]
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardSignal
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            guard sigaction(signal, &action, nil) == 0 else { throw failure("sigaction", nil) }
        }
        return ends[0]
    }

    /// The signal numbers waiting on the pipe's read end.
    static func pendingSignals(_ fd: Int32) -> [Int32] {
        var signals: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, Glibc.errno == EINTR { continue }
            if count <= 0 { break }
            signals += buffer[0..<count].map { Int32($0) }
        }
        return signals
    }

    // MARK: files

    static func openForAppending(_ path: String, mode: UInt32) throws(SystemError) -> Int32 {
        while true {
            let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode_t(mode))
            if fd >= 0 { return fd }
            if Glibc.errno != EINTR { throw failure("open", path) }
        }
    }

    /// Cuts the open file back to `size` bytes (a short append undone).
    static func ftruncate(_ fd: Int32, size: Int, path: String) throws(SystemError) {
        while Glibc.ftruncate(fd, off_t(size)) != 0 {
            if Glibc.errno != EINTR { throw failure("ftruncate", path) }
        }
    }

    /// The byte at `offset` of the file at `path`, nil past its end or when it cannot be read.
    /// Read through a descriptor of its own: an appending one is write-only.
    static func byte(_ path: String, at offset: Int) -> UInt8? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var byte: UInt8 = 0
        return Glibc.pread(fd, &byte, 1, off_t(offset)) == 1 ? byte : nil
    }

    /// Opens `path` (a file or a directory) and takes an exclusive `flock` on it without
    /// waiting; the descriptor holds the lock until closed (or the process dies). Nil when
    /// another process holds it; throws when the path cannot be opened.
    static func tryLock(_ path: String) throws(SystemError) -> Int32? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", path) }
        // Unqualified: `Glibc.flock` names the struct, not the call.
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if Glibc.errno == EINTR { continue }
            let code = Glibc.errno
            Glibc.close(fd)
            if code == EWOULDBLOCK { return nil }
            throw failure("flock", path, code: code)
        }
        return fd
    }

    /// The last `maximum` bytes of the file (all of a shorter one).
    static func readTail(_ path: String, maximum: Int) throws(SystemError) -> [UInt8] {
        let fd = try openForReading(path)
        defer { close(fd) }
        let size = Int(lseek(fd, 0, SEEK_END))
        guard size > 0 else { return [] }
        let start = max(0, size - maximum)
        var buffer = [UInt8](repeating: 0, count: size - start)
        let count = buffer.withUnsafeMutableBytes { Glibc.pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        guard count >= 0 else { throw failure("pread", path) }
        return Array(buffer[0..<count])
    }
}

/// The write end of the signal pipe; the handler may only touch async-signal-safe state.
private nonisolated(unsafe) var signalPipeWrite: Int32 = -1

/// Writes the signal number to the pipe; `write` is async-signal-safe.
private func forwardSignal(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    let saved = errno
    _ = write(signalPipeWrite, &byte, 1)
    errno = saved
}

#if canImport(Glibc)
import Glibc
#endif
import DBus

/// The write end of the signal pipe; the handler may only touch async-signal-safe state.
private nonisolated(unsafe) var signalPipeWrite: Int32 = -1

/// Writes the signal number to the pipe; `write` is async-signal-safe.
private func forwardSignal(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    let saved = errno
    _ = write(signalPipeWrite, &byte, 1)
    errno = saved
}

/// Signals as pipe events (the self-pipe trick), so handlers run on the event loop, not in a
/// signal context. (Glibc's module map does not export signalfd.)
final class SignalWatcher {
    /// Installs handlers for `signals` that wake `loop`, which then calls `handler`.
    init(signals: [Int32], loop: EventLoop, handler: @escaping (Int32) -> Void) throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw DaemonError("pipe: \(String(cString: strerror(errno)))") }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        signalPipeWrite = ends[1]
        let readEnd = ends[0]
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardSignal
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            guard sigaction(signal, &action, nil) == 0 else { throw DaemonError("sigaction: \(String(cString: strerror(errno)))") }
        }
        _ = loop.watch(fd: readEnd) { _ in
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                for byte in buffer[0..<count] { handler(Int32(byte)) }
            }
        }
    }
}

/// Creates a directory and its parents (mode 0700 for new ones); errors are left to the caller's
/// later use of the directory.
func mkdirParents(_ path: String) {
    var current = ""
    for component in path.split(separator: "/") {
        current += "/" + component
        _ = mkdir(current, 0o700)
    }
}

/// A daemon start-up or runtime failure with its message.
struct DaemonError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

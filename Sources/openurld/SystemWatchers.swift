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

/// Watches the config file's directory with inotify: editors replace files by rename, so the
/// directory sees the change even when the file's own inode goes away.
final class ConfigWatcher {
    private let fd: Int32
    private var watch: Int32 = -1
    private var pendingTimer: EventLoopToken?

    /// Calls `changed` (100 ms after the first event of a burst) when `path` is written, created,
    /// replaced or removed.
    init(path: String, loop: EventLoop, changed: @escaping () -> Void) throws {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw DaemonError("inotify_init1: \(String(cString: strerror(errno)))") }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // The directory may not exist yet; watch it once it can be created by the user.
        mkdirParents(directory)
        // IN_ATTRIB: a chmod that makes an unreadable config readable is a change too.
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_ATTRIB)
        watch = inotify_add_watch(fd, directory, mask)
        if watch < 0 { Log.warning("cannot watch \(directory): \(String(cString: strerror(errno))); reload with SIGHUP or Reload()") }
        let fd = self.fd
        _ = loop.watch(fd: fd) { [weak self] _ in
            var buffer = [UInt8](repeating: 0, count: 4096)
            var relevant = false
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let (length, eventName) = buffer.withUnsafeBytes { raw -> (Int, String) in
                        let event = raw.load(fromByteOffset: offset, as: inotify_event.self)
                        let nameStart = offset + MemoryLayout<inotify_event>.size
                        let nameBytes = raw[nameStart..<min(count, nameStart + Int(event.len))].prefix(while: { $0 != 0 })
                        return (Int(event.len), String(decoding: nameBytes, as: UTF8.self))
                    }
                    if eventName == name { relevant = true }
                    offset += MemoryLayout<inotify_event>.size + length
                }
            }
            // 100 ms after the first event of a burst, not the last: a file rewritten faster
            // than that must still be reloaded (ConfigFile reads it until two reads agree).
            guard relevant, let self, self.pendingTimer == nil else { return }
            self.pendingTimer = loop.addTimer(after: 0.1) { [weak self] in
                self?.pendingTimer = nil
                changed()
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

#if canImport(Glibc)
import Glibc
#endif
import DBus

/// Signals as file descriptor events (signalfd), so handlers run on the event loop, not in a
/// signal context.
final class SignalWatcher {
    private let fd: Int32

    /// Blocks `signals` and reads them from a signalfd watched by `loop`.
    init(signals: [Int32], loop: EventLoop, handler: @escaping (Int32) -> Void) throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        guard sigprocmask(SIG_BLOCK, &mask, nil) == 0 else { throw DaemonError("sigprocmask: \(String(cString: strerror(errno)))") }
        fd = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        guard fd >= 0 else { throw DaemonError("signalfd: \(String(cString: strerror(errno)))") }
        let fd = self.fd
        _ = loop.watch(fd: fd) { _ in
            var info = signalfd_siginfo()
            while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
                handler(Int32(info.ssi_signo))
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

    /// Calls `changed` (once per burst of events, 100 ms later) when `path` is written, created,
    /// replaced or removed.
    init(path: String, loop: EventLoop, changed: @escaping () -> Void) throws {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw DaemonError("inotify_init1: \(String(cString: strerror(errno)))") }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // The directory may not exist yet; watch it once it can be created by the user.
        mkdirParents(directory)
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
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
            guard relevant, let self else { return }
            if let pending = self.pendingTimer { loop.remove(pending) }
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

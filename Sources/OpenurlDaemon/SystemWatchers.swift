import DBus
import Platform

/// Signals as pipe events (Platform's SignalPipe), so handlers run on the event loop, not in a
/// signal context.
final class SignalWatcher {
    /// Installs handlers for `signals` that wake `loop`, which then calls `handler`.
    init(signals: [Signal], loop: EventLoop, handler: @escaping (Signal) -> Void) throws {
        let readEnd: Int32
        do { readEnd = try SignalPipe.install(signals) } catch { throw DaemonError("\(error.operation): \(error.message)") }
        _ = loop.watch(fd: readEnd) { _ in
            for signal in SignalPipe.pending(readEnd) { handler(signal) }
        }
    }
}

/// Creates a directory and its parents (mode 0700 for new ones); errors are left to the caller's
/// later use of the directory.
func mkdirParents(_ path: String) {
    try? FileSystem.createDirectory(path, mode: 0o700, intermediates: true)
}

/// A daemon start-up or runtime failure with its message.
struct DaemonError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

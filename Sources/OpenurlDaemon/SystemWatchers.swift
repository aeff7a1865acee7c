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

/// Makes openurld's own folders private (0700) when they are not: the user's config folder
/// (config and remembered answers) and the state folder (recent links, the log, the takeover
/// record), so that on a machine whose homes others may read no one else reads them. Only real
/// folders are changed: a symlinked one (a dotfile manager's) is the user's to set.
func keepPrivate(_ folders: [String]) {
    for folder in folders {
        guard let status = try? FileSystem.status(folder, followingSymlinks: false), status.kind == .directory,
              status.permissions & 0o077 != 0 else { continue }
        do {
            try FileSystem.setPermissions(folder, status.permissions & 0o700)
            Log.info("made \(folder) private (it was mode \(String(status.permissions, radix: 8)), readable by other users)")
        } catch {
            Log.warning("\(folder) is readable by other users and cannot be made private: \(error.message)")
        }
    }
}

/// A daemon start-up or runtime failure with its message.
struct DaemonError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

#if canImport(Glibc)
import Glibc
#endif
import DBus

/// Watches the config file with inotify, through everything dotfile managers and editors do:
///
/// - editors replace files by rename, so the file's *directory* is watched, not its inode;
/// - a symlinked config (stow, chezmoi, home-manager) is watched at every hop: the link's
///   directory for the link itself, and the target's directory for the file it points to;
/// - a directory that is deleted and recreated is followed: its nearest existing ancestor is
///   watched until it is back, and the watches are re-armed after every change.
final class ConfigWatcher {
    private let fd: Int32
    private let path: String
    /// Other files in the config's directory that also reload it (`remembered.toml`).
    private let siblings: [String]
    /// Directory watches by descriptor: the directory and the names in it that matter.
    private var watches: [Int32: (directory: String, names: Set<String>)] = [:]
    private var pendingTimer: EventLoopToken?
    private let loop: EventLoop
    private let changed: () -> Void

    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM
        | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB)

    /// Calls `changed` (once per burst of events, 100 ms later) when `path`, anything it
    /// resolves through, or a file named in `siblings` beside it is written, created, replaced
    /// or removed.
    init(path: String, siblings: [String] = [], loop: EventLoop, changed: @escaping () -> Void) throws {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw DaemonError("inotify_init1: \(String(cString: strerror(errno)))") }
        self.path = path
        self.siblings = siblings
        self.loop = loop
        self.changed = changed
        // The directory may not exist yet: create it, so the user's first config is seen.
        mkdirParents(Self.split(path).directory)
        arm()
        let fd = self.fd
        _ = loop.watch(fd: fd) { [weak self] _ in self?.readEvents() }
    }

    deinit { close(fd) }

    /// Every (directory, name) the config path goes through: the path itself, then each symlink's target.
    func hops() -> [(directory: String, name: String)] {
        var result: [(String, String)] = []
        var current = path
        for _ in 0..<16 {
            let (directory, name) = Self.split(current)
            result.append((directory, name))
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { break }
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : directory + "/" + target
        }
        return result
    }

    /// Sets the watches for what the path resolves through now; drops the ones no longer needed.
    private func arm() {
        var wanted: [String: Set<String>] = [:]
        let (configDirectory, _) = Self.split(path)
        for (index, (directory, name)) in hops().enumerated() {
            let names = index == 0 && directory == configDirectory ? [name] + siblings : [name]
            // A missing directory: watch the nearest ancestor that exists, for the next component.
            var watched = directory, components = Set(names)
            while access(watched, F_OK) != 0, watched != "/", !watched.isEmpty {
                let parent = Self.split(watched)
                components = [parent.name]
                watched = parent.directory
            }
            wanted[watched, default: []].formUnion(components)
        }
        var armed: [Int32: (directory: String, names: Set<String>)] = [:]
        for (directory, names) in wanted {
            let wd = inotify_add_watch(fd, directory, Self.mask)
            if wd < 0 {
                Log.warning("cannot watch \(directory): \(String(cString: strerror(errno))); reload with SIGHUP or `openurl reload`")
                continue
            }
            armed[wd, default: (directory, [])].names.formUnion(names)
        }
        for wd in watches.keys where armed[wd] == nil { _ = inotify_rm_watch(fd, wd) }
        watches = armed
    }

    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var relevant = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (event, name) = buffer.withUnsafeBytes { raw -> (inotify_event, String) in
                    let event = raw.load(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = raw[nameStart..<min(count, nameStart + Int(event.len))].prefix(while: { $0 != 0 })
                    return (event, String(decoding: nameBytes, as: UTF8.self))
                }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
                guard let watch = watches[event.wd] else { continue }
                let selfGone = event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0
                if selfGone || watch.names.contains(name) { relevant = true }
            }
        }
        guard relevant else { return }
        // A link retargeted, a directory gone or back: follow the path as it resolves now.
        arm()
        // 100 ms after the first event of a burst, not the last: a file rewritten faster than
        // that must still be reloaded (ConfigFile reads it until two reads agree).
        guard pendingTimer == nil else { return }
        pendingTimer = loop.addTimer(after: 0.1) { [weak self] in
            self?.pendingTimer = nil
            self?.changed()
        }
    }

    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}

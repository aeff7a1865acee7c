import DBus
import Platform

/// Watches the config file with inotify, through everything dotfile managers and editors do:
///
/// - editors replace files by rename, so the file's *directory* is watched, not its inode;
/// - a symlinked config (stow, chezmoi, home-manager) is watched at every hop: the link's
///   directory for the link itself, and the target's directory for the file it points to;
/// - a directory that is deleted and recreated is followed: its nearest existing ancestor is
///   watched until it is back, and the watches are re-armed after every change.
final class ConfigWatcher {
    private let inotify: Inotify
    private let path: String
    /// Other files in the config's directory that also reload it (`remembered.toml`).
    private let siblings: [String]
    /// Directory watches by descriptor: the directory and the names in it that matter.
    private var watches: [Int32: (directory: String, names: Set<String>)] = [:]
    private var pendingTimer: EventLoopToken?
    /// The loop's watch of the inotify descriptor, removed with the watcher.
    private var descriptorToken: EventLoopToken?
    private let loop: EventLoop
    private let changed: () -> Void

    private static let mask: Inotify.Events = [.closeWrite, .movedTo, .create, .delete, .movedFrom, .deleteSelf, .moveSelf, .attrib]

    /// Calls `changed` (once per burst of events, 100 ms later) when `path`, anything it
    /// resolves through, or a file named in `siblings` beside it is written, created, replaced
    /// or removed. A name `*.toml` (in `path` or `siblings`) stands for every name with that
    /// suffix. `createDirectory` makes the path's directory when it is missing (the user's
    /// config); a system directory is only watched, never made.
    init(path: String, siblings: [String] = [], createDirectory: Bool = true, loop: EventLoop, changed: @escaping () -> Void) throws {
        do { inotify = try Inotify() } catch { throw DaemonError("inotify_init1: \(error.message)") }
        self.path = path
        self.siblings = siblings
        self.loop = loop
        self.changed = changed
        // The directory may not exist yet: create it, so the user's first config is seen.
        if createDirectory { mkdirParents(Self.split(path).directory) }
        arm()
        descriptorToken = loop.watch(fd: inotify.descriptor) { [weak self] _ in self?.readEvents() }
    }

    /// A site list the config no longer names is no longer watched: the loop forgets the
    /// descriptor before it is closed.
    deinit {
        if let descriptorToken { loop.remove(descriptorToken) }
        if let pendingTimer { loop.remove(pendingTimer) }
    }

    /// Every (directory, name) the config path goes through: the path itself, then each symlink's target.
    func hops() -> [(directory: String, name: String)] {
        var result: [(String, String)] = []
        var current = path
        for _ in 0..<16 {
            let (directory, name) = Self.split(current)
            result.append((directory, name))
            guard let target = try? FileSystem.symbolicLinkTarget(current), !target.isEmpty else { break }
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
            while !FileSystem.exists(watched), watched != "/", !watched.isEmpty {
                let parent = Self.split(watched)
                components = [parent.name]
                watched = parent.directory
            }
            wanted[watched, default: []].formUnion(components)
        }
        var armed: [Int32: (directory: String, names: Set<String>)] = [:]
        for (directory, names) in wanted {
            let wd: Int32
            do { wd = try inotify.watch(directory, for: Self.mask) } catch {
                Log.warning("cannot watch \(directory): \(error.message); reload with SIGHUP or `openurl reload`")
                continue
            }
            armed[wd, default: (directory, [])].names.formUnion(names)
        }
        for wd in watches.keys where armed[wd] == nil { inotify.removeWatch(wd) }
        watches = armed
    }

    private func readEvents() {
        var relevant = false
        for event in inotify.pendingEvents() {
            guard let watch = watches[event.watch] else { continue }
            let selfGone = !event.events.isDisjoint(with: [.deleteSelf, .moveSelf, .ignored])
            if selfGone || watch.names.contains(event.name) || watch.names.contains(where: { Self.matches(event.name, $0) }) { relevant = true }
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

    /// `*SUFFIX` matches every name ending in SUFFIX (not hidden files, nor an editor's `~` backups).
    static func matches(_ name: String, _ pattern: String) -> Bool {
        guard pattern.hasPrefix("*") else { return false }
        return !name.hasPrefix(".") && name.hasSuffix(pattern.dropFirst())
    }

    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}

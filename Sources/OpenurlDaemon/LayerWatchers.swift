import ConfigFiles
import DBus
import Platform

/// Watches every file a reload reads besides the user's config: each system config folder of
/// `$XDG_CONFIG_DIRS` (its `config.toml` and `config.d/*.toml`, whether or not they exist yet)
/// and each site list the last load named, followed as the config names other lists.
final class LayerWatchers {
    private let loop: EventLoop
    private let changed: () -> Void
    private var system: [ConfigWatcher] = []
    private var siteLists: [String: ConfigWatcher] = [:]

    /// Watches the system folders of `configDirs`; `changed` reloads.
    init(configDirs: [String], loop: EventLoop, changed: @escaping () -> Void) {
        self.loop = loop
        self.changed = changed
        for folder in SystemConfig.directories(configDirs: configDirs) {
            do {
                system.append(try ConfigWatcher(path: folder + "/config.toml", siblings: ["config.d"], createDirectory: false, loop: loop, changed: changed))
                system.append(try ConfigWatcher(path: folder + "/config.d/*.toml", createDirectory: false, loop: loop, changed: changed))
            } catch {
                Log.warning("cannot watch \(folder): \(error); reload with SIGHUP or `openurl reload` after changing it")
            }
        }
    }

    /// Watches the site lists of `sources` (and no others).
    func follow(_ sources: [ConfigSourceStatus]) {
        let paths = Set(sources.filter { $0.siteList != nil }.map(\.path))
        for path in siteLists.keys where !paths.contains(path) { siteLists[path] = nil }
        for path in paths where siteLists[path] == nil {
            do { siteLists[path] = try ConfigWatcher(path: path, createDirectory: false, loop: loop, changed: changed) } catch {
                Log.warning("cannot watch the site list \(path): \(error); reload with SIGHUP or `openurl reload` after changing it")
            }
        }
    }
}

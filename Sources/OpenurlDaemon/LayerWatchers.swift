import ConfigFiles
import ConfigLanguage
import DBus
import Platform

/// Watches every file a reload reads: the user's config (and the remembered answers beside
/// it), each system config folder of `$XDG_CONFIG_DIRS` (its `config.toml` and `config.d/*.toml`,
/// whether or not they exist yet) and each site list the last load named, followed as the
/// config names other lists. A change reloads the rules off the loop.
final class LayerWatchers {
    private let loop: EventLoop
    private let rules: RulesInForce
    private var user: ConfigWatcher?
    private var system: [ConfigWatcher] = []
    private var siteLists: [String: ConfigWatcher] = [:]

    /// Watches `rules`' config file and the system folders of `configDirs`; throws when the
    /// user's config cannot be watched.
    init(rules: RulesInForce, configDirs: [String], loop: EventLoop) throws {
        self.loop = loop
        self.rules = rules
        let changed: () -> Void = { [weak self] in self?.reload() }
        user = try ConfigWatcher(path: rules.configPath, siblings: [RememberedRules.fileName], loop: loop, changed: changed)
        for folder in SystemConfig.directories(configDirs: configDirs) {
            do {
                system.append(try ConfigWatcher(path: folder + "/config.toml", siblings: ["config.d"], createDirectory: false, loop: loop, changed: changed))
                system.append(try ConfigWatcher(path: folder + "/config.d/*.toml", createDirectory: false, loop: loop, changed: changed))
            } catch {
                Log.warning("cannot watch \(folder): \(error); reload with SIGHUP or `openurl reload` after changing it")
            }
        }
    }

    /// Reloads the rules off the loop, then follows the site lists the load named;
    /// `completion` hears what it came to.
    func reload(_ completion: @escaping (RulesInForce.Reload) -> Void = { _ in }) {
        rules.reloadInBackground { [weak self] result in
            guard let self else { return }
            follow(rules.sources)
            completion(result)
        }
    }

    /// Watches the site lists of `sources` (and no others).
    func follow(_ sources: [ConfigSourceStatus]) {
        let paths = Set(sources.filter { $0.siteList != nil }.map(\.path))
        for path in siteLists.keys where !paths.contains(path) { siteLists[path] = nil }
        for path in paths where siteLists[path] == nil {
            let changed: () -> Void = { [weak self] in self?.reload() }
            do { siteLists[path] = try ConfigWatcher(path: path, createDirectory: false, loop: loop, changed: changed) } catch {
                Log.warning("cannot watch the site list \(path): \(error); reload with SIGHUP or `openurl reload` after changing it")
            }
        }
    }
}

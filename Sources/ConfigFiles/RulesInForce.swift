import Hygiene
import Launching
import LinkSafety
import Platform
import RoutingCore
import Catalog
import ConfigLanguage
import Routing

/// The rules in force and where they come from: the system configuration, the user's config
/// file (with the remembered answers beside it), reloaded on demand, and the rules toggled over
/// D-Bus, kept across reloads while the rule still exists. A file that fails to load never
/// replaces its version in use: its last good version stays (see `ConfigFile.loadLayers`).
public final class RulesInForce {
    /// What a reload came to.
    public enum Reload {
        /// The config loaded and is in force.
        case loaded(Config)
        /// An empty file that had just changed: an editor mid-save; try again after `ConfigFile.settlingSeconds`.
        case settling(String)
        /// It failed; `keptPrevious` when an earlier config stays in force (else the built-in defaults).
        case failed(String, keptPrevious: Bool)
    }

    /// The engine deciding now.
    public private(set) var engine: RuleEngine
    /// The config file.
    public let configPath: String
    /// Where desktop entries and browser profiles are discovered.
    public let paths: XDGPaths
    /// The environment discovery reads (`CHROME_CONFIG_HOME`).
    public let environment: [String: String]
    /// The last load error of the user's config or remembered answers, empty when they are in
    /// force as they are.
    public private(set) var configError = ""
    /// The system configuration's problems, empty when every system file is in force as it is.
    public private(set) var systemConfigError = ""
    /// Every file of the last load and how it fared (system files, site lists, the user's).
    public private(set) var sources: [ConfigSourceStatus] = []
    /// The last good version of each file.
    private let memory = ConfigMemory()
    /// Called after every reload, with what it came to and the system configuration's problems.
    private let onReload: (Reload, _ systemError: String) -> Void
    /// Runs work after a delay (the daemon's loop), for a settling file's second try.
    private let schedule: ((Double, @escaping () -> Void) -> Void)?
    /// Whether a config has loaded since start: a later failure keeps it, an earlier one leaves
    /// the built-in defaults in force.
    private var loadedOnce = false
    /// Rules toggled over D-Bus, by identity, in the order they were made.
    private var toggles: [(identity: String, enabled: Bool)] = []
    /// How many of the ClearURLs patterns that failed to compile on first use were reported.
    private var clearURLsFailuresReported = 0
    /// Hosts of sites opened (recent links): known domains again after every reload.
    private var visitedHosts: [String] = []
    private var visitedSet = Set<String>()
    /// Whether each loaded config's block lists and suffix index are read on a background
    /// thread (the daemon), so no click pays for them.
    private let preparesSafety: Bool

    /// The built-in defaults until the first `reload()`.
    /// `schedule` runs work after a delay; with it, a settling file is loaded again once it settled.
    /// `preparesSafety` reads each loaded config's block lists in the background.
    public init(paths: XDGPaths, environment: [String: String], configPath: String? = nil,
                schedule: ((Double, @escaping () -> Void) -> Void)? = nil, preparesSafety: Bool = false,
                onReload: @escaping (Reload, _ systemError: String) -> Void = { _, _ in }) {
        self.preparesSafety = preparesSafety
        self.paths = paths
        self.environment = environment
        self.configPath = configPath ?? paths.configFile
        self.schedule = schedule
        self.onReload = onReload
        engine = RuleEngine(config: Config())
    }

    /// A fixed engine (embedded mode, `openurl test`): reloads read `configPath` as usual.
    public init(engine: RuleEngine, paths: XDGPaths, environment: [String: String]) {
        self.paths = paths
        self.environment = environment
        configPath = engine.config.path ?? paths.configFile
        onReload = { _, _ in }
        schedule = nil
        preparesSafety = false
        self.engine = engine
        loadedOnce = true
    }

    /// What is installed now: desktop entries, browser profiles and what `system` opens, read afresh.
    public func discoverCatalog() -> AppCatalog {
        ConfigFile.installedApps(paths: paths, environment: environment)
    }

    /// Loads every layer. At start the ClearURLs patterns compile on first use (most providers
    /// see no link); a reload checks them all, so a bad edit keeps the rules in use. The config
    /// in force is always the latest of what loads: a broken file counts with its last good
    /// version, so a system file that changes while the user's is broken still takes effect.
    @discardableResult
    public func reload() -> Reload {
        let result: Reload
        let discovery = AppDiscovery(paths: paths, environment: environment)
        let layers = ConfigFile.loadLayers(path: configPath, required: false, systemDirs: paths.configDirs, memory: memory,
                                           discover: discoverCatalog, describe: discovery.entries,
                                           clearURLsPatterns: loadedOnce ? .atLoad : .onFirstUse)
        if let settling = layers.settling {
            result = .settling(settling)
            schedule?(ConfigFile.settlingSeconds + 0.1) { [weak self] in self?.reload() }
            onReload(result, systemConfigError)
            return result
        }
        var (next, missing) = RuleEngine(config: layers.config).applyingToggles(toggles)
        toggles.removeAll { missing.contains($0.identity) }
        next.addVisited(hosts: visitedHosts)
        engine = next
        if preparesSafety {
            let checker = next.safety
            BackgroundThread.start(name: "openurld-lists") { checker.prepare() }
        }
        sources = layers.sources
        systemConfigError = layers.systemError
        clearURLsFailuresReported = 0
        let userHadLoaded = loadedOnce
        if let failure = layers.userFailure {
            configError = failure.description
            result = .failed(failure.description, keptPrevious: userHadLoaded && layers.sources.contains { $0.layer != .system && $0.usingLastGood })
        } else {
            loadedOnce = true
            configError = ""
            result = .loaded(layers.config)
        }
        onReload(result, systemConfigError)
        return result
    }

    /// The ClearURLs providers skipped since the last call because a pattern failed to compile on
    /// first use (only at start are they compiled lazily; a reload checks them all), each once.
    public func newClearURLsFailures() -> [String] {
        guard let failures = engine.config.clearURLs?.compileFailures, failures.count > clearURLsFailuresReported else { return [] }
        defer { clearURLsFailuresReported = failures.count }
        return failures.dropFirst(clearURLsFailuresReported).map { "\($0)" }
    }

    /// Sites the user opened (ASCII hosts): their registrable domains become known domains
    /// ("looks like paypal.com, which you opened recently"), now and after every reload. The
    /// most recent `maximumVisited` are kept.
    public func noteVisited(hosts: [String]) {
        let fresh = hosts.filter { !$0.isEmpty && visitedSet.insert($0).inserted }
        guard !fresh.isEmpty else { return }
        visitedHosts += fresh
        if visitedHosts.count > Self.maximumVisited {
            for host in visitedHosts.prefix(visitedHosts.count - Self.maximumVisited) { visitedSet.remove(host) }
            visitedHosts.removeFirst(visitedHosts.count - Self.maximumVisited)
        }
        engine.addVisited(hosts: fresh)
    }

    /// The most visited hosts kept (`[settings] recent` keeps at most 10,000 links).
    public static let maximumVisited = 10_000

    /// Why a rule could not be toggled.
    public struct ToggleError: Error, CustomStringConvertible {
        /// The message.
        public var description: String
        /// The rule is locked by the system configuration (not merely unknown).
        public var isLocked = false
    }

    /// Enables or disables a rule by name or `#index` until the process exits; a rule the system
    /// configuration locked cannot be (`isLocked` says so).
    public func setRule(_ label: String, enabled: Bool) throws(ToggleError) {
        guard let rule = engine.rule(labelled: label) else { throw ToggleError(description: "no rule named \"\(label)\"") }
        if rule.source.locked, rule.enabled != enabled {
            throw ToggleError(description: "rule \"\(rule.label)\" is locked by the system configuration (\(rule.source.file):\(rule.source.line)): it cannot be \(enabled ? "enabled" : "disabled") (ask your administrator)",
                              isLocked: true)
        }
        toggles.removeAll { $0.identity == rule.identity }
        toggles.append((rule.identity, enabled))
        engine = engine.applyingToggles([(rule.identity, enabled)]).engine
    }

    /// Writes the rule remembering `choice` for `request` beside the config and reloads, so the
    /// very next click follows it; returns the rule's name.
    public func remember(_ request: RememberRequest, choice: Choice.Action) throws -> String {
        let name = try RememberedRulesFile.remember(request, choice: choice, configPath: configPath, systemDirs: paths.configDirs,
                                                    discover: discoverCatalog)
        reload()
        return name
    }
}

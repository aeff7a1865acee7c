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
        /// The config loaded and is in force, but the remembered answers beside it did not (why):
        /// their questions are asked again.
        case loadedWithoutRemembered(Config, String)
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
    /// Where a background reload reads and where it swaps in; nil reloads on the caller's thread.
    private let places: ReloadPlaces?
    /// A background load is reading.
    private var loading = false
    /// Callers of `reloadInBackground` waiting for the load after the one reading now.
    private var waitingForNext: [(Reload) -> Void] = []
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
    /// How many hosts `noteVisited` has added, and how many times a rule was toggled: a load
    /// that read while they changed applies the difference as it swaps in.
    private var visitedAdded = 0
    private var toggleChanges = 0
    /// Whether each loaded config's block lists and suffix index are read as it loads (the
    /// daemon, off its loop), so no click pays for them; the lists then keep their compiled
    /// form in `$XDG_CACHE_HOME/openurld/blocklists`.
    private let preparesSafety: Bool

    /// The built-in defaults until the first `reload()`.
    /// `places` is where background reloads read and swap in (the daemon's loop); with it, a
    /// settling file is loaded again once it settled.
    /// `preparesSafety` reads each loaded config's block lists as it loads (off the loop with `places`).
    public init(paths: XDGPaths, environment: [String: String], configPath: String? = nil,
                places: ReloadPlaces? = nil, preparesSafety: Bool = false,
                onReload: @escaping (Reload, _ systemError: String) -> Void = { _, _ in }) {
        self.preparesSafety = preparesSafety
        self.places = places
        schedule = places?.after
        self.paths = paths
        self.environment = environment
        self.configPath = configPath ?? paths.configFile
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
        places = nil
        preparesSafety = false
        self.engine = engine
        loadedOnce = true
    }

    /// What is installed now: desktop entries, browser profiles and what `system` opens, read afresh.
    public func discoverCatalog() -> AppCatalog {
        ConfigFile.installedApps(paths: paths, environment: environment)
    }

    /// Loads every layer now, on the caller's thread (start-up, `openurl`, a remembered answer).
    /// At start the ClearURLs patterns compile on first use (most providers see no link); a
    /// reload checks them all, so a bad edit keeps the rules in use. The config in force is
    /// always the latest of what loads: a broken file counts with its last good version, so a
    /// system file that changes while the user's is broken still takes effect.
    @discardableResult
    public func reload() -> Reload {
        let result = swapIn(read(startingPoint, preparingSafety: false))
        if preparesSafety, case .loaded = result {
            let checker = engine.safety
            let prepare = { _ = BackgroundThread.start(name: "openurld-lists") { checker.prepare() } }
            // Once the loop runs: at start, after the daemon owns its name, so reading the lists
            // does not compete with the load and the name request for the CPU. A click that
            // comes first waits only for the list it needs (BlockList reads it once).
            if let places { places.onLoop(prepare) } else { prepare() }
        }
        return result
    }

    /// What a load starts from now.
    private var startingPoint: PendingToggles {
        PendingToggles(toggleChanges: toggleChanges, visitedAdded: visitedAdded, visited: visitedHosts, toggles: toggles, loadedOnce: loadedOnce)
    }

    /// Loads every layer on a background thread and swaps the result in on the loop, so clicks
    /// are decided by the rules in use meanwhile (a 200,000-site list takes seconds to read).
    /// One load runs at a time: a reload asked for during one runs once it is in, and every
    /// caller waiting for it hears that second load's result. Without `places` it is `reload()`.
    public func reloadInBackground(_ completion: @escaping (Reload) -> Void = { _ in }) {
        guard let places else { return completion(reload()) }
        waitingForNext.append(completion)
        guard !loading else { return }
        loading = true
        let callers = waitingForNext
        waitingForNext = []
        let given = startingPoint
        nonisolated(unsafe) let rules = self
        let started = places.offLoop {
            let layers = rules.read(given, preparingSafety: rules.preparesSafety)
            places.onLoop { rules.finishBackgroundLoad(layers, callers: callers) }
        }
        if !started { finishBackgroundLoad(read(given, preparingSafety: false), callers: callers) }
    }

    /// Swaps a background load in, answers its callers, and starts the load asked for meanwhile.
    private func finishBackgroundLoad(_ layers: ReadLayers, callers: [(Reload) -> Void]) {
        let result = swapIn(layers)
        loading = false
        for caller in callers { caller(result) }
        if !waitingForNext.isEmpty {
            let next = waitingForNext
            waitingForNext = []
            reloadInBackground { result in for caller in next { caller(result) } }
        }
    }

    /// The loop's state a load starts from: the toggles and visited sites to carry over, and
    /// whether a config loaded before (which decides how ClearURLs patterns compile).
    private struct PendingToggles {
        var toggleChanges: Int
        var visitedAdded: Int
        var visited: [String]
        var toggles: [(identity: String, enabled: Bool)]
        var loadedOnce: Bool
    }

    /// Every layer read and the engine built from them: the slow part of a load, which touches
    /// only the files, `memory` (one load at a time) and what `given` carries.
    private struct ReadLayers {
        var layers: LayeredConfig
        var engine: RuleEngine
        var given: PendingToggles
        var missingToggles: [String]
    }

    /// Reads every layer and builds their engine with `given`'s toggles and visited sites (and,
    /// `preparingSafety`, reads its block lists).
    private func read(_ given: PendingToggles, preparingSafety: Bool) -> ReadLayers {
        let discovery = AppDiscovery(paths: paths, environment: environment)
        let layers = ConfigFile.loadLayers(path: configPath, required: false, systemDirs: paths.configDirs, memory: memory,
                                           discover: discoverCatalog, describe: discovery.entries,
                                           clearURLsPatterns: given.loadedOnce ? .atLoad : .onFirstUse,
                                           blockListSnapshots: preparesSafety ? BlockListSnapshots(cacheHome: paths.cacheHome) : nil)
        guard layers.settling == nil else { return ReadLayers(layers: layers, engine: engine, given: given, missingToggles: []) }
        var (next, missing) = RuleEngine(config: layers.config).applyingToggles(given.toggles)
        next.addVisited(hosts: given.visited)
        if preparingSafety { next.safety.prepare() }
        return ReadLayers(layers: layers, engine: next, given: given, missingToggles: missing)
    }

    /// Puts what `read` built in force, with the toggles and visited sites that came while it
    /// read, and reports it; the engine it replaces is let go off the loop.
    @discardableResult
    private func swapIn(_ read: ReadLayers) -> Reload {
        let layers = read.layers
        let result: Reload
        if let settling = layers.settling {
            result = .settling(settling)
            schedule?(ConfigFile.settlingSeconds + 0.1) { [weak self] in self?.reloadInBackground() }
            onReload(result, systemConfigError)
            return result
        }
        var next = read.engine
        // A rule toggled while the files were read is applied now, on the loop: rare, and cheap
        // next to the read.
        if toggleChanges != read.given.toggleChanges { next = next.applyingToggles(toggles).engine }
        toggles.removeAll { read.missingToggles.contains($0.identity) }
        let lateVisits = min(visitedAdded - read.given.visitedAdded, visitedHosts.count)
        if lateVisits > 0 { next.addVisited(hosts: Array(visitedHosts.suffix(lateVisits))) }
        let replaced = engine
        engine = next
        release(replaced)
        sources = layers.sources
        systemConfigError = layers.systemError
        clearURLsFailuresReported = 0
        let userHadLoaded = loadedOnce
        if let failure = layers.userFailure, layers.onlyRememberedFailed {
            loadedOnce = true
            configError = failure.description
            result = .loadedWithoutRemembered(layers.config, failure.description)
        } else if let failure = layers.userFailure {
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

    /// Lets the engine that was in force go on a background thread and gives the freed memory
    /// back to the system, so neither a click nor the daemon's size pays for a reload (a big
    /// site list's index is freed in pieces the allocator would otherwise keep).
    private func release(_ replaced: RuleEngine) {
        guard let places else { return }
        let held = Held(replaced)
        _ = places.offLoop {
            held.engine = nil
            Memory.returnFreedPages()
        }
    }

    /// The replaced engine, held by the thread that lets it go (its last reference, unless a
    /// click still deciding holds one).
    private final class Held {
        var engine: RuleEngine?
        init(_ engine: RuleEngine) { self.engine = engine }
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
        visitedAdded += fresh.count
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
        toggleChanges += 1
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

/// Where a background reload's parts run: `offLoop` starts work on a thread of its own (false
/// when none can be made), `onLoop` hands work to the loop's thread, `after` runs work on the
/// loop after a delay.
public struct ReloadPlaces {
    /// Starts work on a background thread; false when none could be made.
    public var offLoop: (@escaping () -> Void) -> Bool
    /// Runs work on the loop's thread.
    public var onLoop: (@escaping () -> Void) -> Void
    /// Runs work on the loop's thread after a delay in seconds.
    public var after: (Double, @escaping () -> Void) -> Void

    /// Places for the reloads of a daemon whose loop is reached through `onLoop` and `after`.
    public init(offLoop: @escaping (@escaping () -> Void) -> Bool, onLoop: @escaping (@escaping () -> Void) -> Void,
                after: @escaping (Double, @escaping () -> Void) -> Void) {
        self.offLoop = offLoop
        self.onLoop = onLoop
        self.after = after
    }
}

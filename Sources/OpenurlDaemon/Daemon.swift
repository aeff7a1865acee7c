import DBus
import ConfigFiles
import DesktopDefaults
import Execution
import Launching
import RouterContract
import Hygiene
import Platform
import Routing
import URLModel

/// The daemon's state: the config in force, the router, recent links, and the bus it serves.
final class Daemon {
    static let version = "0.1.0"
    static let busName = "io.github.openurld"
    static let objectPath = "/io/github/openurld"
    static let interfaceName = "io.github.openurld.Router1"

    let connection: DBusConnection
    let loop: EventLoop
    let configPath: String
    let paths: XDGPaths
    let router: LinkRouter
    let recent: RecentLinks
    private(set) var configError = ""
    /// Whether a config has loaded since start: a later failure keeps it, an earlier one leaves
    /// the built-in defaults in force.
    private var loadedOnce = false
    /// How many of the ClearURLs patterns that failed to compile on first use are logged.
    private var clearURLsFailuresLogged = 0
    /// Rules toggled over D-Bus, by rule identity in the order they were made, kept across
    /// reloads while the rule still exists.
    private var toggles: [(identity: String, enabled: Bool)] = []
    /// When each final URL was last carried out, for `dedupe_ms`.
    private var lastRouted: [String: Double] = [:]
    var object: DBusObject?
    /// Openers by caller's unique bus name: unique names are never reused, so a caller's
    /// process is looked up once, not on every call.
    var openers: [String: Opener] = [:]
    /// Finds a display for clicks when the daemon's own environment has none.
    let session: SessionEnvironment
    /// The display variables of the last click that needed them: for later launches with no
    /// caller (reopen, a notification's "Open" button).
    var lastClickEnvironment: [String: String] = [:]

    init(connection: DBusConnection, loop: EventLoop, environment: [String: String], effects: DecisionEffects) {
        self.connection = connection
        self.loop = loop
        paths = XDGPaths(environment: environment)
        session = SessionEnvironment(own: environment)
        configPath = paths.configFile
        recent = RecentLinks(path: paths.stateDirectory + "recent.tsv")
        var launchEnvironment = environment
        launchEnvironment.removeValue(forKey: "JOURNAL_STREAM")
        launchEnvironment.removeValue(forKey: "INVOCATION_ID")
        router = LinkRouter(
            engine: RuleEngine(config: Config()),
            launcher: AppLauncher(paths: paths, environment: launchEnvironment, launcher: ProcessLauncher(workingDirectory: paths.home)),
            handlers: DefaultHandlers(paths: paths), effects: effects)
        router.dbusActivator = { [weak self] request in try self?.activate(request) }
        recent.scheduleSave = { [weak recent] in _ = loop.addTimer(after: 1) { recent?.save() } }
    }

    /// Loads the config; on failure keeps the rules in use and records the error.
    @discardableResult
    func reload() -> String? {
        let discovery = AppDiscovery(paths: paths, environment: router.launcher.environment)
        // At start the ClearURLs patterns compile on first use (most providers see no link); a
        // reload checks them all, so that a bad edit keeps the rules in use.
        switch ConfigFile.load(path: configPath, required: false, discover: discovery.catalog,
                               clearURLsPatterns: loadedOnce ? .atLoad : .onFirstUse) {
        case .success(let config):
            clearURLsFailuresLogged = 0
            let (engine, missing) = RuleEngine(config: config).applyingToggles(toggles)
            toggles.removeAll { missing.contains($0.identity) }
            router.engine = engine
            recent.capacity = config.settings.recent
            loadedOnce = true
            configError = ""
            Log.info("loaded \(config.path.map { FileSystem.exists($0) ? $0 : "built-in defaults" } ?? "built-in defaults"): \(config.rules.count) rules")
            emitReloaded(ok: true, error: "")
            return nil
        case .failure(let error) where error.isSettling:
            // An empty file that just changed: try again once it has settled, quietly.
            Log.info("\(error.description); trying again in \(ConfigFile.settlingSeconds) s")
            _ = loop.addTimer(after: ConfigFile.settlingSeconds + 0.1) { [weak self] in self?.reload() }
            return error.description
        case .failure(let error):
            configError = error.description
            let prefix = loadedOnce ? DaemonEffects.configKeptPrefix : DaemonEffects.configDefaultsPrefix
            router.effects.reportError(prefix + "\n" + error.description, for: nil)
            emitReloaded(ok: false, error: error.description)
            return error.description
        }
    }

    /// Logs, once each, the ClearURLs providers skipped because a pattern failed to compile on
    /// first use (only at start are they compiled lazily; a reload checks them all).
    private func logClearURLsFailures() {
        guard let failures = router.engine.config.clearURLs?.compileFailures, failures.count > clearURLsFailuresLogged else { return }
        for failure in failures.dropFirst(clearURLsFailuresLogged) {
            Log.warning("settings.clearurls: \(failure); that provider is skipped (openurl check shows every bad pattern)")
        }
        clearURLsFailuresLogged = failures.count
    }

    /// Decides for `url` and, unless `dryRun`, carries the decision out.
    func open(_ url: String, options: OpenOptions, explain: Bool = false) throws -> DBusValue {
        let decision: Decision
        do {
            decision = try router.engine.decide(url, opener: options.opener, explain: explain, forceAsk: options.ask)
        } catch {
            throw DBusError.invalidArgs("\(url): \(error.message)")
        }
        logClearURLsFailures()
        if options.dryRun { return decision.dbusResult(extra: [("outcome", .string(RouteOutcome.decidedOnly.description))]) }
        if let deadline = options.deadline, ClickDeadline.now() > deadline {
            // The daemon was stopped or busy past the client's patience: the client has routed
            // the link itself, so carrying it out now would open it twice.
            let late = (ClickDeadline.now() - deadline) / 1000
            Log.warning("dropped a call \(late) ms past its deadline (the client gave up and routed it in-process): \(Log.shown(decision.finalURL))")
            let id = recent.add(decision, opener: options.opener, outcome: .abandoned)
            return decision.dbusResult(extra: [("outcome", .string(RouteOutcome.abandoned.description)), ("id", .uint32(id))])
        }
        let now = WallClock.secondsSinceEpoch()
        let window = Double(router.engine.config.settings.dedupeMilliseconds) / 1000
        lastRouted = lastRouted.filter { now - $0.value < max(window, 0.001) }
        if window > 0, lastRouted[decision.finalURL] != nil, !options.ask {
            Log.info("duplicate within \(Int(window * 1000)) ms, not opened again: \(Log.shown(decision.finalURL))")
            return decision.dbusResult(extra: [("outcome", .string(RouteOutcome.duplicate.description))])
        }
        lastRouted[decision.finalURL] = now
        let id = recent.add(decision, opener: options.opener, outcome: .asking)
        if !options.environment.isEmpty { lastClickEnvironment = options.environment }
        let outcome = router.carryOut(decision, activationToken: options.activationToken, opener: options.opener?.names.first,
                                      environment: options.environment) { [weak self] result in
            self?.record(result, id: id, opener: options.opener)
        }
        if outcome != .asking { recent.update(id: id, outcome: outcome, decision: decision) }
        Log.info("\(decision.kind.rawValue) \(Log.shown(decision.finalURL))\(decision.target.map { " → \($0)" } ?? "") (\(outcome))")
        emitRouted(decision)
        return decision.dbusResult(extra: [("outcome", .string(outcome.description)), ("id", .uint32(id))])
    }

    /// Records an answered (or dismissed) ask and remembers the choice when asked to.
    private func record(_ result: AskResult, id: UInt32, opener: Opener?) {
        if result.isFollowUp {
            recent.add(result.decision, opener: opener, outcome: result.outcome)
        } else {
            recent.update(id: id, outcome: result.outcome, decision: result.decision)
        }
        // The URL was logged when the question was asked; a mailto's body is not repeated here.
        Log.info("ask #\(id) answered: \(result.decision.kind.rawValue)\(result.decision.target.map { " → \($0)" } ?? "") (\(result.outcome))")
        emitRouted(result.decision)
        guard let remember = result.remember, let choice = result.choice else { return }
        do {
            let name = try RememberedRulesFile.remember(remember, choice: choice, configPath: configPath, discover: AppDiscovery(paths: paths, environment: router.launcher.environment).catalog)
            Log.info("remembered \(choice) as rule \"\(name)\" in \(ConfigFile.rememberedPath(besides: configPath))")
            // The watcher would reload too; doing it now means the very next click already follows the rule.
            reload()
        } catch {
            router.effects.reportError("could not remember the choice: \(error)", for: nil)
        }
    }

    /// Sends a recent link again, by the rules (`target` empty) or to `target`.
    func reopen(id: UInt32, target: String) throws {
        guard let entry = recent.entry(id: id) else { throw DBusError.invalidArgs("no recent link with id \(id) (see openurl recent)") }
        guard entry.url.utf8.count < RecentLinks.maximumURLBytes else {
            throw DBusError.invalidArgs("link \(id) was longer than \(RecentLinks.maximumURLBytes) bytes and was not kept whole")
        }
        if target.isEmpty {
            _ = try open(entry.url, options: try OpenOptions(.vardict([:]), method: "Reopen"))
            return
        }
        let choice: AskChoice
        if target == "copy" {
            choice = .copy
        } else if let resolved = OpenTarget(target, in: router.engine.config) {
            choice = .open(resolved)
        } else {
            throw DBusError.invalidArgs("unknown target \"\(target)\" (a desktop id, an [apps.NAME], a webmail name, system or copy)")
        }
        let decision = try decideChoice(choice, entry.finalURL)
        let outcome = router.carryOut(decision, activationToken: nil, environment: lastClickEnvironment)
        recent.add(decision, opener: nil, outcome: outcome)
        if case .failed(let why) = outcome { throw DBusError(name: "io.github.openurld.Error.Failed", message: why) }
    }

    private func decideChoice(_ choice: AskChoice, _ url: String) throws -> Decision {
        do { return try router.engine.decide(choice: choice, for: url) } catch { throw DBusError.invalidArgs(error.message) }
    }

    /// Enables or disables a rule by name or `#index` until the daemon exits.
    func setRule(_ label: String, enabled: Bool) throws {
        guard let rule = router.engine.rule(labelled: label) else {
            throw DBusError.invalidArgs("no rule named \"\(label)\"")
        }
        toggles.removeAll { $0.identity == rule.identity }
        toggles.append((rule.identity, enabled))
        router.engine = router.engine.applyingToggles([(rule.identity, enabled)]).engine
    }

    /// Calls `org.freedesktop.Application` on a D-Bus activatable app.
    private func activate(_ request: DBusActivationRequest) throws {
        let platformData = DBusValue.vardict(request.platformData.mapValues { .string($0) })
        if let action = request.action {
            try connection.callNoReply(destination: request.busName, path: request.objectPath, interface: "org.freedesktop.Application",
                                       method: "ActivateAction", arguments: [.string(action), .array(elementSignature: "v", []), platformData])
        } else {
            try connection.callNoReply(destination: request.busName, path: request.objectPath, interface: "org.freedesktop.Application",
                                       method: "Open", arguments: [.stringArray(request.uris), platformData])
        }
    }

    private func emitRouted(_ decision: Decision) {
        guard let object else { return }
        try? object.emit("Routed", interface: Self.interfaceName, arguments: [
            .string(decision.url), .string(decision.kind.rawValue), .string(decision.target?.description ?? ""),
            .string(decision.rule?.description ?? ""),
        ], on: connection)
    }

    private func emitReloaded(ok: Bool, error: String) {
        guard let object else { return }
        try? object.emit("ConfigReloaded", interface: Self.interfaceName, arguments: [.bool(ok), .string(error)], on: connection)
        try? connection.emitPropertiesChanged(path: Self.objectPath, interface: Self.interfaceName, changed: ["ConfigError": .string(error)])
    }
}

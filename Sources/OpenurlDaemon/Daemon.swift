import Records
import URLModel
import ConfigFiles
import DBus
import Notifying
import Execution
import Launching
import Platform
import RouterContract
import SessionState
import RoutingCore
import Routing
import ConfigLanguage

/// The daemon: the rules in force, the executor that carries clicks out, the click record, and
/// the bus it serves. Everything is built here, whole, in the order it depends on: the signals
/// and what the user is told first, then the record and the pending questions (whose write
/// failures they report), then the rules (whose reloads they report), then the executor over
/// them. Nothing refers back up.
final class Daemon {
    static let version = "0.1.0"

    let connection: DBusConnection
    let loop: EventLoop
    let paths: XDGPaths
    let rules: RulesInForce
    let recent: RecentLinks
    let pending: PendingAsks
    let notices: Notices
    let executor: DecisionExecutor
    let signals: RouterSignals
    /// Finds a display for clicks when the daemon's own environment has none.
    let session: SessionEnvironment
    /// NetworkManager's view, watched on the system bus once a rule looks at the network.
    let network: NetworkWatcher
    /// Where a click's moment (network, time, window, keys, running programs) is read from.
    let moment: MomentSources
    /// Openers by caller's unique bus name: unique names are never reused, so a caller's
    /// process is looked up once, not on every call.
    var openers: [String: Opener] = [:]
    /// The lock on the state directory: one daemon at a time takes over pending questions.
    private var stateLock: PathLock?

    /// Builds the daemon; throws when the user's config cannot be watched.
    init(connection: DBusConnection, loop: EventLoop, environment: [String: String]) throws {
        self.connection = connection
        self.loop = loop
        let paths = XDGPaths(environment: environment)
        self.paths = paths
        session = SessionEnvironment(own: environment)
        let network = NetworkWatcher(loop: loop, environment: environment) { facts in
            Log.info("network: \(facts.value?.summary ?? facts.whyUnknown ?? "")")
        }
        self.network = network
        let moment = MomentSources(network: network, environment: environment)
        self.moment = moment
        let signals = RouterSignals(connection: connection)
        let executorSession = Session(bus: connection, loop: loop, environment: environment, paths: paths, staysForAnswers: true)
        let notices = Notices(session: executorSession)
        let reported = ReportedLoad()
        let state = StateFiles(directory: paths.stateDirectory, loop: loop, notices: notices)
        let recent = state.recent, pending = state.pending
        let systemReport = SystemConfigReport(notices: notices)
        let places = ReloadPlaces(offLoop: { work in BackgroundThread.start(name: "openurld-reload", work) }, onLoop: loop.perform,
                                  after: { delay, work in _ = loop.addTimer(after: delay, work) })
        rules = RulesInForce(paths: paths, environment: environment, places: places, preparesSafety: true) { result, systemError in
            Self.report(result, recent: recent, notices: notices, signals: signals, network: network, reported: reported)
            systemReport.update(systemError)
        }
        executor = DecisionExecutor(session: executorSession, rules: rules, record: recent, pending: pending, notices: notices,
                                    readMoment: Self.momentReader(sources: moment, loop: loop), routed: signals.routed)
        self.signals = signals
        self.recent = recent
        self.pending = pending
        self.notices = notices
        watchers = try LayerWatchers(rules: rules, configDirs: paths.configDirs, loop: loop)
        Self.learnVisitedSites(from: paths.stateDirectory + "recent.tsv", into: rules, loop: loop)
    }

    /// The sites opened lately (recent.tsv) become known domains: read on a thread of its own,
    /// started once the loop runs (the daemon serves by then) and handed to the rules on the
    /// loop, so neither the start nor a click waits for the file.
    private static func learnVisitedSites(from path: String, into rules: RulesInForce, loop: EventLoop) {
        nonisolated(unsafe) let rules = rules
        loop.perform {
            _ = BackgroundThread.start(name: "openurld-recent") {
                let hosts = RecentLinks.openedHosts(inFile: path)
                guard !hosts.isEmpty else { return }
                loop.perform { rules.noteVisited(hosts: hosts) }
            }
        }
    }

    /// Asks again the questions a previous daemon left, once it has gone: the lock on the state
    /// directory is free only when no other openurld holds it (a daemon being replaced holds it
    /// until it has recorded its questions and exited; a killed one holds nothing). Tried every
    /// 100 ms for 10 s, then the questions are asked anyway.
    func resumePendingAsksWhenAlone(attempt: Int = 0) {
        let directory = String(paths.stateDirectory.dropLast())
        try? FileSystem.createDirectory(directory, mode: 0o700, intermediates: true)
        do {
            if let lock = try PathLock.take(directory) {
                stateLock = lock
            } else if attempt < 100 {
                _ = loop.addTimer(after: 0.1) { [weak self] in self?.resumePendingAsksWhenAlone(attempt: attempt + 1) }
                return
            } else {
                Log.warning("another openurld still holds \(directory) after 10 s; asking its pending questions anyway")
            }
        } catch {
            Log.warning("cannot lock \(directory) (\(error)); asking pending questions anyway")
        }
        executor.resumePendingAsks()
    }

    /// The config file.
    var configPath: String { rules.configPath }

    /// What the last load told the user about apps that are not installed, so it is said once.
    final class ReportedLoad {
        var missing: [String] = []
        /// What the load left out to stay in its limits (profiles, site-list entries), logged when it changes.
        var skipped: [String] = []
    }

    /// Logs a reload, keeps `recent` at the configured size, tells the user when it failed (and,
    /// once, which targets are not installed), closes a "not reloaded" notification once the
    /// config loads again, and signals `ConfigReloaded`.
    private static func report(_ result: RulesInForce.Reload, recent: RecentLinks, notices: Notices, signals: RouterSignals, network: NetworkWatcher,
                               reported: ReportedLoad) {
        switch result {
        case .loaded(let config), .loadedWithoutRemembered(let config, _):
            recent.capacity = config.settings.recent
            // The system bus is joined only once a rule looks at the network; then it is watched for good.
            if RuleEngine.needs(of: config).contains(.network) { network.start() }
            let rules = config.rules.count
            Log.info("loaded \(config.path.map { FileSystem.exists($0) ? $0 : "built-in defaults" } ?? "built-in defaults"): \(rules) rule\(rules == 1 ? "" : "s")"
                + (config.remembered.isEmpty ? "" : " and \(config.remembered.count) remembered answer\(config.remembered.count == 1 ? "" : "s")"))
            let missing = config.missingApps.filter { !$0.remembered }
            let described = missing.map(\.diagnostic.description)
            if !missing.isEmpty, described != reported.missing {
                Log.warning("not installed, links to them are refused with a notification: " + MissingApp.listed(missing))
                // Replaces a "config not reloaded" notification, if one is on screen.
                notices.show(NotificationText.missingApps(missing), kind: .config)
            } else {
                notices.close(.config)
            }
            reported.missing = described
            let skipped = ConfigFile.skipped(in: config)
            if skipped != reported.skipped { for warning in skipped { Log.warning(warning) } }
            reported.skipped = skipped
            if case .loadedWithoutRemembered(_, let why) = result {
                // Said after the rest: this replaces a notice of missing targets, if one was shown.
                notices.rememberedFailed(why, config: config.path.flatMap { FileSystem.exists($0) ? $0 : nil } ?? "the built-in defaults")
                return signals.reloaded(error: why)
            }
            signals.reloaded(error: "")
        case .settling(let why):
            // An empty file that just changed: it is loaded again once it has settled, quietly.
            Log.info("\(why); trying again in \(ConfigFile.settlingSeconds) s")
        case .failed(let why, let keptPrevious):
            notices.configFailed(why, usingDefaults: !keptPrevious)
            signals.reloaded(error: why)
        }
    }

    /// The watchers of every file a load reads: the user's config, the system folders, the site lists.
    let watchers: LayerWatchers

    /// Loads the config now, on the loop (at start, before the daemon serves), then watches the
    /// site lists it names; nil when it loaded, else why (the rules in use stay).
    @discardableResult
    func reload() -> String? {
        defer { watchers.follow(rules.sources) }
        return Self.problem(of: rules.reload())
    }

    /// Loads the config off the loop (a file changed, SIGHUP, `Reload`): clicks are decided by
    /// the rules in use until the new ones swap in. `completion` gets nil when it loaded, else why.
    func reloadInBackground(_ completion: @escaping (String?) -> Void = { _ in }) {
        watchers.reload { result in completion(Self.problem(of: result)) }
    }

    private static func problem(of result: RulesInForce.Reload) -> String? {
        switch result {
        case .loaded: return nil
        case .settling(let why), .failed(let why, _), .loadedWithoutRemembered(_, let why): return why
        }
    }

    /// Routes `url` (decided only when `dryRun`); `completion` gets the `a{sv}` result once it is
    /// carried out (an ask's once it is put to the user).
    func open(_ url: String, options: OpenOptions, explain: Bool = false, completion: @escaping (Result<DBusValue, Error>) -> Void) {
        let click = Click(activationToken: options.activationToken, opener: options.opener, environment: options.environment,
                          deadline: options.deadline)
        let request = RouteRequest(url: url, click: click, explain: explain, forceAsk: options.ask, dryRun: options.dryRun, context: options.context,
                                   moment: options.moment)
        executor.route(request) { routed in
            switch routed {
            case .failure(let error):
                completion(.failure(DBusError.invalidArgs("\(Text.shortened(url)): \(error.message)")))
            case .success(let routed):
                var extra: [(String, DBusValue)] = [(Router1.Result.outcome, .string(routed.outcome.description))]
                if let id = routed.id { extra.append((Router1.Result.id, .uint32(id))) }
                completion(.success(routed.decision.dbusResult(extra: extra)))
            }
        }
    }

    /// The facts that cost a round trip or a scan: read beside the loop.
    private static let slowFacts: MomentNeeds = [.window, .modifiers, .running]

    /// Reads a click's moment as it arrives, only what the rules look at: the network (from the
    /// watcher, no bus call) and the time at once; the window, keys and running programs (an
    /// X11 round trip, a /proc scan) on a background thread, resumed on the loop, so the loop
    /// answers other calls meanwhile. Bounded at the X11 timeout plus half a second: a fact not
    /// in by then is unknown.
    private static func momentReader(sources: MomentSources, loop: EventLoop) -> MomentReading {
        { needs, click, completion in
            guard !needs.isDisjoint(with: slowFacts) else { return completion(sources.moment(needs: needs, click: click)) }
            var quick = sources.moment(needs: needs.subtracting(slowFacts), click: click)
            let slowNeeds = needs.intersection(slowFacts)
            let once = Once()
            let bound = sources.x11Timeout + 0.5
            let timer = loop.addTimer(after: bound) {
                guard once.claim() else { return }
                let why = "the moment was not read within \(bound) s"
                quick.window = .unknown(why)
                quick.modifiers = .unknown(why)
                quick.running = .unknown(why)
                completion(quick)
            }
            let started = BackgroundThread.start(name: "openurld-moment") {
                let slow = sources.moment(needs: slowNeeds, click: click)
                loop.perform {
                    guard once.claim() else { return }
                    loop.remove(timer)
                    var moment = quick
                    moment.window = slow.window
                    moment.modifiers = slow.modifiers
                    moment.running = slow.running
                    completion(moment)
                }
            }
            if !started, once.claim() {
                loop.remove(timer)
                completion(sources.moment(needs: needs, click: click))
            }
        }
    }

    /// Sends a recent link again, by the rules (`target` empty) or to `target`, with `click`'s
    /// display and token.
    func reopen(id: UInt32, target: String, click: Click = Click(), completion: @escaping (Result<Void, Error>) -> Void) throws {
        guard let entry = recent.entry(id: id) else { throw DBusError.invalidArgs("no recent link with id \(id) (see openurl recent)") }
        guard entry.url.utf8.count < RecentLinks.maximumURLBytes else {
            throw DBusError.invalidArgs("link \(id) was longer than \(RecentLinks.maximumURLBytes) bytes and was not kept whole")
        }
        var choice: Choice.Action?
        if !target.isEmpty, let rule = (try? rules.engine.decide(entry.url))?.ruleSource, rule.locked {
            throw DBusError(name: Router1.Error.ruleLocked,
                            message: "link \(id) is decided by a rule the system configuration locked (\(rule.file):\(rule.line)); it cannot be reopened with another target")
        }
        if target == "copy" {
            choice = .copy
        } else if !target.isEmpty {
            guard let resolved = Target(target, in: rules.engine.config) else {
                throw DBusError.invalidArgs("unknown target \"\(target)\" (a desktop id, an [apps.NAME], a webmail name, system or copy)")
            }
            choice = .open(resolved)
        }
        do {
            try executor.reopen(entry.url, finalURL: entry.finalURL, choice: choice,
                                releasingHold: entry.wasHeld, click: click) { outcome in
                if choice != nil, case .failed(let why) = outcome { return completion(.failure(DBusError(name: Router1.Error.failed, message: why))) }
                completion(.success(()))
            }
        } catch {
            throw DBusError.invalidArgs(choice == nil ? "\(entry.url): \(error.message)" : error.message)
        }
    }

    /// Enables or disables a rule by name or `#index` until the daemon exits; a locked rule is refused.
    func setRule(_ label: String, enabled: Bool) throws {
        do { try rules.setRule(label, enabled: enabled) } catch {
            throw error.isLocked ? DBusError(name: Router1.Error.ruleLocked, message: error.description) : DBusError.invalidArgs(error.description)
        }
    }
}

/// Tells the user when the system configuration has a new problem (once per problem, not at
/// every reload), and takes the notice back once it loads again.
final class SystemConfigReport {
    private let notices: Notices
    private var reported = ""

    init(notices: Notices) { self.notices = notices }

    func update(_ error: String) {
        guard error != reported else { return }
        reported = error
        if error.isEmpty {
            Log.info("the system configuration loads again")
            notices.close(.systemConfig)
        } else {
            notices.systemConfigFailed(error)
        }
    }
}

/// The signals of `Router1`, emitted on its object: `Routed` for each link carried out,
/// `ConfigReloaded` (and `ConfigError`'s change) for each reload.
final class RouterSignals {
    let connection: DBusConnection

    init(connection: DBusConnection) {
        self.connection = connection
    }

    /// `Routed(url, decision, target, rule)`.
    func routed(_ decision: Decision) {
        let signal = RoutedSignal(url: decision.url, decision: decision.kind.rawValue, target: decision.target?.description ?? "",
                                  rule: decision.rule?.description ?? "")
        try? connection.emitSignal(path: Router1.objectPath, interface: Router1.interface, name: RoutedSignal.name, arguments: signal.arguments)
    }

    /// `ConfigReloaded(ok, error)`, and `ConfigError` changed.
    func reloaded(error: String) {
        try? connection.emitSignal(path: Router1.objectPath, interface: Router1.interface, name: ConfigReloadedSignal.name,
                                   arguments: ConfigReloadedSignal(error: error).arguments)
        try? connection.emitPropertiesChanged(path: Router1.objectPath, interface: Router1.interface, changed: [Router1.Property.configError: .string(error)])
    }
}

/// True for the first caller of `claim` only: a click's moment is completed once, by the
/// background read or by the bound, whichever comes first. Used on the loop's thread.
final class Once {
    private var claimed = false
    func claim() -> Bool {
        defer { claimed = true }
        return !claimed
    }
}

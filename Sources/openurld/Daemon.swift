import DBus
import Desktop
import Foundation
import Routing

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
    /// Rules toggled over D-Bus, kept across reloads while the rule still exists.
    private var toggles: [String: Bool] = [:]
    /// When each final URL was last carried out, for `dedupe_ms`.
    private var lastRouted: [String: Double] = [:]
    var object: DBusObject?
    /// Openers by caller's unique bus name: unique names are never reused, so a caller's
    /// process is looked up once, not on every call.
    var openers: [String: Opener] = [:]

    init(connection: DBusConnection, loop: EventLoop, environment: [String: String], effects: DecisionEffects) {
        self.connection = connection
        self.loop = loop
        paths = XDGPaths(environment: environment)
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
        switch ConfigFile.load(path: configPath, required: false) {
        case .success(let config):
            var engine = RuleEngine(config: config)
            for (label, enabled) in toggles {
                if let toggled = engine.settingRule(label, enabled: enabled) { engine = toggled } else { toggles[label] = nil }
            }
            router.engine = engine
            configError = ""
            Log.info("loaded \(config.path.map { FileManager.default.fileExists(atPath: $0) ? $0 : "built-in defaults" } ?? "built-in defaults"): \(config.rules.count) rules")
            emitReloaded(ok: true, error: "")
            return nil
        case .failure(let error) where error.isSettling:
            // An empty file that just changed: try again once it has settled, quietly.
            Log.info("\(error.description); trying again in \(ConfigFile.settlingSeconds) s")
            _ = loop.addTimer(after: ConfigFile.settlingSeconds + 0.1) { [weak self] in self?.reload() }
            return error.description
        case .failure(let error):
            configError = error.description
            Log.error("config not reloaded, keeping the rules in use:\n\(error.description)")
            router.effects.reportError("config not reloaded: \(error.description)", for: nil)
            emitReloaded(ok: false, error: error.description)
            return error.description
        }
    }

    /// Decides for `url` and, unless `dryRun`, carries the decision out.
    func open(_ url: String, options: OpenOptions, explain: Bool = false) throws -> DBusValue {
        let decision: Decision
        do {
            decision = try router.engine.decide(url, opener: options.opener, explain: explain, forceAsk: options.ask)
        } catch {
            throw DBusError.invalidArgs("Open: \(error.message)")
        }
        if options.dryRun { return decision.dbusResult(extra: [("outcome", .string(RouteOutcome.decidedOnly.description))]) }
        let now = Date().timeIntervalSince1970
        let window = Double(router.engine.config.settings.dedupeMilliseconds) / 1000
        lastRouted = lastRouted.filter { now - $0.value < max(window, 0.001) }
        if window > 0, lastRouted[decision.finalURL] != nil, !options.ask {
            Log.info("duplicate within \(Int(window * 1000)) ms, not opened again: \(decision.finalURL)")
            return decision.dbusResult(extra: [("outcome", .string(RouteOutcome.duplicate.description))])
        }
        lastRouted[decision.finalURL] = now
        let id = recent.add(decision, opener: options.opener, outcome: .asking)
        let outcome = router.carryOut(decision, activationToken: options.activationToken) { [weak self] chosen, outcome in
            self?.recent.update(id: id, outcome: outcome, decision: chosen)
            self?.emitRouted(chosen)
        }
        if outcome != .asking { recent.update(id: id, outcome: outcome, decision: decision) }
        Log.info("\(decision.kind.rawValue) \(decision.finalURL)\(decision.target.map { " → \($0)" } ?? "") (\(outcome))")
        emitRouted(decision)
        return decision.dbusResult(extra: [("outcome", .string(outcome.description)), ("id", .uint32(id))])
    }

    /// Sends a recent link again, by the rules (`target` empty) or to `target`.
    func reopen(id: UInt32, target: String) throws {
        guard let entry = recent.entry(id: id) else { throw DBusError.invalidArgs("Reopen: no recent link with id \(id)") }
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
            throw DBusError.invalidArgs("Reopen: unknown target \"\(target)\" (a desktop id, an [apps.NAME], a webmail name, system or copy)")
        }
        let decision = try decideChoice(choice, entry.finalURL)
        let outcome = router.carryOut(decision, activationToken: nil)
        recent.add(decision, opener: nil, outcome: outcome)
        if case .failed(let why) = outcome { throw DBusError(name: "io.github.openurld.Error.Failed", message: why) }
    }

    private func decideChoice(_ choice: AskChoice, _ url: String) throws -> Decision {
        do { return try router.engine.decide(choice: choice, for: url) } catch { throw DBusError.invalidArgs(error.message) }
    }

    /// Enables or disables a rule by name or `#index` until the daemon exits.
    func setRule(_ label: String, enabled: Bool) throws {
        guard let engine = router.engine.settingRule(label, enabled: enabled) else {
            throw DBusError.invalidArgs("SetRuleEnabled: no rule named \"\(label)\"")
        }
        router.engine = engine
        toggles[label] = enabled
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

import Records
import RouterContract
import ConfigFiles
import DBus
import Notifying
import DesktopDefaults
import Launching
import Platform
import URLModel
import RoutingCore
import Routing
import Catalog
import ConfigLanguage

/// Carries decisions out: launches targets, hands links to the handler that was the default
/// before openurld, copies, asks, tells the user, and records each click. The daemon and
/// embedded mode both use it; they differ only in the `Session` they give it.
///
/// A click goes through `carryOut` in one pass: it is checked against its deadline and the
/// dedupe window, recorded, carried out, and the outcome recorded again. An ask's answer comes
/// back here (the chooser, a notification button, the picker) and is carried out and recorded
/// the same way; nothing calls back up into the caller.
public final class DecisionExecutor {
    /// What the session has.
    public let session: Session
    /// The rules in force (answers, "Open" buttons and edited links are decided by them).
    public let rules: RulesInForce
    /// The click record (`recent`); nil keeps none (embedded mode).
    public let record: RecentLinks?
    /// The questions waiting for an answer, on disk (the daemon); nil keeps none.
    public let pending: PendingAsks?
    /// What the user is told.
    public let notices: Notices
    /// Launches desktop entries and argvs.
    public let launcher: AppLauncher
    /// Told about every carried-out click and answer (the daemon's `Routed` signal).
    let routed: (Decision) -> Void
    /// Reads a click's moment for `route`.
    let readMoment: MomentReading
    /// When each final URL was last carried out, for `dedupe_ms`.
    private var lastRouted: [String: Double] = [:]
    /// The chooser window, found on first use (beside this executable, else on PATH).
    lazy var chooser: ChooserLauncher? = {
        chooserLocated = true
        return session.loop.flatMap { loop in
            ChooserLauncher.locate(environment: session.environment).map { path in
                ChooserLauncher(executable: path, loop: loop) { [unowned self] in Double(engine.config.settings.chooserIdle) }
            }
        }
    }()
    private var chooserLocated = false
    /// The chooser, if a question has used it.
    var chooserIfStarted: ChooserLauncher? { chooserLocated ? chooser : nil }
    /// The links of the "Link not opened" notification.
    let unanswered = UnansweredLinks()

    /// An executor for `session`, deciding answers with `rules`, recording in `record` (and
    /// questions waiting for an answer in `pending`), telling `routed` about each click carried
    /// out, reading each routed click's moment with `readMoment`.
    public init(session: Session, rules: RulesInForce, record: RecentLinks?, pending: PendingAsks? = nil, notices: Notices,
                readMoment: @escaping MomentReading = DecisionExecutor.noMoment, routed: @escaping (Decision) -> Void = { _ in }) {
        self.readMoment = readMoment
        self.session = session
        self.rules = rules
        self.record = record
        self.pending = pending
        self.notices = notices
        self.routed = routed
        var environment = session.environment
        environment.removeValue(forKey: "JOURNAL_STREAM")
        environment.removeValue(forKey: "INVOCATION_ID")
        let paths = session.paths
        launcher = AppLauncher(paths: paths, environment: environment, launcher: ProcessLauncher(workingDirectory: paths.home),
                               systemHandler: { scheme in try DefaultHandlers(paths: paths).systemHandler(forScheme: scheme).id })
    }

    /// The engine deciding now.
    public var engine: RuleEngine { rules.engine }

    /// The name a person knows `decision`'s target by: the desktop entry's `Name`, not its id.
    func label(_ decision: Decision) -> String {
        decision.target.map { engine.choiceLabels.label($0) } ?? "the previous default handler"
    }

    /// Carries out `decision` for `click`: dropped when the click's deadline passed (the client
    /// routed it itself) or when the same URL was carried out within `dedupe_ms` (a repeat asked
    /// for on purpose is not a duplicate); otherwise
    /// recorded and carried out, an ask's answers recorded as they come. `completion` gets the
    /// outcome (at once, but for a copy, whose tool runs beside the loop; without a loop it is
    /// called before this returns).
    public func carryOut(_ decision: Decision, click: Click, completion: @escaping (CarriedOut) -> Void) {
        let click = click.stamped(on: session.clock)
        if isPastDeadline(click, decision) {
            return completion(CarriedOut(id: settle(decision, .abandoned, click: click, id: nil, event: "abandoned"), outcome: .abandoned))
        }
        // The monotonic clock: a wall clock set back an hour once made every link a duplicate for an hour.
        let now = session.clock.elapsed()
        let window = Double(engine.config.settings.dedupeMilliseconds) / 1000
        lastRouted = lastRouted.filter { now - $0.value < max(window, 0.001) }
        let forcedAsk: Bool
        if case .ask(_, true) = decision.effect { forcedAsk = true } else { forcedAsk = false }
        if window > 0, lastRouted[decision.finalURL] != nil, !forcedAsk, !click.isRepeat {
            Log.info("duplicate within \(Int(window * 1000)) ms, not opened again: \(Log.shown(decision.finalURL))")
            return completion(CarriedOut(id: nil, outcome: .duplicate))
        }
        lastRouted[decision.finalURL] = now
        // The id is taken before the effect: a question is asked under it. Its line is on disk
        // before the reply goes out: an effect over within this call (a discard, a copy, a
        // launch: most clicks) writes one line, with its outcome; one that goes on (a question,
        // a notification's answer) has its "asking" line written before this call returns.
        let id = record?.add(decision, opener: click.opener, outcome: .asking, writing: false)
        // Looked at again just before the effect: whatever was slow since the call arrived (a
        // slow disk, a stopped daemon) must not make the link open here and in the client too.
        if isPastDeadline(click, decision) {
            return completion(CarriedOut(id: settle(decision, .abandoned, click: click, id: id, event: "abandoned"), outcome: .abandoned))
        }
        perform(decision, click: click, id: id) { [weak self] outcome in
            guard let self else { return }
            if outcome == .asking { self.record?.writeWaitingLine() }
            self.settle(decision, outcome, click: click, id: id, event: "routed", recorded: outcome == .asking)
            completion(CarriedOut(id: id, outcome: outcome))
            if outcome == .done, self.record != nil { self.noteVisited(decision) }
        }
        record?.writeWaitingLine()
    }

    /// True (and logged) when the client that sent `click` has given up waiting and routed it
    /// in-process: it must not be carried out here too.
    private func isPastDeadline(_ click: Click, _ decision: Decision) -> Bool {
        guard let deadline = click.deadline else { return false }
        let now = ClickDeadline.now()
        guard now > deadline else { return false }
        Log.warning("dropped a call \((now - deadline) / 1000) ms past its deadline (the client gave up and routed it in-process): \(Log.shown(decision.finalURL))")
        return true
    }

    /// Carries out a decision that is no new click (a reopen, a notification's button, a copy
    /// outside the rules) on the display `click` names (its display variables and activation
    /// token), and settles it: under `id` when it answers for a click, else as a new entry.
    func carryOutLater(_ decision: Decision, click: Click, id: UInt32? = nil, event: String,
                       completion: @escaping (Outcome) -> Void = { _ in }) {
        perform(decision, click: click, id: id) { [weak self] outcome in
            self?.settle(decision, outcome, click: click, id: id, event: event)
            completion(outcome)
        }
    }

    /// The one place an outcome ends: recorded in `recent` (entry `id`, or a new entry when nil;
    /// `recorded` when that entry already says so), logged, and signalled (`Routed`) once.
    /// Every click and every side entry (reopen, a notification's button, Copy, an answer, a
    /// question that expired or was interrupted) comes here. An abandoned click is not
    /// signalled: the client carried it out itself. Returns the entry's id.
    @discardableResult
    func settle(_ decision: Decision, _ outcome: Outcome, click: Click, id: UInt32?, event: String, recorded: Bool = false) -> UInt32? {
        var entry = id
        if !recorded {
            if let id { record?.update(id: id, outcome: outcome, decision: decision) } else { entry = record?.add(decision, opener: click.opener, outcome: outcome) }
        }
        guard session.staysForAnswers else { return entry }
        // The URL is shown as the log shows URLs (a mailto's body is not repeated).
        Log.info("\(event)\(entry.map { " #\($0)" } ?? ""): \(decision.kind.rawValue) \(Log.shown(decision.finalURL))\(decision.target.map { " → \($0)" } ?? "") (\(outcome))")
        if outcome != .abandoned { routed(decision) }
        return entry
    }

    /// Sends a recorded link again, to `choice` (nil: by the rules, as a new click; a link that
    /// was held is released, as Open anyway would), on the display of the caller that asked
    /// (`click`: its display variables and activation token, as `openurl reopen` sends them;
    /// empty, this process's own). Nothing of an earlier click's display is reused: it belongs to
    /// that click. `completion` gets what became of it.
    public func reopen(_ url: String, finalURL: String, choice: Choice.Action?, releasingHold: Bool = false, click: Click = Click(),
                       completion: @escaping (Outcome) -> Void) throws(URLParseError) {
        guard let choice else {
            _ = try ParsedURL(url)
            return route(RouteRequest(url: url, click: click, releasingHold: releasingHold)) { routed in
                completion((try? routed.get().outcome) ?? .failed("\(url) is not a URL"))
            }
        }
        carryOutLater(try engine.decide(choice: choice, for: finalURL), click: click, event: "reopened", completion: completion)
    }

    /// Copies `url` (the addresses of a mailto) outside the rules, on the clipboard of the
    /// click's display, and confirms it.
    public func copy(_ url: String, click: Click, completion: @escaping (Outcome) -> Void) throws(URLParseError) {
        carryOutLater(try engine.decide(choice: .copy, for: url), click: click, event: "copied on request", completion: completion)
    }

    /// How `decision` would be launched, without launching it (`openurl test` prints this).
    public func plan(_ decision: Decision) throws -> LaunchPlan? {
        guard let launch = decision.launch else { return nil }
        return try launcher.plan(launch)
    }

    /// Does what `decision` says, then calls `completion` with the outcome; for an ask that is
    /// `.asking` (its answers are carried out and recorded under `id` as they come).
    func perform(_ decision: Decision, click: Click, id: UInt32?, completion: @escaping (Outcome) -> Void) {
        switch decision.effect {
        case .unavailable(let target, let reason) where session.staysForAnswers:
            offerInstalled(decision, target: target, reason: reason, click: click, id: id)
            completion(.failed(reason))
        case .refused(let reason), .unavailable(_, let reason):
            notices.failed("\(decision.url): \(reason)", decision: decision, label: label(decision))
            completion(.failed(reason))
        case .open(_, let launch):
            do {
                try self.launch(launch, activationToken: click.activationToken, environment: click.environment)
                if decision.safety.action == .notify {
                    notices.warned(decision, label: label(decision))
                } else if decision.notify {
                    notices.confirm(decision, label: label(decision))
                }
                completion(.done)
            } catch {
                let message = "could not open \(decision.finalURL) with \(decision.target?.description ?? "the system handler"): \(error)"
                if session.staysForAnswers {
                    offerAfterFailedLaunch(decision, message: message, click: click, id: id)
                } else {
                    notices.failed(message, decision: decision, label: label(decision))
                }
                completion(.failed(message))
            }
        case .copy(let text, let leftOutBcc):
            copy(text, leftOutBcc: leftOutBcc, decision: decision, environment: click.environment) { [weak self] error in
                guard let error else { return completion(.done) }
                let message = "could not copy: \(error)"
                self?.notices.failed(message, decision: decision, label: self?.label(decision) ?? "")
                completion(.failed(message))
            }
        case .blocked(let provider):
            blocked(decision, provider: provider, environment: click.environment)
            completion(.blocked(provider))
        case .discard:
            if decision.notify { notices.confirm(decision, label: label(decision)) }
            completion(.done)
        case .ask:
            ask(decision, click: click, id: id)
            completion(.asking)
        case .held:
            hold(decision, click: click, id: id)
            completion(.held(decision.safety.summary ?? "held by the safety policy"))
        }
    }

    /// Launches with the click's display variables added, for a process started without them.
    func launch(_ launch: Launch, activationToken: String?, environment: [String: String]) throws {
        var launcher = self.launcher
        for (name, value) in environment { launcher.environment[name] = value }
        try launcher.launch(launch, activationToken: activationToken, dbusActivator: session.bus.map { bus in { try Self.activate($0, on: bus) } })
    }

    /// Calls `org.freedesktop.Application` on a `DBusActivatable` app, without waiting.
    static func activate(_ request: DBusActivationRequest, on bus: DBusConnection) throws {
        let platformData = DBusValue.vardict(request.platformData.mapValues { .string($0) })
        if let action = request.action {
            try bus.callNoReply(destination: request.busName, path: request.objectPath, interface: "org.freedesktop.Application",
                                method: "ActivateAction", arguments: [.string(action), .array(elementSignature: "v", []), platformData])
        } else {
            try bus.callNoReply(destination: request.busName, path: request.objectPath, interface: "org.freedesktop.Application",
                                method: "Open", arguments: [.stringArray(request.uris), platformData])
        }
    }

    /// Puts `text` on the clipboard the settings choose (beside the loop, when there is one), and
    /// confirms it when `decision.notify`.
    private func copy(_ text: String, leftOutBcc: Bool, decision: Decision, environment clickEnvironment: [String: String],
                      completion: @escaping (Error?) -> Void) {
        var environment = session.environment
        for (name, value) in clickEnvironment { environment[name] = value }
        let writer: ClipboardWriter
        do { writer = try ClipboardSelector.writer(setting: engine.config.settings.clipboard, environment: environment, bus: session.bus) } catch {
            return completion(error)
        }
        let copied = { [weak self] (error: Error?) in
            guard let self, error == nil else { return completion(error) }
            if self.session.staysForAnswers { Log.info("copied with \(writer.name): \(Log.shown(copied: text))") } else { self.notices.verbose("copied with \(writer.name)") }
            if decision.notify || decision.safety.action == .notify, let url = try? ParsedURL(decision.finalURL) {
                self.notices.show(NotificationText.copied(text: text, url: url, leftOutBcc: leftOutBcc, safety: decision.safety), kind: .copied) { [weak self] key in
                    guard key == NotificationText.openActionKey else { return }
                    self?.openAfterAll(decision.finalURL, environment: clickEnvironment)
                }
            }
            completion(nil)
        }
        guard let loop = session.loop else {
            do { try writer.copy(text) } catch { return copied(error) }
            return copied(nil)
        }
        writer.copy(text, beside: loop, completion: copied)
    }

    /// A ClearURLs `completeProvider` blocked the link: say so, offering to open it anyway.
    private func blocked(_ decision: Decision, provider: String, environment: [String: String]) {
        guard session.staysForAnswers else {
            notices.failed("\(decision.url): blocked by the ClearURLs rule \(provider) (set clean = false on a rule to let it through)",
                           decision: nil, label: "")
            return
        }
        Log.info("blocked by the ClearURLs rule \(provider): \(Log.shown(decision.url))")
        notices.show(NotificationText.blocked(provider: provider, url: decision.url), kind: .blocked) { [weak self] key in
            guard key == NotificationText.openAnywayActionKey else { return }
            self?.openAfterAll(decision.url, environment: environment)
        }
    }

    /// "Open" on a copy, "Open anyway" on a block: the default target if it opens, else the
    /// system handler.
    private func openAfterAll(_ url: String, environment: [String: String]) {
        var target = Target.system
        if case .open(let configured) = engine.config.defaultAction { target = configured }
        guard let decision = try? engine.decide(choice: .open(target), for: url) else { return }
        // Recorded like any other launch: `recent` shows what the button opened.
        carryOutLater(decision, click: Click(environment: environment), event: "opened from a notification")
    }
}

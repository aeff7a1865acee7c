import DBus
import Platform
import URLModel
import RoutingCore

/// What the user is told: desktop notifications, and the log or the terminal. In a session that
/// stays for answers (the daemon) notifications may carry buttons, each kind replaces its own
/// previous one, and messages go to the log; in one that does not (embedded mode) they have no
/// buttons, and messages go to stderr, with a notification only when no terminal shows them.
public final class Notices {
    /// What a notification is about: each kind replaces its own previous notification, so
    /// repeated errors do not pile up and an error never hides a pending copy confirmation.
    public enum Kind: CaseIterable, Sendable { case copied, blocked, failure, config, systemConfig, confirmation, defaults, safety, unanswered, history, stateFile }

    /// The session bus, for notifications; nil without one.
    let bus: DBusConnection?
    /// True when a loop delivers notification answers (the daemon's); without one, nothing hears them.
    let answersArrive: Bool
    /// True when this process stays to hear notification answers (the daemon).
    let staysForAnswers: Bool
    /// `-v`: tell the terminal what was done (embedded mode).
    let isVerbose: Bool
    private var client: NotificationClient?
    private var lastIDs: [Kind: UInt32] = [:]
    /// Kinds whose `Notify` has not been answered yet: what comes meanwhile waits in `next`.
    private var inFlight: Set<Kind> = []
    /// The newest notification of a kind waiting for the one in flight (older ones are dropped:
    /// it would replace them at once), and kinds to close once their id is known.
    private var next: [Kind: Shown] = [:]
    private var closeWhenShown: Set<Kind> = []
    /// Record files that cannot be written now, with why.
    private var failingRecords: [String: String] = [:]
    /// State files found refused (a link or a file not openurld's own in their place), with
    /// why, in the order found: each said once.
    private var refusedFiles: [(path: String, why: String)] = []

    /// A notification to show, with its handlers.
    private struct Shown {
        var request: NotificationRequest
        var onAction: ((String) -> Void)?
        var onClose: ((NotificationCloseReason) -> Void)?
    }

    /// Notices over `bus`. A process that stays makes its notification client now (its
    /// signal subscriptions are calls to the bus), so no click pays for them.
    public init(bus: DBusConnection?, answersArrive: Bool, staysForAnswers: Bool, verbose: Bool) {
        self.bus = bus
        self.answersArrive = answersArrive
        self.staysForAnswers = staysForAnswers
        self.isVerbose = verbose
        if staysForAnswers { _ = notifications }
    }

    /// The notification client, made on first use (a server may start after the daemon).
    package var notifications: NotificationClient? {
        guard let bus else { return nil }
        if client == nil {
            // Synchronous calls stay short; Notify is sent without waiting and may take a loaded
            // desktop up to 10 s to answer.
            client = try? NotificationClient(connection: bus, callTimeout: staysForAnswers ? 2 : 5)
            client?.notifyTimeout = 10
        }
        return client
    }

    /// Shows `request`, replacing the previous notification of its `kind`. Without a process that
    /// stays, the notification has no buttons (nobody would hear them) and is sent synchronously.
    ///
    /// Replacing needs the id of the one on screen, which comes back only when the server
    /// answers; so while a kind's `Notify` is in flight, a newer one of that kind waits for it
    /// and then replaces it (ten copies at once show one "Copied link", the last). `onClose`
    /// hears when the notification goes (dismissed, expired, its server gone), not when a newer
    /// one replaces it.
    public func show(_ request: NotificationRequest, kind: Kind, onAction: ((String) -> Void)? = nil,
                     onClose: ((NotificationCloseReason) -> Void)? = nil) {
        guard let notifications else {
            if staysForAnswers { Log.info("no notification server: \(request.summary)") }
            return
        }
        guard staysForAnswers, answersArrive else {
            var request = request
            request.actions = []
            _ = try? notifications.notify(request)
            return
        }
        closeWhenShown.remove(kind)
        let shown = Shown(request: request, onAction: onAction, onClose: onClose)
        guard !inFlight.contains(kind) else { return next[kind] = shown }
        send(shown, kind: kind, with: notifications)
    }

    private func send(_ shown: Shown, kind: Kind, with notifications: NotificationClient) {
        inFlight.insert(kind)
        let onClose = shown.onClose
        notifications.notifyAsync(shown.request, replacing: lastIDs[kind] ?? 0, onAction: shown.onAction,
                                  onClose: { [weak self] reason in
                                      self?.closed(kind)
                                      onClose?(reason)
                                  }) { [weak self] result in
            guard let self else { return }
            self.inFlight.remove(kind)
            switch result {
            case .success(let id): self.lastIDs[kind] = id
            case .failure(let error): Log.info("notification not shown (\(error.message)): \(shown.request.summary)")
            }
            if let waiting = self.next.removeValue(forKey: kind) {
                self.send(waiting, kind: kind, with: notifications)
            } else if self.closeWhenShown.remove(kind) != nil {
                self.close(kind)
            }
        }
    }

    /// The notification of `kind` went away: the next one starts afresh.
    private func closed(_ kind: Kind) {
        if !inFlight.contains(kind) { lastIDs[kind] = nil }
    }

    /// Closes the notification of `kind` on screen, if any (a config that loads again).
    public func close(_ kind: Kind) {
        next[kind] = nil
        if inFlight.contains(kind) { closeWhenShown.insert(kind) }
        guard let id = lastIDs.removeValue(forKey: kind) else { return }
        notifications?.dismiss(id: id)
    }

    /// Whether a person can read stderr: a terminal, or `-v` (the daemon logs instead).
    private var terminal: Bool { StandardStream.error.isTerminal }

    /// A message for the log (daemon) or stderr (embedded mode, always).
    package func say(_ level: Log.Level, _ message: String) {
        if staysForAnswers { Log.write(level, message) } else { StandardStream.error.writeLine("openurl: \(message)") }
    }

    /// A line for `-v` in embedded mode (nothing in the daemon, which logs what it does).
    package func verbose(_ message: String) {
        if !staysForAnswers, isVerbose { StandardStream.error.writeLine("openurl: \(message)") }
    }

    /// Something went wrong carrying out `decision` (a failed launch or copy, a refused link); nil
    /// for problems that belong to no decision. `label` names the target as a person knows it.
    public func failed(_ message: String, decision: Decision?, label: String) {
        guard staysForAnswers else {
            say(.error, message)
            guard !terminal else { return }
            let summary = decision?.kind == .copy ? "Could not copy" : decision?.error != nil ? "Link not opened" : "Could not open link"
            return showOnce(summary: summary, body: message, urgent: true)
        }
        var logged = message
        if let decision {
            for url in [decision.finalURL, decision.url] { logged = logged.replacingEvery(url, with: Log.shown(url)) }
        }
        Log.error(logged)
        // The body is plain text: NotificationClient escapes it once, when the server reads markup.
        guard let decision else {
            return show(NotificationRequest(summary: "openurld", body: message, urgency: .critical, icon: NotificationClient.Icon.error), kind: .failure)
        }
        if let reason = decision.error {
            show(NotificationText.refused(url: decision.url, reason: reason), kind: .failure)
        } else if decision.kind == .copy {
            show(NotificationText.copyFailed(url: decision.finalURL, error: message), kind: .failure)
        } else {
            show(NotificationText.launchFailed(target: label, url: decision.finalURL, error: message), kind: .failure)
        }
    }

    /// Nobody could be asked, so the link went to `decision` instead.
    public func unasked(_ decision: Decision, reason: String, label: String) {
        guard staysForAnswers else {
            let message = "could not ask (\(reason)); \(decision.kind.rawValue) \(decision.target?.description ?? "") \(decision.finalURL)"
            if isVerbose || terminal { StandardStream.error.writeLine("openurl: \(message)") }
            if !terminal { showOnce(summary: "Could not ask where to open a link", body: message, urgent: false) }
            return
        }
        Log.warning("could not ask (\(reason)); \(decision.kind.rawValue) \(decision.target?.description ?? "") instead")
        let what: String
        switch decision.kind {
        case .copy: what = "Copied it instead"
        case .discard: what = "Discarded it"
        default: what = "Opened it with \(decision.target == nil ? "the system handler" : label)"
        }
        // Plain text: NotificationClient escapes it once, when the server reads markup.
        show(NotificationRequest(summary: "Could not ask where to open a link", body: "\(what): \(decision.finalURL)\n(\(reason))"), kind: .failure)
    }

    /// A decision that asked to be told (`notify = true` on open or discard).
    public func confirm(_ decision: Decision, label: String) {
        guard staysForAnswers else { return verbose("\(decision.kind.rawValue) \(decision.finalURL)") }
        if decision.kind == .discard {
            show(NotificationText.discarded(url: decision.finalURL, rule: decision.rule?.description), kind: .confirmation)
        } else {
            show(NotificationRequest(summary: "Opened link in \(label)", body: decision.finalURL), kind: .confirmation)
        }
    }

    /// The click record or the pending questions cannot be written (`why`, e.g. a full disk), or
    /// (nil) can again: one notification while it lasts, closed when writes work again.
    public func history(_ why: String?, path: String) {
        guard staysForAnswers else { return }
        failingRecords[path] = why
        guard let (failing, reason) = failingRecords.sorted(by: { $0.key < $1.key }).first else { return close(.history) }
        if why != nil { show(NotificationText.historyUnwritable(path: failing, why: reason), kind: .history) }
    }

    /// A state file or record (`recent.tsv`, the pending questions, `next-id`, `log`) cannot be
    /// written (`error`), or (nil) can again. A refusal (a link or a file not openurld's own in
    /// its place) is said once per file for the daemon's life, naming it (one notification names
    /// every file refused so far); other failures (a full disk) as `history` says them.
    public func stateFile(_ error: SystemError?, path: String) {
        guard let error, error.isRefused else { return history(error?.description, path: path) }
        guard staysForAnswers, !refusedFiles.contains(where: { $0.path == path }) else { return }
        refusedFiles.append((path, error.message))
        Log.error("\(error.description); what it would hold is kept in memory")
        show(NotificationText.stateFilesRefused(refusedFiles), kind: .stateFile)
    }

    /// The config failed to (re)load; `usingDefaults` when none had loaded yet.
    public func configFailed(_ diagnostic: String, usingDefaults: Bool) {
        let prefix = usingDefaults ? "config not loaded, using built-in defaults: " : "config not reloaded, the previous rules stay in use: "
        // One log line per problem, each saying what it is about.
        for line in diagnostic.split(separator: "\n") where !line.isEmpty { Log.error(prefix + line) }
        show(NotificationText.configReloadFailed("\n" + diagnostic, usingDefaults: usingDefaults), kind: .config)
    }

    /// The config loaded, but the remembered answers beside it did not (`diagnostic`): the
    /// config (`config`, its path) is in force without them, and their questions are asked again.
    public func rememberedFailed(_ diagnostic: String, config: String) {
        for line in diagnostic.split(separator: "\n") where !line.isEmpty {
            Log.error("remembered answers not loaded, \(config) is in force without them: " + line)
        }
        show(NotificationText.rememberedFailed(diagnostic, config: config), kind: .config)
    }

    /// The system configuration failed to load as it is (its last good rules stay): said once
    /// per new problem, as "ask your administrator", since the user cannot fix it.
    public func systemConfigFailed(_ diagnostic: String) {
        Log.error("the system configuration has an error (ask your administrator); its last good rules stay in use:\n" + diagnostic)
        show(NotificationText.systemConfigFailed(diagnostic), kind: .systemConfig)
    }

    /// A one-off notification from a process that does not stay (embedded mode's errors).
    private func showOnce(summary: String, body: String, urgent: Bool) {
        guard let notifications else { return }
        _ = try? notifications.notify(NotificationRequest(summary: summary, body: body, urgency: urgent ? .critical : .normal,
                                                          icon: NotificationClient.Icon.error))
    }
}

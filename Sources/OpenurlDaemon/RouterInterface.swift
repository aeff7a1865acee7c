import Records
import Notifying
import Platform
import ConfigFiles
import Execution
import DBus
import Launching
import RouterContract
import URLModel
import LinkExtraction
import SessionState
import RoutingCore
import Routing
import ConfigLanguage
import TOML

/// `io.github.openurld.Router1`: our versioned API. The method table here both dispatches calls
/// and generates the introspection XML.
extension Daemon {
    /// The most a `Recent` reply carries (estimated), newest links first; D-Bus refuses arrays
    /// over 64 MiB and drops the sender.
    static let maximumRecentReplyBytes = 16 << 20

    var routerInterface: DBusInterface {
        DBusInterface(
            name: Router1.interface,
            methods: [
                DBusMethod(Router1.Method.open, inputs: [.init("url", "s"), .init("options", "a{sv}")], outputs: [.init("result", "a{sv}")]) { [unowned self] args, context in
                    let options = try OpenOptions(args[1], method: Router1.Method.open)
                    return try self.answering(context) { reply in
                        self.completing(options, context: context, wantsOpener: true, wantsDisplay: true) { options in
                            self.open(args[0].string ?? "", options: options) { reply($0.map { [$0] }) }
                        }
                    }
                },
                DBusMethod(Router1.Method.openText, inputs: [.init("text", "s"), .init("options", "a{sv}")], outputs: [.init("urls", "as")]) { [unowned self] args, context in
                    let options = try OpenOptions(args[1], method: Router1.Method.openText)
                    let links = try self.links(in: args[0].string ?? "")
                    return try self.answering(context) { reply in
                        self.completing(options, context: context, wantsOpener: true, wantsDisplay: true) { options in
                            self.open(links, options: options) { reply(.success([.stringArray($0.map(\.url))])) }
                        }
                    }
                },
                DBusMethod(Router1.Method.copy, inputs: [.init("url", "s"), .init("options", "a{sv}")]) { [unowned self] args, context in
                    let options = try OpenOptions(args[1], method: Router1.Method.copy)
                    return try self.answering(context) { reply in
                        self.completing(options, context: context, wantsOpener: false, wantsDisplay: true) { options in
                            self.copy(args[0].string ?? "", environment: options.environment) { reply($0.map { [] }) }
                        }
                    }
                },
                DBusMethod(Router1.Method.explain, inputs: [.init("url", "s"), .init("options", "a{sv}")], outputs: [.init("result", "a{sv}")]) { [unowned self] args, context in
                    var options = try OpenOptions(args[1], method: Router1.Method.explain)
                    options.dryRun = true
                    return try self.answering(context) { reply in
                        self.completing(options, context: context, wantsOpener: true, wantsDisplay: false) { options in
                            self.open(args[0].string ?? "", options: options, explain: true) { reply($0.map { [$0] }) }
                        }
                    }
                },
                DBusMethod(Router1.Method.reload) { [unowned self] _, context in
                    try self.answering(context) { reply in self.reloadInBackground { reply(Self.reloadReply($0)) } }
                },
                DBusMethod(Router1.Method.listRules, outputs: [.init("rules", "a(sisb)")]) { [unowned self] _, _ in
                    // Remembered answers first, at index 0, saying where they live and that they only answer asks.
                    let config = self.rules.engine.config
                    let remembered = config.remembered.map { rule -> DBusValue in
                        let location = "\(config.rememberedPath ?? RememberedRules.fileName):\(rule.position.line)"
                        return RuleSummary(name: rule.name ?? "", index: 0, action: "\(rule.action.summary) (answers an ask; \(location))", enabled: rule.enabled).dbusValue
                    }
                    return [.array(elementSignature: RuleSummary.signature, remembered + config.rules.map { rule in
                        RuleSummary(name: rule.name ?? "", index: Int32(clamping: rule.index), action: rule.action.summary, enabled: rule.enabled).dbusValue
                    })]
                },
                DBusMethod(Router1.Method.describeRules, outputs: [.init("rules", "aa{sv}")]) { [unowned self] _, _ in
                    // Remembered answers first (index 0): they answer the asks of the rules after them.
                    let config = self.rules.engine.config
                    return [.array(elementSignature: "a{sv}", config.remembered.map(config.dbusDescription(of:)) + config.rules.map(config.dbusDescription(of:)))]
                },
                DBusMethod(Router1.Method.configSources, outputs: [.init("sources", "aa{sv}")]) { [unowned self] _, _ in
                    [.array(elementSignature: "a{sv}", self.rules.sources.map(\.dbusDescription))]
                },
                DBusMethod(Router1.Method.setRuleEnabled, inputs: [.init("name", "s"), .init("enabled", "b")]) { [unowned self] args, _ in
                    try self.setRule(args[0].string ?? "", enabled: args[1].bool ?? true)
                    return []
                },
                forgetRememberedMethod,
                DBusMethod(Router1.Method.listApps, inputs: [.init("scheme", "s")], outputs: [.init("apps", "a(ss)")]) { [unowned self] args, _ in
                    let apps = self.executor.launcher.listApps(forScheme: (args[0].string ?? "").lowercased())
                    return [.array(elementSignature: ListedApp.signature, apps.map { ListedApp(id: $0.id, name: $0.name).dbusValue })]
                },
                DBusMethod(Router1.Method.listTargets, inputs: [.init("scheme", "s")], outputs: [.init("targets", "aa{sv}")]) { [unowned self] args, _ in
                    let scheme = args[0].string.flatMap { $0.isEmpty ? nil : $0 }
                    // Discovered afresh, as `openurl apps` does: a browser installed since the last
                    // reload is listed, and so is everything while the config is broken.
                    var config = self.rules.engine.config
                    config.catalog = self.rules.discoverCatalog()
                    return [.array(elementSignature: TargetListing.dbusSignature, TargetListing.targets(for: scheme, config: config, all: true).map(\.dbusValue))]
                },
                DBusMethod(Router1.Method.recent, inputs: [.init("limit", "u")], outputs: [.init("links", "aa{sv}")]) { [unowned self] args, _ in
                    let limit = Int(args[0].uint32 ?? 0)
                    var entries = limit == 0 ? self.recent.entries : Array(self.recent.entries.suffix(limit))
                    // Newest first, and no more than fits well inside D-Bus's 64 MiB array limit:
                    // a reply over it made the bus drop the daemon.
                    var bytes = 0
                    var kept = 0
                    for entry in entries.reversed() {
                        bytes += 256 + entry.url.utf8.count + entry.finalURL.utf8.count + entry.target.utf8.count
                            + entry.rule.utf8.count + entry.opener.utf8.count + entry.outcome.description.utf8.count
                        if bytes > Self.maximumRecentReplyBytes, kept > 0 { break }
                        kept += 1
                    }
                    entries = Array(entries.suffix(kept))
                    return [.array(elementSignature: "a{sv}", entries.reversed().map { entry in
                        RecentLink(id: entry.id, time: entry.time, url: entry.url, finalURL: entry.finalURL, decision: entry.decision,
                                   target: entry.target, rule: entry.rule, opener: entry.opener, outcome: entry.outcome.description).dbusValue
                    })]
                },
                DBusMethod(Router1.Method.clearRecent) { [unowned self] _, _ in
                    self.recent.clear()
                    Log.info("recent links cleared")
                    return []
                },
                DBusMethod(Router1.Method.reopen, inputs: [.init("id", "u"), .init("target", "s")]) { [unowned self] args, context in
                    // An older caller sends no display: the caller's own is looked up, as for Open.
                    try self.reopening(args[0].uint32 ?? 0, target: args[1].string ?? "", options: try OpenOptions(.vardict([:]), method: Router1.Method.reopen), context: context)
                },
                DBusMethod(Router1.Method.reopenWithOptions, inputs: [.init("id", "u"), .init("target", "s"), .init("options", "a{sv}")]) { [unowned self] args, context in
                    try self.reopening(args[0].uint32 ?? 0, target: args[1].string ?? "", options: try OpenOptions(args[2], method: Router1.Method.reopenWithOptions), context: context)
                },
            ],
            properties: [
                DBusProperty(Router1.Property.version, signature: "s", emitsChanged: false) { .string(Self.version) },
                DBusProperty(Router1.Property.configPath, signature: "s", emitsChanged: false) { [unowned self] in .string(self.configPath) },
                DBusProperty(Router1.Property.configError, signature: "s") { [unowned self] in .string(self.rules.configError) },
                DBusProperty(Router1.Property.systemConfigError, signature: "s") { [unowned self] in .string(self.rules.systemConfigError) },
                DBusProperty(Router1.Property.moment, signature: "a{ss}", emitsChanged: false) { [unowned self] in
                    .dictionary(keySignature: "s", valueSignature: "s", self.momentShown.map { DBusDictEntry(key: .string($0.0), value: .string($0.1)) })
                },
                DBusProperty(Router1.Property.environment, signature: "a{ss}", emitsChanged: false) { [unowned self] in
                    let shown = self.displayEnvironment
                    return .dictionary(keySignature: "s", valueSignature: "s", shown.keys.sorted().map {
                        DBusDictEntry(key: .string($0), value: .string(shown[$0] ?? ""))
                    })
                },
            ],
            signals: [
                RoutedSignal.declaration,
                ConfigReloadedSignal.declaration,
            ])
    }

    /// `org.freedesktop.Application`: how GIO apps hand us links without spawning anything.
    var applicationInterface: DBusInterface {
        DBusInterface(
            name: Router1.applicationInterface,
            methods: [
                DBusMethod("Activate", inputs: [.init("platform_data", "a{sv}")]) { _, _ in
                    // openurld has no window: activation without links only makes sure it runs.
                    Log.info("activated")
                    return []
                },
                DBusMethod("Open", inputs: [.init("uris", "as"), .init("platform_data", "a{sv}")]) { [unowned self] args, context in
                    var options = try OpenOptions(args[1], method: "Open")
                    // GIO apps send no environment (the session's, or the calling app's own) and
                    // no opener or process id: the caller is asked of the bus.
                    options.environment = [:]
                    options.opener = nil
                    options.processID = nil
                    // As many as OpenText opens at once; the rest are refused, and the user told how many.
                    let uris = args[0].stringArray ?? []
                    let taken = Array(uris.prefix(Self.maximumOpenTextLinks))
                    var refused: [String] = []
                    if uris.count > taken.count {
                        let message = "Application.Open: \(uris.count) links; at most \(Self.maximumOpenTextLinks) are opened at once, so the last \(uris.count - taken.count) were not"
                        Log.warning(message)
                        self.notices.show(NotificationText.tooManyLinks(total: uris.count, opened: taken.count), kind: .failure)
                        refused.append(message)
                    }
                    return try self.answering(context) { reply in
                        self.completing(options, context: context, wantsOpener: true, wantsDisplay: true) { options in
                            self.openAll(taken, options: options) { failures in
                                let failures = failures + refused
                                reply(failures.isEmpty ? .success([]) : .failure(DBusError.invalidArgs(failures.joined(separator: "\n"))))
                            }
                        }
                    }
                },
                DBusMethod("ActivateAction", inputs: [.init("action_name", "s"), .init("parameter", "av"), .init("platform_data", "a{sv}")]) { [unowned self] args, context in
                    switch args[0].string ?? "" {
                    case "reload":
                        return try self.answering(context) { reply in self.reloadInBackground { reply(Self.reloadReply($0)) } }
                    case let name:
                        throw DBusError.invalidArgs("ActivateAction: unknown action \"\(name)\" (known: reload)")
                    }
                },
            ])
    }

    /// `Reopen` and `ReopenWithOptions`: the caller's display (sent, or looked up when the daemon
    /// has none) goes with the link, so an ask reopened by `openurl reopen` shows its window.
    /// A reload's D-Bus reply: nothing when it loaded, `ConfigInvalid` with why otherwise.
    static func reloadReply(_ problem: String?) -> Result<[DBusValue], Error> {
        guard let problem else { return .success([]) }
        return .failure(DBusError(name: Router1.Error.configInvalid, message: problem))
    }

    func reopening(_ id: UInt32, target: String, options: OpenOptions, context: DBusMessageContext) throws -> [DBusValue] {
        try answering(context) { reply in
            self.completing(options, context: context, wantsOpener: false, wantsDisplay: true) { options in
                let click = Click(activationToken: options.activationToken, environment: options.environment, isRepeat: true)
                do { try self.reopen(id: id, target: target, click: click) { reply($0.map { [] }) } } catch { reply(.failure(error)) }
            }
        }
    }

    /// The display variables launched apps get (`DISPLAY`, `WAYLAND_DISPLAY`, `XDG_SESSION_TYPE`,
    /// `XAUTHORITY`, those set): an activated daemon has the bus's activation environment, not
    /// the clicking app's, and `openurl status` shows this view.
    var displayEnvironment: [String: String] {
        let environment = executor.launcher.environment
        var shown: [String: String] = [:]
        for key in ClickEnvironment.names {
            if let value = environment[key], !value.isEmpty { shown[key] = value }
        }
        return shown
    }

    /// What `openurl status` shows of the moment: the network as last read, and what the
    /// daemon's own display tells of windows and keys.
    var momentShown: [(String, String)] {
        var moment = Moment(network: network.facts)
        let x11 = X11Snapshot.read(environment: MomentSources.display(click: [:], own: executor.launcher.environment))
        moment.window = x11.window
        moment.modifiers = x11.modifiers
        return MomentSources.describe(moment)
    }

    /// Extracts the links in `text`; refused before any work: longer text, or more links than
    /// anyone means to open at once.
    static let maximumOpenTextBytes = 1 << 20
    static let maximumOpenTextLinks = 50

    func links(in text: String) throws -> [ExtractedLink] {
        guard text.utf8.count <= Self.maximumOpenTextBytes else {
            throw DBusError.invalidArgs("OpenText: the text is \(text.utf8.count) bytes; the limit is \(Self.maximumOpenTextBytes) (1 MiB)")
        }
        let schemes = LinkExtractor.defaultSchemes.union(rules.engine.allowedSchemes)
        let links = LinkExtractor.extract(from: text, schemes: schemes)
        guard links.count <= Self.maximumOpenTextLinks else {
            throw DBusError.invalidArgs("OpenText: the text holds \(links.count) links; at most \(Self.maximumOpenTextLinks) are opened at once, so none was")
        }
        return links
    }

    /// Routes each of `links` in turn, each with the text it was shown as (Markdown, HTML,
    /// `text <url>`) for the safety verdict; `completion` gets the ones routed (a link that is
    /// not a URL is logged and skipped).
    func open(_ links: [ExtractedLink], options: OpenOptions, completion: @escaping ([ExtractedLink]) -> Void) {
        var routed: [ExtractedLink] = []
        InTurn.run(links, step: { [weak self] link, next in
            guard let self else { return next() }
            var linkOptions = options
            if let text = link.linkText { linkOptions.context = LinkContext(linkText: text, originURL: options.context?.originURL) }
            self.open(link.url, options: linkOptions) { result in
                switch result {
                case .success: routed.append(link)
                case .failure(let error): Log.warning("OpenText: \(Log.shown(link.url)): \(error)")
                }
                next()
            }
        }, finished: { completion(routed) })
    }

    /// Routes each URI of an `Application.Open` in turn; `completion` gets the refusals.
    func openAll(_ uris: [String], options: OpenOptions, completion: @escaping ([String]) -> Void) {
        var failures: [String] = []
        var options = options
        InTurn.run(uris, step: { [weak self] uri, next in
            guard let self else { return next() }
            self.open(uri, options: options) { result in
                if case .failure(let error as DBusError) = result { failures.append(error.message) }
                // A token raises one window: only the first link carries it.
                options.activationToken = nil
                next()
            }
        }, finished: { completion(failures) })
    }

    /// Copies a URL (the addresses of a mailto) outside the rules, and confirms it.
    func copy(_ url: String, environment: [String: String], completion: @escaping (Result<Void, Error>) -> Void) {
        do {
            try executor.copy(url, click: Click(environment: environment)) { outcome in
                if case .failed(let why) = outcome { return completion(.failure(DBusError(name: Router1.Error.failed, message: why))) }
                completion(.success(()))
            }
        } catch {
            completion(.failure(DBusError.invalidArgs("\(Text.shortened(url)): \(error.message)")))
        }
    }
}

extension Intent {
    /// A short description for `ListRules`: `open firefox.desktop`, `copy {to}`, `ask a, b`.
    var summary: String {
        switch self {
        case .open(let target): return "open \(target)"
        case .openFirstRunning(let targets): return "open the first running of " + targets.map(\.description).joined(separator: ", ")
        case .copy(let template): return "copy" + (template.map { " \($0)" } ?? "")
        case .ask(let choices): return "ask " + choices.map(\.description).joined(separator: ", ")
        case .discard: return "discard"
        case .system: return "system"
        }
    }
}

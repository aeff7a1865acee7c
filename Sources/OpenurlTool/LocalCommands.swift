import ConfigFiles
import DesktopDefaults
import Execution
import Launching
import OpenurlCommands
import Platform
import URLModel
import LinkExtraction
import JSON
import SessionState
import RoutingCore
import Catalog
import ConfigLanguage
import Routing

/// Commands that work without the daemon: test, check, extract, install, uninstall.
extension Client {
    func runCheck(_ parsed: ParsedCommand) -> Int32 {
        let path = parsed.value("--config")
        let layers = loadLayers(path: path)
        let system = layers.sources.filter { $0.layer == .system }
        for source in system { Output.print(LayerText.line(source, rules: layers.config.rules)) }
        let systemError = layers.systemError
        if parsed.flag("--system") {
            if system.isEmpty { Output.print("no system configuration: none of \(SystemConfig.directories(configDirs: paths.configDirs).joined(separator: ", ")) holds config.toml or config.d/*.toml") }
            if !systemError.isEmpty { Output.error(systemError) }
            return systemError.isEmpty ? ExitCode.success : ExitCode.config
        }
        if !systemError.isEmpty { Output.error("openurl: " + LayerText.systemProblem(systemError)) }
        if let failure = layers.userFailure {
            Output.error(failure.description)
            return ExitCode.config
        }
        let config = layers.config
        let file = path ?? paths.configFile
        let source = FileSystem.exists(file) ? file : "built-in defaults (no file at \(paths.configFile))"
        for answer in config.missingApps where answer.remembered {
            Output.error("warning: \(answer.diagnostic) (this remembered answer is not used; the question is asked again)")
        }
        // A target that is not installed loads (the daemon keeps the rest in force) but is an error here.
        if let missing = config.missingAppsError {
            Output.error(missing.description)
            let count = missing.diagnostics.count
            Output.error("\(source): \(Self.counted(count, "target")) not installed; the daemon and embedded mode use the rest of the config and refuse links to \(count == 1 ? "it" : "them") with a notification")
            return ExitCode.config
        }
        let rememberedPath = ConfigFile.rememberedPath(besides: file)
        let remembered = config.remembered.count
        let own = config.rules.filter { $0.source.layer != .system }.count
        let rememberedNote = remembered > 0 ? " (and \(remembered) remembered, from \(rememberedPath))" : ""
        Output.print("\(source): OK, \(Self.counted(own, "rule"))\(rememberedNote), \(Self.counted(config.rewrites.filter { $0.layer != .system }.count, "rewrite")), "
            + "\(Self.counted(config.apps.count, "app")), \(Self.counted(config.catalog.browsers.count, "browser")) found")
        for source in layers.sources where source.layer != .system && source.siteList != nil { Output.print(LayerText.line(source, rules: config.rules)) }
        for note in config.notes { Output.error("warning: \(note)") }
        for warning in Self.warnings(for: config, environment: environment) { Output.error("warning: \(warning)") }
        // The entries a link may be launched with: a second URL code once gave a browser five tabs.
        let linkEntries = DesktopEntryDirectory(paths: paths).allEntries(containing: ["x-scheme-handler/"])
            .filter { entry in ["http", "https", "mailto"].contains { entry.handles(scheme: $0) } }
        for problem in linkEntries.flatMap(\.execProblems) { Output.error("warning: \(problem)") }
        return checkSafety(config, path: file)
    }

    /// `1 rule`, `2 rules`.
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// Problems that do not stop the config from loading but will bite at click time.
    static func warnings(for config: Config, environment: [String: String]) -> [String] {
        // What a load left out to stay in its limits (profiles, site-list entries) is said, not dropped silently.
        var warnings = config.warnings.map(\.description) + ConfigFile.skipped(in: config)
        // A mail program named by a rule that is not installed refuses its links.
        var named: [String] = []
        for action in [config.defaultAction] + config.rules.map(\.action) {
            switch action {
            case .open(.mailer(let name)): named.append(name)
            case .ask(let choices): for case .open(.mailer(let name)) in choices { named.append(name) }
            default: break
            }
        }
        for name in Set(named).sorted() {
            guard let mailer = Mailer.named(name), mailer.entry(in: config.catalog) == nil else { continue }
            warnings.append("mail target \(name): \(mailer.title) is not installed (no \(mailer.desktopIDs.joined(separator: ", ")) was found), so its links are refused")
        }
        if let program = config.settings.picker?.first, ProcessLauncher.resolve(program, environment: environment) == nil {
            warnings.append("settings.picker: \(program) is not on PATH; asks will fall back to \(config.settings.askOrder.filter { $0 != .picker }.map(\.rawValue).joined(separator: ", then "))")
        }
        let needs = RuleEngine.needs(of: config)
        if needs.contains(.network), case .unknown(let why) = NetworkWatcher.readOnce(environment: environment) {
            warnings.append("match.network and match.vpn: \(why)")
        }
        if !needs.isDisjoint(with: [.window, .modifiers]), let why = X11Snapshot.unavailable(environment) {
            warnings.append("match.window, match.modifiers and shift_asks: \(why), so they never hold for clicks from here")
        }
        return warnings
    }

    func runTest(_ parsed: ParsedCommand) -> Int32 {
        let json = parsed.flag("--json")
        let path = parsed.value("--config")
        let openerID = parsed.value("--opener")
        let context = LinkContext(linkText: parsed.value("--link-text"), originURL: parsed.value("--origin-url"))
        let url = parsed.positionals[0]
        let config: Config
        switch loadConfig(path: path) {
        case .success(let loaded): config = loaded
        case .failure(let error):
            Output.error(error.description)
            return ExitCode.config
        }
        // --opener stands for every kind of name, so any `match.opener` glob can be tried.
        let opener = openerID.map { Opener(desktopID: $0, flatpakID: $0, processName: $0, snapID: $0) }
        do {
            let engine = RuleEngine(config: config)
            let moment: Moment
            switch testMoment(parsed, needs: engine.momentNeeds) {
            case .success(let given): moment = given
            case .failure(let error): return fail(error.message, code: ExitCode.usage)
            }
            let decision = try engine.decide(url, opener: opener, moment: moment, explain: true, context: context == LinkContext() ? nil : context)
            let launcher = AppLauncher(paths: paths, environment: environment,
                                       systemHandler: { [paths] scheme in try DefaultHandlers(paths: paths).systemHandler(forScheme: scheme).id })
            let launch = DecisionText.Launch(plan: Result { try decision.launch.map { try launcher.plan($0) } })
            Output.print(json ? DecisionText.json(decision, launch: launch).text : DecisionText.describe(decision, launch: launch))
            return ExitCode.success
        } catch {
            Output.error("openurl: \(error.message)")
            return ExitCode.usage
        }
    }

    func runExtract(_ parsed: ParsedCommand) -> Int32 {
        let open = parsed.flag("--open")
        let all = parsed.flag("--all")
        let json = parsed.flag("--json")
        let selection = parsed.flag("--selection")
        let text: String
        if selection {
            guard let selected = PrimarySelection.read(environment: environment) else {
                return fail("cannot read the primary selection: needs wl-paste (Wayland) or xclip (X11)", code: ExitCode.notCarriedOut)
            }
            text = selected
        } else if let file = parsed.positionals.first, file != "-" {
            guard let data = FileSystem.contents(file) else { return fail("cannot read \(file)", code: ExitCode.usage) }
            text = String(decoding: data, as: UTF8.self)
        } else {
            text = String(decoding: StandardStream.input.readToEnd(), as: UTF8.self)
        }
        let engine = RuleEngine(config: (try? loadConfig(path: nil).get()) ?? Config())
        let schemes = LinkExtractor.defaultSchemes.union(engine.allowedSchemes)
        let links = LinkExtractor.extract(from: text, schemes: schemes)
        if json {
            for link in links {
                // The verdict a click on it would get: the link text counts, as it does when opened.
                let context = link.linkText.map { LinkContext(linkText: $0) }
                let safety: JSONValue = (try? engine.decide(link.url, context: context).safety.json) ?? .null
                Output.print(JSONValue.object([("text", .string(link.text)), ("url", .string(link.url)),
                                               ("start", .number(link.utf8Range.lowerBound)), ("end", .number(link.utf8Range.upperBound)),
                                               ("link_text", link.linkText.map { .string($0) } ?? .null),
                                               ("safety", safety)]).text)
            }
        } else if !open {
            for link in links { Output.print(link.url) }
        }
        guard open else { return links.isEmpty ? ExitCode.notCarriedOut : ExitCode.success }
        if links.isEmpty { return fail("no links found", code: ExitCode.notCarriedOut) }
        if links.count > 10 && !all {
            return fail("\(links.count) links found; pass --all to open more than 10", code: ExitCode.usage)
        }
        return routeExtracted(links)
    }

    func runInstall(_ parsed: ParsedCommand) -> Int32 {
        let force = parsed.flag("--force")
        let handlers = DefaultHandlers(paths: paths)
        if let problem = ActivationCheck(paths: paths).problem() {
            if !force {
                return fail("not taking over the defaults: \(problem)\n(links would be lost; fix it, or pass --force to install anyway)",
                            code: ExitCode.notCarriedOut)
            }
            Output.error("openurl: warning: \(problem)")
        }
        do {
            let (shadowed, changed) = try handlers.installReporting(openurl: Self.handlerPath, environment: environment)
            Output.print("openurld is now the default handler for http, https and mailto (what was there is saved in \(handlers.recordFile))")
            // Only what this run changed: a second install changes nothing and says so.
            for file in changed { Output.print("  changed \(file)") }
            if changed.isEmpty { Output.print("  nothing to change: every file already names openurld") }
            for type in shadowed { Output.error("openurl: warning: a system-wide mimeapps.list still overrides \(type)") }
            return ExitCode.success
        } catch {
            return fail("install failed: \(error)", code: ExitCode.notCarriedOut)
        }
    }

    /// The `openurl` handler beside this executable, as XFCE's helper entries should run it.
    static var handlerPath: String {
        let exe = (try? FileSystem.symbolicLinkTarget("/proc/self/exe")) ?? ProcessArguments.current.first ?? "openurl-tool"
        let beside = Path.parent(exe) + "/openurl"
        return FileSystem.isExecutable(beside) ? beside : "openurl"
    }

    func runUninstall() -> Int32 {
        do {
            try DefaultHandlers(paths: paths).uninstall()
            Output.print("restored the previous default handlers for http, https and mailto")
            return ExitCode.success
        } catch {
            return fail("uninstall failed: \(error)", code: ExitCode.notCarriedOut)
        }
    }
}

import URLModel
import Patterns
import Hygiene
import RoutingCore
import Catalog
import TOML
import Templates

/// Reads a `config.toml` into a `Config`, reporting every problem as `FILE:LINE:COLUMN: message`.
public enum ConfigLoader {
    /// The keys each table accepts, for unknown-key errors and suggestions: all from the schema
    /// table (ConfigSchema.swift), which also generates the JSON Schema. Add new keys there.
    static let topKeys = ConfigSchema.names(ConfigSchema.top)
    static let settingsKeys = ConfigSchema.names(ConfigSchema.settings)
    static let actionKeys = ConfigSchema.names(ConfigSchema.actions)
    static let ruleKeys = ConfigSchema.names(ConfigSchema.rule)
    static let rewriteKeys = ConfigSchema.names(ConfigSchema.rewrite)
    static let matcherKeys = ConfigSchema.names(ConfigSchema.matchers)
    static let defaultKeys = ConfigSchema.names(ConfigSchema.defaults)
    static let appKeys = ConfigSchema.names(ConfigSchema.app)
    static let webmailKeys = ConfigSchema.names(ConfigSchema.webmail)
    static let replaceKeys = ConfigSchema.names(ConfigSchema.replace)
    static let redirectorKeys = ConfigSchema.names(ConfigSchema.redirector)
    static let siteListKeys = ConfigSchema.names(ConfigSchema.sitelist)
    static let clipboardBackends = ["auto", "wl-copy", "xclip", "xsel", "klipper"]

    /// The largest config accepted, in bytes: far more than any hand-written config, small
    /// enough that loading one takes a fraction of a second on the daemon's only thread.
    public static let maximumBytes = 1 << 20
    /// The most `[[rules]]` (and, separately, `[[rewrite]]`) tables accepted.
    public static let maximumRules = 10_000

    /// Loads `text` (the contents of `path`) as the user's only config file; throws every
    /// problem found, never a partial config. Browser targets (`firefox:Work`, `[apps.X]
    /// browser = …`) are checked against `catalog`, which the caller discovered (the loader
    /// itself reads no files). A `[[sitelist]]`'s list stays empty: the caller reads the file.
    public static func load(text: String, path: String, catalog: AppCatalog = AppCatalog()) throws(ConfigError) -> Config {
        var base = Config(path: path)
        base.catalog = catalog
        return try load(text: text, path: path, catalog: catalog, layer: .user, base: base).finishingLayers()
    }

    /// Loads `text` over `base` as a file of `layer` (see `load(text:path:layer:over:)`).
    static func load(text: String, path: String, catalog: AppCatalog, layer: ConfigLayer, base: Config) throws(ConfigError) -> Config {
        var collector = DiagnosticCollector(path: path)
        guard text.utf8.count <= maximumBytes else {
            collector.report("the config is \(text.utf8.count) bytes; the limit is \(maximumBytes) (1 MiB)", at: SourcePosition(line: 1, column: 1))
            throw ConfigError(diagnostics: collector.diagnostics)
        }
        let root: TOMLNode
        do {
            root = try TOMLParser.parse(text)
        } catch {
            collector.report(error.message, at: error.position)
            throw ConfigError(diagnostics: collector.diagnostics)
        }
        var config = base
        config.catalog = catalog
        let top = root.members ?? []
        collector.checkKeys(top, known: topKeys, in: "the top level")
        let firstNew = config.rules.count
        var reader = ConfigReader(collector: collector, config: config, layer: layer)
        if let apps = root["apps"] { reader.readApps(apps) }
        if let webmail = root["webmail"] { reader.readWebmail(webmail) }
        if let settings = root["settings"] { reader.readSettings(settings) }
        if let defaults = root["default"] { reader.readDefault(defaults) }
        if let rewrites = root["rewrite"] { reader.readRewrites(rewrites) }
        if let rules = root["rules"] { reader.readRules(rules) }
        if let redirectors = root["redirector"] { reader.readRedirectors(redirectors) }
        if let siteLists = root["sitelist"] { reader.readSiteLists(siteLists) }
        config = reader.config
        // [[rules]] and [[sitelist]] tables are tried in the order they stand in the file.
        if !config.siteLists.isEmpty {
            let added = config.rules[firstNew...].enumerated().sorted { ($0.element.position.line, $0.offset) < ($1.element.position.line, $1.offset) }
            config.rules.replaceSubrange(firstNew..., with: added.map(\.element))
        }
        collector = reader.collector
        guard collector.diagnostics.isEmpty else {
            let sorted = collector.diagnostics.enumerated().sorted {
                ($0.element.position.line, $0.element.position.column, $0.offset) < ($1.element.position.line, $1.element.position.column, $1.offset)
            }.map(\.element)
            throw ConfigError(diagnostics: sorted)
        }
        return config
    }
}

/// The state of one load: the config being filled in and the problems found so far.
struct ConfigReader {
    var collector: DiagnosticCollector
    var config: Config
    /// The layer of the file being read.
    var layer: ConfigLayer = .user
    /// The targets the rules named so far, while `[[rules]]` is read (the apps, webmail and
    /// catalog they resolve against are fixed by then): 1,000 rules naming a handful of
    /// targets resolved each again, with a copy of the config each time (~5M instructions).
    var resolvedTargets: [String: Target]?

    /// Reading `remembered.toml`: its missing targets are noted as remembered.
    var readingRemembered: Bool { layer == .remembered }

    init(collector: DiagnosticCollector, config: Config, layer: ConfigLayer = .user) {
        self.collector = collector
        self.config = config
        self.layer = layer
    }

    /// Notes `target` as not installed, with why (the config still loads without it).
    mutating func noteMissing(_ target: String, _ message: String, at position: SourcePosition) {
        config.missingApps.append(MissingApp(target: target, diagnostic: ConfigDiagnostic(path: collector.path, position: position, message: message),
                                             remembered: readingRemembered))
    }

    /// Notes where a desktop id is named, to check once the entries are looked up.
    mutating func noteDesktopID(_ id: String, context: String, at position: SourcePosition) {
        config.desktopReferences.append(DesktopReference(id: id, context: context, diagnosticPath: collector.path, position: position, remembered: readingRemembered))
    }

    mutating func readApps(_ node: TOMLNode) {
        guard let apps = collector.table(node, "apps") else { return }
        let locked = layer == .system ? [] : Locks.lockedTargets(of: config)
        for (name, appNode) in apps {
            if locked.contains(name) {
                note("[apps.\(name)] is opened by a locked rule of the system configuration; this definition is not used", at: appNode.keyPosition)
                continue
            }
            guard let members = collector.table(appNode, "apps.\(name)") else { continue }
            collector.checkKeys(members, known: ConfigLoader.appKeys, in: "[apps.\(name)]")
            let desktop = appNode["desktop"].flatMap { collector.string($0, "apps.\(name).desktop") }
            if let desktop, let node = appNode["desktop"] { noteDesktopID(desktop, context: "apps.\(name): ", at: node.position) }
            let argsItems = appNode["args"].flatMap { collector.strings($0, "apps.\(name).args") }
            let execItems = appNode["exec"].flatMap { collector.strings($0, "apps.\(name).exec") }
            let args = argsItems?.map(\.0), exec = execItems?.map(\.0)
            for (template, position) in (argsItems ?? []) + (execItems ?? []) {
                checkPlaceholders(template, at: appNode.position, "apps.\(name)")
                if let problem = Template.spliceProblem(in: template) { warn("apps.\(name): \(template.debugDescription): \(problem)", at: position) }
            }
            if let browserNode = appNode["browser"] {
                readBrowserApp(name, appNode, browserNode)
                continue
            }
            if appNode["profile"] != nil { collector.report("[apps.\(name)]: profile goes with browser = \"…\"", at: appNode.position) }
            switch (desktop, exec) {
            case (let id?, nil):
                config.apps[name] = .desktop(id: id, args: args)
            case (nil, let argv?):
                if appNode["args"] != nil { collector.report("[apps.\(name)]: args goes with desktop; put the arguments in exec", at: appNode.position) }
                config.apps[name] = .exec(argv)
            case (.some, .some):
                collector.report("[apps.\(name)]: give either desktop (with args) or exec, not both", at: appNode.position)
            case (nil, nil):
                if appNode["desktop"] == nil && appNode["exec"] == nil {
                    collector.report("[apps.\(name)]: expected desktop = \"ID.desktop\" or exec = [\"program\", \"{url}\"], or browser = \"firefox\"", at: appNode.position)
                }
            }
        }
    }

    /// `[apps.NAME] browser = "…", profile = "…"`: checked against the discovered browsers.
    private mutating func readBrowserApp(_ name: String, _ appNode: TOMLNode, _ browserNode: TOMLNode) {
        for key in ["desktop", "args", "exec"] where appNode[key] != nil {
            collector.report("[apps.\(name)]: \(key) does not go with browser (the browser's own entry is launched)", at: appNode[key]?.keyPosition ?? appNode.position)
        }
        guard let browser = collector.string(browserNode, "apps.\(name).browser") else { return }
        let profileNode = appNode["profile"]
        let profile = profileNode.flatMap { collector.string($0, "apps.\(name).profile") }
        if profileNode != nil && profile == nil { return }
        switch config.catalog.resolve(browser: browser, profile: profile) {
        case .success(let target): config.apps[name] = .browser(target)
        case .failure(let error):
            // Not installed (or not found): the rest of the config stands; links to it are refused.
            // A bad profile is reported where the profile is written, a bad browser where it is.
            let position = config.catalog.browser(named: browser) == nil ? browserNode.position : (profileNode?.position ?? browserNode.position)
            let message = "apps.\(name): \(error.message)"
            noteMissing(name, message, at: position)
            config.apps[name] = .unavailable(message)
        }
    }

    mutating func readWebmail(_ node: TOMLNode) {
        guard let entries = collector.table(node, "webmail") else { return }
        let locked = layer == .system ? [] : Locks.lockedTargets(of: config)
        for (name, entry) in entries {
            if locked.contains(name) {
                note("[webmail.\(name)] is opened by a locked rule of the system configuration; this definition is not used", at: entry.keyPosition)
                continue
            }
            guard let members = collector.table(entry, "webmail.\(name)") else { continue }
            collector.checkKeys(members, known: ConfigLoader.webmailKeys, in: "[webmail.\(name)]")
            guard let composeNode = entry["compose"] else {
                collector.report("[webmail.\(name)]: expected compose = \"https://...{to}...\"", at: entry.position)
                continue
            }
            guard let compose = collector.string(composeNode, "webmail.\(name).compose") else { continue }
            checkPlaceholders(compose, at: composeNode.position, "webmail.\(name).compose")
            if (try? ParsedURL(compose.replacingPlaceholders())) == nil {
                collector.report("webmail.\(name).compose: expected a URL template like \"https://mail.example.com/compose?to={to}\"", at: composeNode.position)
            }
            config.webmail[name] = compose
        }
    }

    mutating func readSettings(_ given: TOMLNode) {
        guard let members = collector.table(given, "settings") else { return }
        collector.checkKeys(members, known: ConfigLoader.settingsKeys, in: "[settings]")
        let node = readSettingLocks(given, members)
        if let clipboard = node["clipboard"] {
            switch clipboard.value {
            case .string(let name):
                if name == "auto" { config.settings.clipboard = .auto }
                else if ConfigLoader.clipboardBackends.contains(name) { config.settings.clipboard = .backend(name) }
                else {
                    let hint = DiagnosticCollector.nearest(to: name, among: ConfigLoader.clipboardBackends).map { "; did you mean \"\($0)\"?" } ?? ""
                    collector.report("settings.clipboard: unknown backend \"\(name)\" (expected one of \(ConfigLoader.clipboardBackends.joined(separator: ", ")), or a command as a list)\(hint)", at: clipboard.position)
                }
            case .array:
                if let argv = collector.strings(clipboard, "settings.clipboard") { config.settings.clipboard = .command(argv.map(\.0)) }
            default:
                collector.report("settings.clipboard: expected a string or a list of strings, found \(clipboard.typeDescription)", at: clipboard.position)
            }
        }
        if let picker = node["picker"], let argv = collector.strings(picker, "settings.picker") { config.settings.picker = argv.map(\.0) }
        if let clean = node["clean"], let value = collector.bool(clean, "settings.clean") { config.settings.clean = value }
        if let unwrap = node["unwrap"], let value = collector.bool(unwrap, "settings.unwrap") { config.settings.unwrap = value }
        if let recent = node["recent"], let value = collector.integer(recent, "settings.recent", range: 0...10_000) {
            config.settings.recent = value
        }
        if let dedupe = node["dedupe_ms"], let value = collector.integer(dedupe, "settings.dedupe_ms", range: 0...60_000) {
            config.settings.dedupeMilliseconds = value
        }
        if let askWith = node["ask_with"], let name = collector.string(askWith, "settings.ask_with") {
            if let value = Config.AskWith(rawValue: name) { config.settings.askWith = value } else {
                let names = Config.AskWith.allCases.map(\.rawValue)
                let hint = DiagnosticCollector.nearest(to: name, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
                collector.report("settings.ask_with: unknown way to ask \"\(name)\" (expected one of \(names.joined(separator: ", ")))\(hint)", at: askWith.position)
            }
        }
        if let timeout = node["ask_timeout"], let value = collector.integer(timeout, "settings.ask_timeout", range: 1...86_400) {
            config.settings.askTimeout = value
        }
        if let idle = node["chooser_idle"], let value = collector.integer(idle, "settings.chooser_idle", range: 0...86_400) {
            config.settings.chooserIdle = value
        }
        if let appLinks = node["app_links"], let value = readAppLinks(appLinks, "settings.app_links") { config.settings.appLinks = value }
        if let shiftAsks = node["shift_asks"], let value = collector.bool(shiftAsks, "settings.shift_asks") { config.settings.shiftAsks = value }
        if let guardDefaults = node["guard_defaults"], let value = collector.bool(guardDefaults, "settings.guard_defaults") {
            config.settings.guardDefaults = value
        }
        if let clearURLs = node["clearurls"], let value = collector.string(clearURLs, "settings.clearurls") {
            config.settings.clearURLsPath = value
            config.settings.clearURLsPosition = clearURLs.position
        }
        readSafetySettings(node)
    }

    mutating func readDefault(_ node: TOMLNode) {
        guard let members = collector.table(node, "default") else { return }
        collector.checkKeys(members, known: ConfigLoader.defaultKeys, in: "[default]")
        guard readDefaultLock(node) else { return }
        if let action = readAction(node, context: "[default]", required: false) { config.defaultAction = action }
        if let notify = node["notify"] { config.defaultNotify = collector.bool(notify, "default.notify") }
    }

    mutating func readRules(_ node: TOMLNode) {
        guard case .array(let items) = node.value else {
            collector.report("rules: expected [[rules]] tables, found \(node.typeDescription)", at: node.position)
            return
        }
        if items.count > ConfigLoader.maximumRules {
            collector.report("\(items.count) [[rules]] tables; the limit is \(ConfigLoader.maximumRules)", at: items[ConfigLoader.maximumRules].keyPosition)
            return
        }
        var names = namesTaken()
        resolvedTargets = [:]
        defer { resolvedTargets = nil }
        config.rules.reserveCapacity(config.rules.count + items.count)
        for (offset, item) in items.enumerated() {
            let context = "[[rules]] #\(offset + 1)"
            guard let members = collector.table(item, context) else { continue }
            collector.checkKeys(members, known: ConfigLoader.ruleKeys, in: "[[rules]]")
            var name: String?
            if let nameNode = item["name"], let value = collector.string(nameNode, "rules.name") {
                if let first = names[value] {
                    let place = first.file == collector.path ? "line \(first.line)" : "\(first.file):\(first.line)"
                    collector.report("duplicate rule name \"\(value)\" (first used at \(place)); rule names must be unique", at: nameNode.position)
                } else {
                    names[value] = RuleSource(layer: layer, file: collector.path, line: nameNode.position.line)
                }
                name = value
            }
            let matchers = item["match"].map { readMatchers($0, context: context) } ?? []
            let action = readAction(item, context: context, required: true)
            let enabled = item["enabled"].flatMap { collector.bool($0, "rules.enabled") } ?? true
            // Read in the order diagnostics are reported, then built where it is kept: a local
            // Rule appended was copied (each field retained) and then destroyed, ~580
            // instructions a rule (`append(consume rule)` crashes Swift 6.3's compiler).
            let notify = item["notify"].flatMap { collector.bool($0, "rules.notify") }
            let clean = item["clean"].flatMap { collector.bool($0, "rules.clean") }
            let unwrap = item["unwrap"].flatMap { collector.bool($0, "rules.unwrap") }
            let appLinks = item["app_links"].flatMap { readAppLinks($0, "rules.app_links") }
            let source = ruleSource(item, "rules")
            let ruleIdentity = identity(name.map { "name:" + $0 } ?? "rule:" + item.canonicalText(omitting: Self.identityOmits))
            let safety = item["safety"].flatMap { readSafetyPolicy($0, "rules.safety") }
            config.rules.append(Rule(name: name, index: offset + 1, matchers: matchers, action: action ?? .discard, notify: notify, enabled: enabled,
                                     clean: clean, unwrap: unwrap, appLinks: appLinks, position: item.position))
            let last = config.rules.count - 1
            config.rules[last].source = source
            config.rules[last].identity = ruleIdentity
            config.rules[last].safety = safety
            config.rules[last].matchSource = item["match"]
        }
    }

    mutating func readRewrites(_ node: TOMLNode) {
        guard case .array(let items) = node.value else {
            collector.report("rewrite: expected [[rewrite]] tables, found \(node.typeDescription)", at: node.position)
            return
        }
        for (offset, item) in items.enumerated() {
            let context = "[[rewrite]] #\(offset + 1)"
            guard let members = collector.table(item, context) else { continue }
            collector.checkKeys(members, known: ConfigLoader.rewriteKeys, in: "[[rewrite]]")
            let matchers = item["match"].map { readMatchers($0, context: context) } ?? []
            var replacement: Rewrite.Replacement?
            switch (item["replace"], item["template"]) {
            case (let replace?, nil):
                replacement = readReplace(replace)
            case (nil, let templateNode?):
                if let template = collector.string(templateNode, "rewrite.template") {
                    checkPlaceholders(template, at: templateNode.position, "rewrite.template")
                    replacement = .template(template)
                }
            case (.some, .some):
                collector.report("\(context): give either replace or template, not both", at: item.position)
            case (nil, nil):
                collector.report("\(context): expected replace = { from = \"regex\", to = \"...\" } or template = \"...\"", at: item.position)
            }
            guard let replacement else { continue }
            config.rewrites.append(Rewrite(
                name: item["name"].flatMap { collector.string($0, "rewrite.name") }, index: offset + 1,
                matchers: matchers, replacement: replacement,
                enabled: item["enabled"].flatMap { collector.bool($0, "rewrite.enabled") } ?? true, layer: layer))
        }
    }

    private mutating func readReplace(_ node: TOMLNode) -> Rewrite.Replacement? {
        guard let members = collector.table(node, "rewrite.replace") else { return nil }
        collector.checkKeys(members, known: ConfigLoader.replaceKeys, in: "rewrite.replace")
        guard let fromNode = node["from"], let toNode = node["to"] else {
            collector.report("rewrite.replace: expected both from (a regex) and to (the replacement)", at: node.position)
            return nil
        }
        guard let from = collector.string(fromNode, "rewrite.replace.from"), let to = collector.string(toNode, "rewrite.replace.to") else { return nil }
        do {
            return .regex(try PatternRegex(from), to: to)
        } catch {
            collector.report("rewrite.replace.from: invalid regex: \(error.message) at offset \(error.offset)", at: fromNode.position)
            return nil
        }
    }

    mutating func readRedirectors(_ node: TOMLNode) {
        guard case .array(let items) = node.value else {
            collector.report("redirector: expected [[redirector]] tables, found \(node.typeDescription)", at: node.position)
            return
        }
        for (offset, item) in items.enumerated() {
            guard let members = collector.table(item, "[[redirector]] #\(offset + 1)") else { continue }
            collector.checkKeys(members, known: ConfigLoader.redirectorKeys, in: "[[redirector]]")
            guard let hostNode = item["host"], let paramsNode = item["params"] else {
                collector.report("[[redirector]] #\(offset + 1): expected host = \"go.example.com\" and params = [\"url\"] (path is optional)", at: item.position)
                continue
            }
            guard let host = collector.string(hostNode, "redirector.host"), let params = collector.strings(paramsNode, "redirector.params") else { continue }
            let path = item["path"].flatMap { collector.string($0, "redirector.path") } ?? "/"
            let name = item["name"].flatMap { collector.string($0, "redirector.name") } ?? host
            config.redirectors.append(Redirector(name: name, hostPattern: host.lowercased(), pathPrefix: path, parameters: params.map(\.0)))
        }
    }

    /// `true`, `false`, or a list of conversion names (`["zoom", "teams"]`).
    mutating func readAppLinks(_ node: TOMLNode, _ what: String) -> AppLinkSetting? {
        if case .boolean(let flag) = node.value { return flag ? .all : AppLinkSetting.none }
        guard case .array = node.value, let items = collector.strings(node, what) else {
            collector.report("\(what): expected true, false or a list of names (\(AppLink.names.joined(separator: ", ")))", at: node.position)
            return nil
        }
        var names = Set<String>()
        for (item, position) in items {
            guard AppLink.names.contains(item) else {
                let hint = DiagnosticCollector.nearest(to: item, among: AppLink.names).map { "; did you mean \"\($0)\"?" } ?? ""
                collector.report("\(what): unknown app link \"\(item)\" (known: \(AppLink.names.joined(separator: ", ")))\(hint)", at: position)
                continue
            }
            names.insert(item)
        }
        return .only(names)
    }

    mutating func checkPlaceholders(_ template: String, at position: SourcePosition, _ what: String) {
        for name in Template.unknownPlaceholders(in: template) {
            collector.report("\(what): unknown placeholder {\(name)} (known: \(Template.placeholders.map { "{\($0)}" }.joined(separator: ", ")))", at: position)
        }
    }
}

extension String {
    /// The template with every `{placeholder}` replaced by `x`, to check its URL shape.
    func replacingPlaceholders() -> String {
        Template.expand(self, fields: Template.Fields(every: "x"), context: .text)
    }
}

import Platform
import URLModel
import Hygiene
import LinkSafety
import RoutingCore
import Catalog
import Templates
import ConfigLanguage
import Patterns
import TOML

/// Decides what happens to each URL under a `Config`: rewrites, then the first matching rule,
/// then `[default]`, else `system`.
///
/// Rules are indexed (`RuleIndex`), so a URL only tries the rules that could match it; the
/// decision is the same as trying every rule in order (a test checks this), only faster.
public struct RuleEngine: Sendable {
    /// The configuration in force.
    public let config: Config
    /// Webmail re-routing stops after this many hops, so no config can loop.
    public static let maximumDepth = 4

    private let index: RuleIndex
    let routedSchemes: Set<String>
    let hygiene: URLHygiene
    /// The app links whose app is installed, with the entry that opens them (most configs: none).
    private let installedAppLinks: [(link: AppLink, handler: String)]
    /// How many rules, from the first, the system configuration locked: they are tried before
    /// the user's rewrites, and a forced ask does not override them.
    let lockedCount: Int
    /// Whether any rewrite comes from the user's layers (else one pass of rewrites does).
    private let hasUserRewrites: Bool
    /// The link safety checks, with the known domains (the rules', then sites visited) and lists.
    public internal(set) var safety: SafetyChecker

    /// Schemes routed with no rule naming them.
    public static let defaultSchemes: Set<String> = ["http", "https", "mailto"]

    /// Prepares `config` for deciding.
    public init(config: Config) {
        self.config = config
        var schemes = Self.defaultSchemes
        // Fields read through the array (`for rule in` copied each Rule, ~600 instructions a rule).
        for position in config.rules.indices {
            for matcher in config.rules[position].matchers { schemes.formUnion(matcher.namedSchemes) }
        }
        momentNeeds = Self.needs(of: config)
        index = RuleIndex(rules: config.rules)
        lockedCount = config.lockedRuleCount
        hasUserRewrites = config.rewrites.contains { $0.layer != .system }
        routedSchemes = schemes
        hygiene = config.hygiene()
        installedAppLinks = AppLink.table.compactMap { link in config.catalog.handler(forScheme: link.scheme).map { (link, $0.id) } }
        safety = config.safetyChecker()
        usesOpener = config.rules.contains { $0.matchers.contains(where: \.looksAtOpener) }
            || config.remembered.contains { $0.matchers.contains(where: \.looksAtOpener) }
    }

    /// True when some rule (or remembered answer) matches on the opener, so callers need to find
    /// out who opened a link. Worked out once: asked on every click, it once copied every rule
    /// each time (~250 µs a click at 1,000 rules).
    public let usesOpener: Bool

    /// The facts of the moment the rules look at (network, time, window, keys, running
    /// programs): callers gather these, and only these, for each click.
    public let momentNeeds: MomentNeeds

    /// The facts of the moment `config`'s rules, rewrites and settings look at (remembered
    /// answers' included).
    public static func needs(of config: Config) -> MomentNeeds {
        var needs: MomentNeeds = config.settings.shiftAsks ? .modifiers : []
        // Each array walked where it is: `rules + remembered` copied all 1,000 rules, twice a start.
        for rules in [config.rules, config.remembered] {
            for position in rules.indices {
                for matcher in rules[position].matchers { needs.formUnion(matcher.needs) }
                if case .openFirstRunning = rules[position].action { needs.insert(.running) }
            }
        }
        for rewrite in config.rewrites { for matcher in rewrite.matchers { needs.formUnion(matcher.needs) } }
        if case .openFirstRunning = config.defaultAction { needs.insert(.running) }
        return needs
    }

    /// The schemes this config lets through: http, https, mailto and any a rule names.
    public var allowedSchemes: Set<String> { routedSchemes }

    /// A web link headed for a browser (or the system handler) whose native app is installed opens
    /// in that app instead, converted by the first matching `AppLink` the setting allows.
    func openInNativeApp(_ setting: AppLinkSetting, url: ParsedURL, decision: inout Decision) {
        guard !installedAppLinks.isEmpty, setting != .none, url.scheme == "https" || url.scheme == "http", headsForBrowser(decision) else { return }
        for (link, handler) in installedAppLinks where setting.allows(link.name) {
            guard let converted = link.convert(url) else { continue }
            decision.effect = .open(.desktopEntry(id: handler, action: nil), .desktopEntry(id: handler, action: nil, url: converted))
            decision.finalURL = converted
            decision.trace.append(.appLink(name: link.name, url: converted, app: handler))
            return
        }
    }

    private func headsForBrowser(_ decision: Decision) -> Bool {
        guard case .open(let target, _) = decision.effect else { return false }
        switch target {
        case .system, .browser: return true
        case .desktopEntry(let id, nil): return config.catalog.isBrowser(desktopID: id)
        case .app(let name):
            if case .browser? = config.apps[name] { return true }
            return false
        default: return false
        }
    }

    /// What hygiene made of a URL.
    enum Cleaned {
        case url(ParsedURL)
        case blocked(provider: String)
    }

    /// Unwraps and cleans `url`, or says which ClearURLs provider blocks it.
    func applyHygiene(_ hygiene: URLHygiene, to url: ParsedURL, trace: inout [TraceStep]) -> Cleaned {
        guard hygiene.unwrap || hygiene.clean else { return .url(url) }
        let result = hygiene.apply(to: url.string)
        for step in result.steps {
            if case .cleaned(let removed) = step { trace.append(.cleaned(removed: removed, url: result.url)) } else {
                trace.append(.changed(step: step.summary, url: step.url ?? result.url))
            }
        }
        if result.blocked {
            let provider = result.steps.lazy.compactMap { step -> String? in
                if case .blocked(let provider) = step { return provider }
                return nil
            }.first ?? "ClearURLs"
            return .blocked(provider: provider)
        }
        guard result.url != url.string else { return .url(url) }
        if let cleaned = url.replacingQuery(withTextOf: result.url) { return .url(cleaned) }
        do { return .url(try ParsedURL(result.url)) } catch {
            trace.append(.changed(step: "cleaning gave an invalid URL (\(error.message)); kept the original", url: url.string))
            return .url(url)
        }
    }

    /// Applies the rewrites of `layers` (nil: all) in order.
    func applyRewrites(to url: ParsedURL, opener: Opener?, moment: Moment, layers: Set<ConfigLayer>?, trace: inout [TraceStep]) -> ParsedURL {
        if layers?.contains(.system) == false, !hasUserRewrites { return url }
        var current = url
        for rewrite in config.rewrites where rewrite.enabled && layers?.contains(rewrite.layer) != false {
            let subject = MatchSubject(url: current, opener: opener, moment: moment)
            guard rewrite.matchers.allSatisfy({ $0.holds(for: subject) }) else { continue }
            let replaced: String?
            switch rewrite.replacement {
            case .regex(let regex, let to): replaced = try? regex.replacing(in: subject.text, with: to)
            case .template(let template): replaced = Template.expand(template, fields: Template.fields(for: current), context: .url)
            }
            guard let replaced, replaced != subject.text else { continue }
            do {
                current = try ParsedURL(replaced)
                trace.append(.changed(step: "rewritten by rewrite \(rewrite.name ?? "#\(rewrite.index)")", url: current.string))
            } catch {
                trace.append(.changed(step: "rewrite \(rewrite.name ?? "#\(rewrite.index)") gave an invalid URL (\(error.message)); kept", url: current.string))
            }
        }
        return current
    }

    /// Makes `action` the decision's effect. Works on the decision in place: it is large, and
    /// copies of it showed in profiles.
    func apply(_ action: Intent, url: ParsedURL, decision: inout Decision, opener: Opener?, moment: Moment, explain: Bool, depth: Int) {
        switch action {
        case .open(let target):
            open(target, url: url, decision: &decision, opener: opener, moment: moment, explain: explain, depth: depth)
        case .openFirstRunning(let targets):
            let chosen = firstRunning(targets, moment: moment, trace: &decision.trace)
            open(chosen, url: url, decision: &decision, opener: opener, moment: moment, explain: explain, depth: depth)
        case .system:
            decision.effect = .open(.system, .system(url: url.string))
        case .copy(let template):
            let copy = copy(for: url, template: template)
            decision.effect = .copy(text: copy.text, leftOutBcc: copy.leftOutBcc)
        case .ask(let asked):
            decision.effect = .ask(offeredChoices(asked: asked, forcedFrom: nil, scheme: url.scheme), forced: false)
        case .discard:
            decision.effect = .discard
        }
    }

    func refuse(_ reason: String, decision: inout Decision) {
        decision.effect = .refused(reason)
        decision.trace.append(.refused(reason))
    }

    /// The first enabled remembered answer whose matchers hold and whose target is installed.
    func rememberedAnswer(for subject: MatchSubject) -> Rule? {
        config.remembered.first { rule in
            guard rule.enabled, rule.matchers.allSatisfy({ $0.holds(for: subject) }) else { return false }
            if case .open(let target) = rule.action, config.unavailableReason(target) != nil { return false }
            return true
        }
    }

    private func open(_ target: Target, url: ParsedURL, decision: inout Decision, opener: Opener?, moment: Moment, explain: Bool, depth: Int) {
        // Not installed: the link is refused with why (the executor offers what is installed).
        if let why = config.unavailableReason(target) {
            decision.effect = .unavailable(target: target.description, reason: why)
            decision.trace.append(.unavailable(target: target.description, reason: why))
            return
        }
        switch target {
        case .unavailable:
            return
        case .desktopEntry(let id, nil) where config.catalog.webApp(id: id) != nil:
            // An installed web app opens the link in its own window. Chromium 156 ignores a URL
            // after `--app-id=` (the app opens at its start page); this switch is the one that
            // opens the window at the link, and only for a link inside the app's scope.
            decision.effect = .open(target, .desktopEntryAppending(id: id, arguments: ["--app-launch-url-for-shortcuts-menu-item=" + url.string]))
        case .desktopEntry(let id, let action):
            decision.effect = .open(target, .desktopEntry(id: id, action: action, url: url.string))
        case .browser(let browser):
            decision.effect = .open(target, browser.launch(url: url.string))
        case .system:
            decision.effect = .open(.system, .system(url: url.string))
        case .app(let name):
            switch config.apps[name] {
            case .desktop(let id, let args)?:
                if let args {
                    decision.effect = .open(target, .desktopEntryWithArguments(id: id, arguments: Self.expand(args, url: url)))
                } else {
                    decision.effect = .open(target, .desktopEntry(id: id, action: nil, url: url.string))
                }
            case .exec(let argv)?:
                decision.effect = .open(target, .argv(Self.expand(argv, url: url)))
            case .browser(let browser)?:
                decision.effect = .open(target, browser.launch(url: url.string))
            case .unavailable(let why)?:
                refuse(why, decision: &decision)
            case nil:
                refuse("no app named \"\(name)\"", decision: &decision)
            }
        case .mailer(let name):
            openMailer(name, target: target, url: url, decision: &decision)
        case .webmail(let name):
            guard url.scheme == "mailto", let template = config.webmail[name] ?? Webmail.builtIn[name] else {
                decision.effect = .open(.system, .system(url: url.string))
                decision.trace.append(.refused("webmail \(name) only composes mailto links; handing \(url.scheme) to system"))
                return
            }
            let compose = Template.expand(template, fields: Template.fields(for: url, context: .url), context: .url)
            decision.trace.append(.webmail(name: name, url: compose))
            guard depth + 1 < Self.maximumDepth else {
                refuse("routing loop: webmail targets were followed \(Self.maximumDepth) times", decision: &decision)
                return
            }
            guard let composeURL = try? ParsedURL(compose) else {
                refuse("webmail \(name) produced an invalid URL: \(compose)", decision: &decision)
                return
            }
            let input = DecisionInput(decision.url, opener: opener, moment: moment, explain: explain)
            var next = decide(parsed: composeURL, input: input, depth: depth + 1, trace: decision.trace)
            if next.rule == nil {
                next.rule = decision.rule
                next.ruleSource = decision.ruleSource
            }
            decision = next
        }
    }

    /// A built-in mail target: the link rebuilt from its mail fields (`MailtoURL.forMailer`),
    /// handed to the program's desktop entry as one argument.
    private func openMailer(_ name: String, target: Target, url: ParsedURL, decision: inout Decision) {
        guard url.scheme == "mailto" else {
            decision.effect = .open(.system, .system(url: url.string))
            decision.trace.append(.refused("mail target \(name) only composes mailto links; handing \(url.scheme) to system"))
            return
        }
        guard let mailer = Mailer.named(name), let entry = mailer.entry(in: config.catalog) else {
            return refuse(Mailer.named(name)?.notInstalled ?? "no mail target named \"\(name)\"", decision: &decision)
        }
        let mailto = MailtoURL(url)
        let handed = mailto.forMailer
        if handed != url.string {
            let leftOut = mailto.otherFields.map(\.name)
            let note = leftOut.isEmpty ? "" : "; left out \(leftOut.joined(separator: ", "))"
            decision.trace.append(.changed(step: "mail target \(name): rebuilt from to, cc, bcc, subject and body\(note)", url: handed))
        }
        decision.finalURL = handed
        decision.effect = .open(target, mailer.launch(handed, entry: entry))
    }

    /// Expands `args`; when none of them uses a placeholder, the URL is appended, as a desktop
    /// entry's `Exec` without `%u` gets it (arguments that use `{to}` or `{host}` chose their own).
    static func expand(_ args: [String], url: ParsedURL) -> [String] {
        // Most arguments are a plain word or exactly `{url}`, which need neither the template
        // engine nor the fields (a mailto's parse): ~3.5k instructions per launch before.
        var fields: Template.Fields?
        var usesPlaceholder = false
        var expanded: [String] = []
        expanded.reserveCapacity(args.count + 1)
        for arg in args {
            if !arg.containsByte(UInt8(ascii: "{")) {
                expanded.append(arg)
            } else if arg == "{url}" {
                usesPlaceholder = true
                expanded.append(url.string)
            } else {
                if Template.usesPlaceholder(arg) { usesPlaceholder = true }
                let given = fields ?? Template.fields(for: url, context: .text)
                fields = given
                expanded.append(Template.expand(arg, fields: given, context: .text))
            }
        }
        if !usesPlaceholder { expanded.append(url.string) }
        return expanded
    }

    /// What a copy puts on the clipboard, and whether it left Bcc recipients out.
    public struct CopyText: Sendable, Equatable {
        /// The text.
        public var text: String
        /// True when a mailto's Bcc recipients are not in `text` (a notification can say so).
        public var leftOutBcc: Bool
    }

    /// The copy of `url`: the template, else a mailto's To and Cc recipients (never Bcc: they
    /// are hidden from the others by definition), else the URL (a mailto's less its `bcc=`).
    public func copy(for url: ParsedURL, template: String?) -> CopyText {
        if let template {
            return CopyText(text: Template.expand(template, fields: Template.fields(for: url, context: .text), context: .text), leftOutBcc: false)
        }
        if url.scheme == "mailto" {
            let mailto = MailtoURL(url)
            let shown = mailto.copiedRecipients
            if !shown.isEmpty { return CopyText(text: shown.joined(separator: ", "), leftOutBcc: !mailto.bcc.isEmpty) }
            if !mailto.bcc.isEmpty { return CopyText(text: MailtoURL.withoutBcc(url), leftOutBcc: true) }
        }
        return CopyText(text: url.string, leftOutBcc: false)
    }

    /// The text a copy puts on the clipboard (`copy(for:template:)`'s text).
    public func copyText(for url: ParsedURL, template: String?) -> String {
        copy(for: url, template: template).text
    }

    /// Decides what a chosen `ask` choice does for `url`: no rules, no hygiene, the choice itself.
    public func decide(choice: Choice.Action, for url: String, opener: Opener? = nil) throws(URLParseError) -> Decision {
        let parsed = try ParsedURL(url)
        var decision = Decision(url: url, finalURL: parsed.string, effect: .discard)
        if parsed.scheme == "mailto", let problem = MailtoURL(parsed).problem {
            refuse(problem, decision: &decision)
            return decision
        }
        let action: Intent
        switch choice {
        case .open(let target): action = .open(target)
        case .copy: action = .copy(template: nil)
        case .discard: action = .discard
        }
        decision.notify = action.kind == .copy
        apply(action, url: parsed, decision: &decision, opener: opener, moment: Moment(), explain: false, depth: 0)
        // The user chose: the verdict is shown (hosts in the form that cannot mislead), not acted on.
        decision.safety = judge(parsed, context: nil, policy: .off)
        return decision
    }

    /// The labels and icons choices get, from the catalogue.
    public var choiceLabels: ChoiceLabels { ChoiceLabels(catalog: config.catalog, appEntries: config.appEntries) }

    /// The choices an `ask` offers. A rule's non-empty list is offered as written (less targets
    /// that are not installed). A forced ask (`openurl --ask`) or an empty list also offers the
    /// decided target, the named apps, each discovered browser profile and private and app
    /// window (for web links), the installed web apps, `system`, the installed apps for the
    /// scheme and the webmail targets for a mailto; choices that launch the same thing (the same
    /// entry with the same arguments, `system` and the entry it stands for) are offered once,
    /// and Copy and Discard come last but keep a number key (`1`–`9`) however many choices there are.
    func offeredChoices(asked: [Choice.Action], forcedFrom action: Intent?, scheme: String) -> [Choice] {
        let available = asked.filter { choice in
            if case .open(let target) = choice { return config.unavailableReason(target) == nil }
            return true
        }
        guard action != nil || available.isEmpty else { return choiceLabels.choices(available, scheme: scheme) }
        var actions: [Choice.Action] = []
        func offer(_ choice: Choice.Action) {
            if case .open(let target) = choice, config.unavailableReason(target) != nil { return }
            if !actions.contains(choice) { actions.append(choice) }
        }
        if case .open(let target)? = action { offer(.open(target)) }
        if case .openFirstRunning(let targets)? = action { targets.forEach { offer(.open($0)) } }
        if action != nil {
            let web = scheme == "http" || scheme == "https"
            for name in config.apps.keys.sorted() { offer(.open(.app(name))) }
            for browser in config.catalog.browsers where web && browser.known != nil {
                for profile in browser.profiles.map(\.name) + ["private"] + (browser.known?.appArgument != nil ? ["app"] : []) {
                    if case .success(let target) = config.catalog.resolve(browser: browser.id, profile: profile) { offer(.open(.browser(target))) }
                }
            }
            if web { for app in config.catalog.webApps { offer(.open(.desktopEntry(id: app.desktopID, action: nil))) } }
            offer(.open(.system))
        }
        for entry in config.catalog.entries(forScheme: scheme) {
            // A mail program openurld knows is offered as its mail target, which hands it a rebuilt link.
            if scheme == "mailto", let mailer = Mailer.handling(desktopID: entry.id) {
                offer(.open(.mailer(mailer.name)))
            } else if let target = Target(entry.id, in: config) {
                offer(.open(target))
            }
        }
        if scheme == "mailto" {
            for name in config.webmail.keys.sorted() + Webmail.builtIn.keys.sorted() { offer(.open(.webmail(name))) }
        }
        offer(.copy)
        offer(.discard)
        var choices = choiceLabels.choices(merged(actions, scheme: scheme), scheme: scheme)
        // Copy and Discard last, within the number keys.
        let ends = choices.filter { $0.action == .copy || $0.action == .discard }
        choices.removeAll { $0.action == .copy || $0.action == .discard }
        let keyed = max(0, ChoiceLabels.numberKeys - ends.count)
        return Array(choices.prefix(keyed)) + ends + Array(choices.dropFirst(keyed))
    }

    /// `actions` with those that launch the same thing as an earlier one left out: `system` and
    /// the entry it stands for are one choice, which `ChoiceLabels` names as the default
    /// (`Firefox ESR (default browser)`).
    func merged(_ actions: [Choice.Action], scheme: String) -> [Choice.Action] {
        var seen = Set<String>()
        return actions.filter { action in
            guard let key = launchKey(action, scheme: scheme) else { return true }
            return seen.insert(key).inserted
        }
    }

    /// What choosing `action` launches, as a comparable key: the entry (with its action) and the
    /// arguments it adds; nil for choices that launch nothing.
    private func launchKey(_ action: Choice.Action, scheme: String) -> String? {
        guard case .open(let target) = action else { return nil }
        func entry(_ id: String, _ extra: [String]) -> String { (["entry", id] + extra).joined(separator: "\u{1}") }
        // An app window adds `--app=URL` at launch, so it is not the plain entry.
        func browserKey(_ browser: BrowserTarget) -> String { entry(browser.desktopID, browser.arguments + (browser.window == .normal ? [] : ["window", browser.window.rawValue])) }
        switch target {
        case .desktopEntry(let id, let desktopAction): return entry(id, desktopAction.map { ["action", $0] } ?? [])
        case .browser(let browser): return browserKey(browser)
        case .system: return config.catalog.previousHandlers[scheme.lowercased()].map { entry($0.id, []) } ?? "system"
        case .webmail(let name): return "webmail\u{1}" + name
        case .unavailable(let name): return "unavailable\u{1}" + name
        // A mail program is its entry, handed the link rebuilt: the same app as that entry.
        case .mailer(let name): return Mailer.named(name)?.entry(in: config.catalog).map { entry($0.id, []) } ?? "mailer\u{1}" + name
        case .app(let name):
            switch config.apps[name] {
            case .desktop(let id, nil)?: return entry(id, [])
            case .browser(let browser)?: return browserKey(browser)
            default: return "app\u{1}" + name
            }
        }
    }

    /// The first enabled rule among `positions` whose matchers all hold.
    func firstMatchingRule(_ subject: MatchSubject, explain: Bool, in positions: Range<Int>, trace: inout [TraceStep]) -> Rule? {
        guard !positions.isEmpty else { return nil }
        if explain {
            for rule in config.rules[positions] {
                let shown = rule.source.layer == .system ? rule.source : nil
                guard rule.enabled else {
                    trace.append(.rule(reference: reference(rule), held: [], failed: nil, enabled: false, source: shown))
                    continue
                }
                var held: [String] = []
                var failed: String?
                for matcher in rule.matchers {
                    if matcher.holds(for: subject) { held.append(matcher.explained(for: subject)) } else { failed = matcher.explained(for: subject); break }
                }
                trace.append(.rule(reference: reference(rule), held: held, failed: failed, enabled: true, source: shown))
                for case .siteList(let match) in rule.matchers { trace.append(Self.siteListStep(match, config: config, url: subject.url)) }
                if failed == nil { return rule }
            }
            return nil
        }
        let candidates = index.candidates(for: subject.url, text: subject.text, mailto: subject.mailto, hasOpener: subject.opener != nil)
        // Read in place: a copy of each candidate `Rule` retained and released every field.
        let found: Int? = config.rules.withUnsafeBufferPointer { rules in
            for position in candidates where positions.contains(position) && rules[position].enabled {
                if rules[position].matchers.allSatisfy({ $0.holds(for: subject) }) { return position }
            }
            return nil
        }
        return found.map { config.rules[$0] }
    }

    private func reference(_ rule: Rule) -> Decision.RuleReference {
        rule.name.map { .named($0) } ?? .index(rule.index)
    }

    /// A copy with the named rule (or `#index`) enabled or disabled; nil when there is none.
    /// The rule a label names: its name, `#index` or `index`.
    public func rule(labelled label: String) -> Rule? {
        config.rules.first { $0.name == label || "#\($0.index)" == label || "\($0.index)" == label }
            ?? config.remembered.first { $0.name == label }
    }

    /// A new engine with rules enabled or disabled by identity (`Rule.identity`), applied in
    /// the order given; toggles whose rule no longer exists are returned in `missing`.
    public func applyingToggles(_ toggles: [(identity: String, enabled: Bool)]) -> (engine: RuleEngine, missing: [String]) {
        // No toggles (the usual start-up): this engine, not a second index built from the same rules.
        guard !toggles.isEmpty else { return (self, []) }
        var config = config
        var missing: [String] = []
        for toggle in toggles {
            let positions = config.rules.indices.filter { config.rules[$0].identity == toggle.identity }
            let remembered = config.remembered.indices.filter { config.remembered[$0].identity == toggle.identity }
            if positions.isEmpty && remembered.isEmpty { missing.append(toggle.identity) }
            for position in positions { config.rules[position].enabled = toggle.enabled }
            for position in remembered { config.remembered[position].enabled = toggle.enabled }
        }
        return (keepingSafety(RuleEngine(config: config)), missing)
    }

    /// `engine` with this engine's safety checker: a toggle changes no domain the rules name,
    /// and keeps the sites visited and the lists already read.
    private func keepingSafety(_ engine: RuleEngine) -> RuleEngine {
        var engine = engine
        engine.safety = safety
        return engine
    }

    public func settingRule(_ label: String, enabled: Bool) -> RuleEngine? {
        var config = config
        if let position = config.rules.firstIndex(where: { $0.name == label || "#\($0.index)" == label || "\($0.index)" == label }) {
            config.rules[position].enabled = enabled
        } else if let position = config.remembered.firstIndex(where: { $0.name == label }) {
            config.remembered[position].enabled = enabled
        } else {
            return nil
        }
        return keepingSafety(RuleEngine(config: config))
    }
}

extension BrowserTarget {
    /// How this target launches `url`: its entry, with the profile's arguments before the URL;
    /// an app-mode window gets the URL inside `--app=URL`, in place of the entry's URL.
    func launch(url: String) -> Launch {
        // Firefox has no command line for containers: the companion extension's page opens the
        // link in the container (web links only; anything else opens as the profile would).
        if let container, url.hasPrefix("https:") || url.hasPrefix("http:") {
            let link = "ext+openurld:open?container=" + PercentEncoding.encode(container) + "&url=" + PercentEncoding.encode(url)
            return arguments.isEmpty ? .desktopEntry(id: desktopID, action: nil, url: link)
                : .desktopEntryAdding(id: desktopID, arguments: arguments, url: link)
        }
        if window == .app { return .desktopEntryAppending(id: desktopID, arguments: arguments + ["--app=" + url]) }
        return arguments.isEmpty ? .desktopEntry(id: desktopID, action: nil, url: url)
            : .desktopEntryAdding(id: desktopID, arguments: arguments, url: url)
    }
}

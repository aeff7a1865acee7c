import Patterns
import Hygiene
import LinkSafety
import RoutingCore
import Catalog
import TOML

/// A loaded configuration: settings, named targets, rewrites and rules, ready for `RuleEngine`.
public struct Config: Sendable {
    /// The file it came from (for messages), or nil for built-in defaults.
    public var path: String?
    /// `[settings]`.
    public var settings = Settings()
    /// `[default]`: what happens when no rule matches.
    public var defaultAction: Intent = .system
    /// `[default] notify`.
    public var defaultNotify: Bool?
    /// `[apps.NAME]`.
    public var apps: [String: NamedApp] = [:]
    /// Custom `[webmail.NAME]` compose templates (built-ins are in `Webmail`).
    public var webmail: [String: String] = [:]
    /// `[[rewrite]]`, in order.
    public var rewrites: [Rewrite] = []
    /// `[[rules]]`, in order.
    public var rules: [Rule] = []
    /// Remembered answers (`remembered.toml`), in file order: each answers a question, so it is
    /// consulted only where the decision would have been to ask (see `RuleEngine`).
    public var remembered: [Rule] = []
    /// The remembered-answers file they came from.
    public var rememberedPath: String?
    /// Targets the config names that are not installed (a browser, profile or desktop entry
    /// discovery did not find), in file order. The rest of the config is in force; a link that
    /// reaches one of these is refused with why (`openurl check` reports them as errors).
    public var missingApps: [MissingApp] = []
    /// The desktop ids among `missingApps` (`firefox.desktop` on a system that has
    /// `firefox-esr.desktop`): targets naming them are refused when decided.
    public var uninstalledDesktopIDs: Set<String> = []
    /// `[[redirector]]`: link wrappers to unwrap besides the built-in ones.
    public var redirectors: [Redirector] = []
    /// The ClearURLs rules named by `[settings] clearurls`, once the caller has read the file.
    public var clearURLs: ClearURLsRules?
    /// The installed apps and browsers the config was checked against (browser targets, app links).
    public var catalog = AppCatalog()
    /// The desktop ids the config names, with where (checked by `markUninstalledEntries`).
    package var desktopReferences: [DesktopReference] = []
    /// `[[sitelist]]`s of every layer, in the order they were read.
    public var siteLists: [SiteListSource] = []
    /// What the system configuration locked.
    var locks = Locks()
    /// Problems that do not stop a file from loading: a user's value of a locked setting, …
    public var notes: [ConfigDiagnostic] = []
    /// Problems that do not stop the config from loading but will bite at click time (a glob no
    /// URL can match, a mail field inside a quoted argument), for `openurl check`.
    public var warnings: [ConfigDiagnostic] = []
    /// The block lists `[settings] blocklists` names, once the caller has found them (read on first use).
    public var blockLists: [BlockList] = []
    /// The Public Suffix List, once the caller has read it (nil: URLModel's fallback); indexed on
    /// first use, and shared by the checkers made from this config.
    public var publicSuffixes: SuffixIndex?

    /// Unwrapping and cleaning as the settings ask, with a rule's `clean`/`unwrap` overrides.
    public func hygiene(clean: Bool? = nil, unwrap: Bool? = nil) -> URLHygiene {
        URLHygiene(unwrap: unwrap ?? settings.unwrap, clean: clean ?? settings.clean, extraRedirectors: redirectors, clearURLs: clearURLs)
    }

    /// The built-in defaults used when there is no config file: every link goes to `system`.
    public init(path: String? = nil) { self.path = path }

    /// `[settings]`.
    public struct Settings: Sendable, Equatable {
        /// `clipboard`: `auto`, a backend name, or a command argv.
        public var clipboard: ClipboardSetting = .auto
        /// `picker`: a dmenu-style command argv for `ask`.
        public var picker: [String]?
        /// `clean`: strip tracking parameters.
        public var clean = true
        /// `unwrap`: unwrap known redirectors.
        public var unwrap = true
        /// `dedupe_ms`: the same URL twice within this window opens once.
        public var dedupeMilliseconds = 1500
        /// `recent`: how many links `openurl recent` remembers (0: none, and nothing is written).
        public var recent = 200
        /// `guard_defaults`: watch the files that decide the default handlers and offer to take
        /// http/https/mailto back when another app takes them.
        public var guardDefaults = true
        /// `clearurls`: path of a ClearURLs rules file (`~/` expands to the home directory).
        public var clearURLsPath: String?
        /// Where `clearurls` is set, for errors about the file it names.
        public var clearURLsPosition: SourcePosition?
        /// `ask_with`: the first way to ask (nil: the picker when one is set, else the window).
        public var askWith: AskWith?
        /// `ask_timeout`: seconds an unanswered question waits before it counts as expired.
        public var askTimeout = 120
        /// `chooser_idle`: seconds the chooser process is kept after the last question (0: not kept).
        public var chooserIdle = 300
        /// `app_links`: which web links open in their native app when it is installed.
        public var appLinks: AppLinkSetting = .all
        /// `shift_asks`: holding Shift while clicking (X11) asks, whatever the rules say.
        public var shiftAsks = false
        /// `safety`: what a link judged `warn` does; `off` runs no checks.
        public var safety: SafetyPolicy = .warn
        /// `safety_checks`: which checks run (all by default).
        public var safetyChecks: SafetyChecks = .all
        /// `blocklists`: the offline block lists (`auto`: Debian's uBlock Origin lists, when installed).
        public var blocklists: BlockListSetting = .auto
        /// Creates the defaults.
        public init() {}

        /// The ways to ask, in the order they are tried: `ask_with` first, then the window, the
        /// notification's action buttons and the picker.
        public var askOrder: [AskWith] {
            let first = askWith ?? (picker != nil ? .picker : .window)
            return [first] + AskWith.allCases.filter { $0 != first }
        }
    }

    /// `[settings] ask_with`.
    public enum AskWith: String, Sendable, Equatable, CaseIterable {
        /// The chooser window (`openurl-chooser`).
        case window
        /// Action buttons on a notification.
        case notification
        /// The `[settings] picker` command.
        case picker
    }

    /// `[settings] clipboard`.
    public enum ClipboardSetting: Sendable, Equatable {
        case auto
        case backend(String)
        case command([String])
    }
}

/// A named target from `[apps.NAME]`.
public enum NamedApp: Sendable, Equatable {
    /// A desktop entry launched with these arguments (`{url}` and other templates substituted).
    case desktop(id: String, args: [String]?)
    /// A raw argv (`{url}` and other templates substituted, each element stays one argument).
    case exec([String])
    /// `browser = "…"` with an optional `profile = "…"`, resolved against the discovered browsers.
    case browser(BrowserTarget)
    /// A `browser = "…"` (and `profile`) that is not installed, with why: links it takes are refused.
    case unavailable(String)
}

/// A target the config names whose app is not installed: where, and why with the nearest
/// installed names.
public struct MissingApp: Sendable, Equatable {
    /// The target as written (`brave:Work`, `firefox.desktop`, `apps.work`).
    public var target: String
    /// `FILE:LINE:COLUMN: message`.
    public var diagnostic: ConfigDiagnostic
    /// True for a remembered answer's target (the answer is then not used; the question is asked again).
    public var remembered: Bool

    /// A missing app.
    public init(target: String, diagnostic: ConfigDiagnostic, remembered: Bool = false) {
        self.target = target
        self.diagnostic = diagnostic
        self.remembered = remembered
    }

    /// The diagnostics of `apps` joined for one log line, the first `limit` of them and how many
    /// more: a config of a thousand missing targets once wrote a 170 KB line at every start.
    public static func listed(_ apps: [MissingApp], limit: Int = 10) -> String {
        let shown = apps.prefix(limit).map(\.diagnostic.description).joined(separator: "; ")
        return apps.count > limit ? shown + "; … and \(apps.count - limit) more (openurl check lists every one)" : shown
    }
}

/// A `[[rules]]` entry.
public struct Rule: Sendable {
    /// `name`, if given.
    public var name: String?
    /// The 1-based position among the rules.
    public var index: Int
    /// The matchers; all must hold.
    public var matchers: [Matcher]
    /// The action.
    public var action: Intent
    /// `notify`, if given.
    public var notify: Bool?
    /// `enabled` (default true); toggled over D-Bus too.
    public var enabled: Bool
    /// `clean = false` keeps tracking parameters for links this rule takes.
    public var clean: Bool?
    /// `unwrap = false` keeps redirect wrappers for links this rule takes.
    public var unwrap: Bool?
    /// `app_links`: overrides `[settings] app_links` for links this rule takes.
    public var appLinks: AppLinkSetting?
    /// Where the rule starts in the file.
    public var position: SourcePosition

    /// The name, or `#index` when unnamed.
    public var label: String { name ?? "#\(index)" }
    /// What the rule is, independent of where it sits: `name:NAME`, or for an unnamed rule its
    /// keys and values in a canonical order (without `enabled`). Toggles made over D-Bus follow
    /// this across reloads, so an edit that moves rules never disables a different one.
    public var identity: String = ""
    /// Its layer and file, and whether the system configuration locked it or only recommends it.
    public var source = RuleSource(layer: .user, file: "", line: 0)
    /// `safety`: overrides `[settings] safety` for links this rule takes.
    public var safety: SafetyPolicy?
    /// Its `match` table as read, kept (not rendered) so `matchText` can say what it matches as
    /// the file says it, only when asked; nil for a rule without one.
    public var matchSource: TOMLNode?
}

/// A `[[rewrite]]` entry: when its matchers hold, the URL is replaced.
public struct Rewrite: Sendable {
    /// `name`, if given.
    public var name: String?
    /// The 1-based position among the rewrites.
    public var index: Int
    /// The matchers; all must hold (none means every URL).
    public var matchers: [Matcher]
    /// How the URL is replaced.
    public var replacement: Replacement
    /// `enabled` (default true).
    public var enabled: Bool
    /// The layer of its file: the system's rewrites apply before locked rules are tried, the
    /// user's after.
    public var layer: ConfigLayer = .user

    /// `replace = { from, to }` or `template = "..."`.
    public enum Replacement: Sendable {
        /// A regex substitution on the whole URL (`$1` refers to groups).
        case regex(PatternRegex, to: String)
        /// A template (`{url}`, `{host}`, `{path}`...) giving the new URL.
        case template(String)
    }
}

extension Config {
    /// The desktop ids the config's targets name: `open`, `ask` lists, `[default]` and `[apps]`.
    public var referencedDesktopIDs: [String] {
        var ids: [String] = []
        func add(_ target: Target) {
            if case .desktopEntry(let id, _) = target, !ids.contains(id) { ids.append(id) }
        }
        func add(_ action: Intent) {
            switch action {
            case .open(let target): add(target)
            case .openFirstRunning(let targets): targets.forEach(add)
            case .ask(let choices): for case .open(let target) in choices { add(target) }
            default: break
            }
        }
        for rule in rules { add(rule.action) }
        for rule in remembered { add(rule.action) }
        add(defaultAction)
        for name in apps.keys.sorted() {
            if case .desktop(let id, _)? = apps[name], !ids.contains(id) { ids.append(id) }
        }
        return ids
    }
}

/// Where the config names a desktop entry: checked against what is installed once discovery
/// has described the entries (`Config.markUninstalledEntries`).
package struct DesktopReference: Sendable, Equatable {
    /// The desktop id.
    var id: String
    /// What to call it in a message (`firefox.desktop`, `apps.work: google-chrome.desktop`).
    var context: String
    /// Where it is written.
    var diagnosticPath: String
    var position: SourcePosition
    /// Named by a remembered answer.
    var remembered: Bool
}

extension Config {
    /// Marks the desktop entries the config names that `isInstalled` does not know as missing
    /// apps (`missingApps`, `uninstalledDesktopIDs`), each with the nearest installed entry and
    /// the installed browsers. Loading with discovery (`ConfigFile.load`) calls it once the entries
    /// the config names have been looked up.
    public mutating func markUninstalledEntries(isInstalled: (String) -> Bool) {
        let installed = Set(catalog.entries.map(\.id) + catalog.others.map(\.id)).sorted()
        let browsers = catalog.browsers.map(\.desktopID).sorted()
        var marked: [MissingApp] = []
        // A config of 1,000 rules naming one missing entry asked for its nearest name (an edit
        // distance against every installed id) 1,000 times: 38% of the daemon's start. Once per id.
        var installedByID: [String: Bool] = [:]
        var nearestByID: [String: String?] = [:]
        for reference in desktopReferences {
            let present = installedByID[reference.id] ?? isInstalled(reference.id)
            installedByID[reference.id] = present
            guard !present else { continue }
            uninstalledDesktopIDs.insert(reference.id)
            var message = "\(reference.context)\(reference.id) is not installed"
            let nearest = nearestByID[reference.id] ?? DiagnosticCollector.nearest(to: reference.id, among: installed)
            nearestByID[reference.id] = nearest
            if let nearest { message += "; did you mean \"\(nearest)\"?" }
            message += browsers.isEmpty ? " (openurl apps lists what is installed)"
                : " (installed browsers: \(browsers.joined(separator: ", ")); openurl apps lists every target)"
            marked.append(MissingApp(target: reference.id, diagnostic: ConfigDiagnostic(path: reference.diagnosticPath, position: reference.position, message: message),
                                     remembered: reference.remembered))
        }
        missingApps = (missingApps + marked).sorted { a, b in
            (a.remembered ? 1 : 0, a.diagnostic.position.line, a.diagnostic.position.column) < (b.remembered ? 1 : 0, b.diagnostic.position.line, b.diagnostic.position.column)
        }
    }

    /// Why `target` cannot be opened because its app is not installed; nil when it can.
    public func unavailableReason(_ target: Target) -> String? {
        switch target {
        case .unavailable(let name):
            return missingApps.first { $0.target == name }?.diagnostic.message ?? "\(name) is not installed"
        // `isEmpty` first: the Set's hash of the id was ~170 instructions of every click.
        case .desktopEntry(let id, _) where !uninstalledDesktopIDs.isEmpty && uninstalledDesktopIDs.contains(id):
            return missingApps.first { $0.target == id }?.diagnostic.message ?? "\(id) is not installed"
        case .app(let name):
            switch apps[name] {
            case .unavailable(let why)?: return why
            case .desktop(let id, _)? where !uninstalledDesktopIDs.isEmpty && uninstalledDesktopIDs.contains(id):
                return missingApps.first { $0.target == id }?.diagnostic.message ?? "\(id) is not installed"
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The missing apps as `FILE:LINE:COLUMN: message` errors (`openurl check`), nil when none.
    /// Remembered answers' targets are left out: such an answer is only skipped.
    public var missingAppsError: ConfigError? {
        let diagnostics = missingApps.filter { !$0.remembered }.map(\.diagnostic)
        return diagnostics.isEmpty ? nil : ConfigError(diagnostics: diagnostics)
    }
}

extension Config {
    /// The desktop entry of each `[apps.NAME]` that names one, for the labels' icons.
    public var appEntries: [String: String] {
        apps.compactMapValues { app in
            if case .desktop(let id, _) = app { return id }
            return nil
        }
    }
}

import RoutingCore
import Catalog
import Templates


/// The config's schema table: every key of every table, its type and what it means. The loader
/// takes its known-key lists (unknown-key errors, nearest-key suggestions) from here, the JSON
/// Schema (`config.schema.json`) and the man page's key reference are generated from it, and a
/// test loads each key's example, so all three agree. A new key is one line here.
public struct ConfigKey: Sendable {
    /// The key as written in TOML.
    public let name: String
    /// What its value must be.
    public let type: ConfigType
    /// One or two sentences for the man page and the schema's `description`.
    public let doc: String
    /// A TOML value that the loader accepts (used in the docs and by the tests).
    public let example: String

    init(_ name: String, _ type: ConfigType, _ doc: String, example: String) {
        self.name = name
        self.type = type
        self.doc = doc
        self.example = example
    }
}

/// The type of a config value.
public indirect enum ConfigType: Sendable {
    case string, boolean, strings
    /// A list whose items are each of this type.
    case list(ConfigType)
    /// A string or a list of strings (any item matches).
    case stringOrStrings
    case integer(ClosedRange<Int>)
    /// One of these strings.
    case oneOf([String])
    /// Only `true` (`discard = true`).
    case trueOnly
    /// Any of these types.
    case either([ConfigType])
    /// A table with these keys.
    case table([ConfigKey])
    /// A table whose keys are names the user chooses (`[apps.NAME]`), each holding `value`.
    case named(ConfigType)
    /// An array of tables (`[[rules]]`) with these keys.
    case tables([ConfigKey])
    /// A table of matchers (`ConfigSchema.matchers`), as `match.not` holds and `match.any` lists.
    case matchTable

    /// The keys of a table type, empty for others.
    public var keys: [ConfigKey] {
        switch self {
        case .table(let keys), .tables(let keys): return keys
        default: return []
        }
    }
}

/// The tables of the config and their keys.
public enum ConfigSchema {
    /// Placeholders allowed in templates, for the docs.
    static let templateNote = "Templates may use " + Template.placeholders.map { "{\($0)}" }.joined(separator: ", ") + "."

    /// `[settings]`: the settings, then `locked`.
    public static let settings: [ConfigKey] = lockableSettings + [
        ConfigKey("locked", .either([.boolean, .list(.oneOf(names(lockableSettings)))]),
                  "System configuration only: true locks every setting this table sets, or a list names the settings to lock; a user's config cannot change a locked setting (openurl check says so).",
                  example: "[\"clean\", \"unwrap\"]"),
    ]

    /// The settings a system configuration can lock.
    static let lockableSettings: [ConfigKey] = [
        ConfigKey("clipboard", .either([.oneOf(["auto", "wl-copy", "xclip", "xsel", "klipper"]), .strings]),
                  "How copy reaches the clipboard: auto (wl-copy on Wayland, else xclip or xsel), a named tool, or a command as a list that reads the text on stdin.",
                  example: "\"auto\""),
        ConfigKey("picker", .strings, "A dmenu-style command for ask: it reads one choice per line on stdin and prints the chosen one. When set, asks go to it first unless ask_with says otherwise.",
                  example: "[\"fuzzel\", \"--dmenu\"]"),
        ConfigKey("clean", .boolean, "Strip tracking parameters (utm_*, fbclid, gclid, ...) before the rules see the URL. On by default.", example: "true"),
        ConfigKey("unwrap", .boolean, "Unwrap known redirectors (google.com/url?q=, Outlook safelinks, l.facebook.com). On by default.", example: "true"),
        ConfigKey("dedupe_ms", .integer(0...60_000), "The same URL twice within this many milliseconds opens once (0 turns it off). 1500 by default.", example: "1500"),
        ConfigKey("clearurls", .string, "A ClearURLs rules file (data.min.json) to clean URLs with, in addition to the built-in rules.",
                  example: "\"/usr/share/clearurls/data.min.json\""),
        appLinks,
        ConfigKey("guard_defaults", .boolean, "Watch the files that decide the default handlers and, when another app takes http, https or mailto, offer Take back / Keep in a notification. On by default.", example: "true"),
        ConfigKey("recent", .integer(0...10_000), "How many decisions openurl recent remembers (in recent.tsv, mode 0600); 0 keeps none, writes nothing and removes the file. 200 by default.", example: "200"),
        ConfigKey("ask_with", .oneOf(["window", "notification", "picker"]),
                  "The first way ask is put to you: the chooser window, notification buttons or the picker; the others follow in that order. Unset: picker when one is set, else window.",
                  example: "\"window\""),
        ConfigKey("ask_timeout", .integer(1...86_400), "Seconds an unanswered question waits, counted from the click, before it counts as expired: its window, notification or picker is closed and a notification offers Open and Ask again. 120 by default.", example: "120"),
        ConfigKey("chooser_idle", .integer(0...86_400), "Seconds the chooser window's process stays after the last question, so the next window opens without starting GTK; 0 starts one per question. 300 by default.", example: "300"),
        ConfigKey("shift_asks", .boolean, "Holding Shift while clicking a link asks, whatever the rules say (X11: the click's display is asked which keys are held; Wayland has no such query). Off by default.", example: "true"),
        safety,
        ConfigKey("safety_checks", .list(.oneOf(SafetyCheckName.allCases.map(\.rawValue))),
                  "The link safety checks to run: idn (names browsers would show in punycode), lookalikes (look-alikes of the domains your rules, remembered answers and recent links name), link_text (link text naming another domain) and blocklists. All four by default.",
                  example: "[\"idn\", \"lookalikes\", \"link_text\", \"blocklists\"]"),
        ConfigKey("blocklists", .either([.oneOf(["auto"]), .strings]),
                  "Offline block lists: auto (the default) reads the uBlock Origin badware and URLhaus lists of Debian's webext-ublock-origin-firefox when installed; or a list of files in uBlock filter syntax or hosts-file format; [] for none. Read on first use; a listed link is held, with Open anyway.",
                  example: "\"auto\""),
    ]

    static let safety = ConfigKey(
        "safety", .oneOf(SafetyPolicy.allCases.map(\.rawValue)),
        "What an open or copy does with a link judged warn (an IDN look-alike, a look-alike of a domain you use, link text naming another domain): warn (the default) carries it out with a notification, ask asks instead, block holds it with Open anyway; off runs no checks. Block-listed links are held unless off.",
        example: "\"warn\"")

    static let appLinks = ConfigKey(
        "app_links", .either([.boolean, .list(.oneOf(AppLink.names))]),
        "Open web links of apps (" + AppLink.names.joined(separator: ", ") + ") in the installed app instead: true for all (the default), false for none, or a list of names.",
        example: "[\"zoom\", \"teams\"]")

    /// The matchers of `match` in `[[rules]]` and `[[rewrite]]`: every one given must hold.
    public static let matchers: [ConfigKey] = [
        ConfigKey("scheme", .stringOrStrings, "The URL's scheme, without a colon.", example: "\"mailto\""),
        ConfigKey("domain", .stringOrStrings, "The host or any subdomain of it (zoom.us matches us04web.zoom.us).", example: "\"zoom.us\""),
        ConfigKey("host", .stringOrStrings, "A glob on the exact host (* stops at dots).", example: "\"*.example.com\""),
        ConfigKey("path", .stringOrStrings, "A glob on the path as the URL Standard writes it (* stops at slashes, ** crosses them); non-ASCII and spaces are percent-encoded at load, as in the URL.", example: "\"/j/*\""),
        ConfigKey("query", .named(.string), "A table of query parameter name to glob; every parameter given must be present and match.", example: "{ tab = \"inbox*\" }"),
        ConfigKey("url", .stringOrStrings, "A glob on the whole URL as the URL Standard writes it (host labels in xn-- form, non-ASCII and spaces percent-encoded at load).", example: "\"https://example.com/**\""),
        ConfigKey("regex", .stringOrStrings, "A regular expression (PCRE2) searched in the whole URL.", example: "\"^https://[^/]+/wiki/\""),
        ConfigKey("to", .stringOrStrings, "A glob on the recipients of a mailto link, with their domain in Unicode or xn-- form; any recipient matching is enough.", example: "\"*@corp.example.com\""),
        ConfigKey("opener", .stringOrStrings, "A glob on the app the click came from: its desktop id, Flatpak or Snap app id (from its cgroup), or process name.", example: "\"slack\""),
        ConfigKey("network", .stringOrStrings, "A glob on an active NetworkManager connection's name or Wi-Fi SSID. False without NetworkManager.", example: "\"Office*\""),
        ConfigKey("vpn", .either([.boolean, .stringOrStrings]), "true when a VPN connection is active, false when none is, or a glob on an active VPN connection's name. False without NetworkManager.",
                  example: "true"),
        ConfigKey("time", .stringOrStrings, "Local time ranges HH:MM-HH:MM, the end excluded; a range whose end is earlier than its start runs over midnight (22:00-06:00).",
                  example: "\"09:00-17:30\""),
        ConfigKey("days", .stringOrStrings, "Days of the week (mon, tue, wed, thu, fri, sat, sun) or ranges of them (mon-fri), by the local calendar day of the click.",
                  example: "[\"mon-fri\"]"),
        ConfigKey("window", .stringOrStrings, "A glob on the title of the window that had the focus when the link was clicked (X11: _NET_ACTIVE_WINDOW's _NET_WM_NAME). False on Wayland.",
                  example: "\"*Project X*\""),
        ConfigKey("modifiers", .stringOrStrings, "Keys held when the click arrived, all of them: shift, ctrl, alt, super (X11: the click's display's pointer state). False on Wayland.",
                  example: "[\"shift\"]"),
        ConfigKey("any", .list(.matchTable), "A list of match tables: holds when every matcher of at least one of them holds.",
                  example: "[{ network = \"Office\" }, { time = \"09:00-17:00\", days = \"mon-fri\" }]"),
        ConfigKey("not", .matchTable, "A match table: holds when its matchers do not all hold.", example: "{ vpn = true }"),
    ]

    /// The actions: a rule or `[default]` gives exactly one.
    public static let actions: [ConfigKey] = [
        ConfigKey("open", .either([.string, .strings]), "Open with a target: a desktop id (firefox.desktop), ID.desktop:ACTION for a desktop action, a browser with a profile or window (firefox:Work, chromium:Work:private, chromium:app), an installed web app's desktop id, an [apps] name, a webmail name (gmail, outlook, office365, fastmail, proton, yahoo, or a [webmail] table), a mail program (thunderbird, evolution, geary, kmail, claws-mail, mutt, neomutt, aerc) or system. A list opens the first target whose program runs for you, else the first.",
                  example: "\"firefox.desktop\""),
        ConfigKey("copy", .either([.trueOnly, .string]), "Copy to the clipboard and notify: true copies the URL (the address of a mailto); a string is a template. " + templateNote,
                  example: "\"{to}\""),
        ConfigKey("ask", .strings, "Offer these choices (targets as for open, or copy, or discard) as notification buttons or through the picker.",
                  example: "[\"firefox.desktop\", \"copy\"]"),
        ConfigKey("discard", .trueOnly, "Drop the link (with notify = true, say so).", example: "true"),
        ConfigKey("system", .trueOnly, "Hand the link to the handler that was the default before openurld.", example: "true"),
    ]

    static let notify = ConfigKey("notify", .boolean, "Show a notification for this decision (copy notifies unless false).", example: "true")

    /// `locked` on a rule, a site list or `[default]`.
    static let locked = ConfigKey("locked", .boolean,
        "System configuration only: the rule is tried before every other rule and before the user's rewrites, and cannot be disabled, overridden or shadowed by a user's rule or remembered answer.",
        example: "true")
    /// `recommended` on a rule or a site list.
    static let recommended = ConfigKey("recommended", .boolean,
        "System configuration only: the rule comes after the user's rules instead of before them, so a user's rule for the same links wins.",
        example: "true")

    /// `[[rules]]`, tried in file order; the first whose matchers all hold decides.
    public static let rule: [ConfigKey] = [
        ConfigKey("name", .string, "The rule's name, shown by test, recent and rules; unique.", example: "\"Zoom meetings in the app\""),
        ConfigKey("enabled", .boolean, "false skips the rule (openurl rules enable NAME turns it on until the daemon restarts).", example: "true"),
        ConfigKey("match", .table(matchers), "The matchers; all must hold. Without match the rule matches every URL.", example: "{ domain = \"zoom.us\" }"),
    ] + actions + [
        notify,
        ConfigKey("clean", .boolean, "Override [settings] clean for URLs this rule decides.", example: "false"),
        ConfigKey("unwrap", .boolean, "Override [settings] unwrap for URLs this rule decides.", example: "false"),
        ConfigKey("app_links", appLinks.type, "Override [settings] app_links for links this rule takes.", example: "false"),
        ConfigKey("safety", safety.type, "Override [settings] safety for links this rule takes (off: the verdict is shown but not acted on).", example: "\"ask\""),
        locked, recommended,
    ]

    /// `[[sitelist]]`: a site list file as a rule, tried where it stands among the file's rules.
    public static let sitelist: [ConfigKey] = [
        ConfigKey("name", .string, "The list's name, shown by test, recent, rules and status; unique among rule names.", example: "\"Legacy intranet\""),
        ConfigKey("path", .string, "The site list file (absolute, ~/ for the home directory, or relative to this config file). openurld only reads it, and reads it again when it changes; it never fetches one.",
                  example: "\"/etc/openurld/sites.xml\""),
        ConfigKey("format", .oneOf(["emie-v2", "emie-v1", "lines"]),
                  "emie-v2: Enterprise Mode schema v.2 (<site-list>, <site url>, <open-in>); emie-v1: schema v.1 (<rules>, <emie>, <domain exclude>, <path>); lines: one pattern a line as Chrome's BrowserSwitcherUrlList writes them, ! for an exception, # for a comment.",
                  example: "\"emie-v2\""),
        ConfigKey("open", .string, "The target for the sites the list switches (open-in IE11, listed domains and paths, lines without !), as for a rule's open.",
                  example: "\"firefox.desktop\""),
        ConfigKey("greylist", .boolean, "The list is a greylist: its sites never switch, even when another site list of the same configuration layer covers them. A greylist has no open.",
                  example: "true"),
        ConfigKey("enabled", .boolean, "false skips the list.", example: "true"),
        notify, locked, recommended,
    ]

    /// `replace` in a `[[rewrite]]`.
    public static let replace: [ConfigKey] = [
        ConfigKey("from", .string, "A regular expression (PCRE2) on the whole URL.", example: "\"^https://(www\\\\.)?twitter\\\\.com/\""),
        ConfigKey("to", .string, "The replacement; $1 and ${name} refer to groups.", example: "\"https://x.com/\""),
    ]

    /// `[[rewrite]]`, applied in order to every URL before the rules.
    public static let rewrite: [ConfigKey] = [
        ConfigKey("name", .string, "The rewrite's name, shown in test's trace.", example: "\"Twitter to X\""),
        ConfigKey("enabled", .boolean, "false skips the rewrite.", example: "true"),
        ConfigKey("match", .table(matchers), "The matchers; all must hold for the rewrite to apply.", example: "{ domain = \"twitter.com\" }"),
        ConfigKey("replace", .table(replace), "A regex replacement on the whole URL (give replace or template).", example: "{ from = \"^http:\", to = \"https:\" }"),
        ConfigKey("template", .string, "The new URL as a template (give replace or template). " + templateNote, example: "\"https://nitter.net{path}\""),
    ]

    /// `[apps.NAME]`: a named target.
    public static let app: [ConfigKey] = [
        ConfigKey("desktop", .string, "The desktop entry to launch.", example: "\"google-chrome.desktop\""),
        ConfigKey("args", .strings, "Arguments for the desktop entry's program instead of its Exec arguments; {url} is the link.",
                  example: "[\"--profile-directory=Profile 1\", \"{url}\"]"),
        ConfigKey("exec", .strings, "A command to run instead of a desktop entry (argv, never a shell); {url} is the link.",
                  example: "[\"firefox\", \"--private-window\", \"{url}\"]"),
        ConfigKey("browser", .string, "An installed browser (desktop id without .desktop, or a known short name such as chromium) to open with its own entry; not with desktop, args or exec.",
                  example: "\"google-chrome\""),
        ConfigKey("profile", .string, "With browser: the profile, by the name the browser shows or its directory, or private for a private window.",
                  example: "\"Work\""),
    ]

    /// `[webmail.NAME]`: a compose URL for mailto links.
    public static let webmail: [ConfigKey] = [
        ConfigKey("compose", .string, "The compose URL template; the mailto fields are percent-encoded. " + templateNote,
                  example: "\"https://mail.example.com/compose?to={to}&subject={subject}\""),
    ]

    /// `[[redirector]]`: an extra redirector to unwrap.
    public static let redirector: [ConfigKey] = [
        ConfigKey("name", .string, "A name for the trace (the host by default).", example: "\"Corporate link checker\""),
        ConfigKey("host", .string, "The redirector's host (a glob).", example: "\"go.example.com\""),
        ConfigKey("path", .string, "The path prefix (/ by default).", example: "\"/out\""),
        ConfigKey("params", .strings, "The query parameters that hold the real URL, tried in order.", example: "[\"url\"]"),
    ]

    /// `[default]`: what happens when no rule matches (system without a config).
    public static let defaults: [ConfigKey] = actions + [notify, ConfigKey("locked", .boolean,
        "System configuration only: a user's [default] does not replace this one (the user's rules still come first).", example: "true")]

    /// The top level.
    public static let top: [ConfigKey] = [
        ConfigKey("settings", .table(settings), "Global settings.", example: "{ clean = true }"),
        ConfigKey("default", .table(defaults), "What happens when no rule matches: any one action.", example: "{ open = \"firefox.desktop\" }"),
        ConfigKey("apps", .named(.table(app)), "Named targets: a desktop entry with arguments, or a command.", example: "{ work = { desktop = \"google-chrome.desktop\" } }"),
        ConfigKey("webmail", .named(.table(webmail)), "Webmail compose targets for mailto links, beside the built-in ones.",
                  example: "{ corp = { compose = \"https://mail.example.com/?to={to}\" } }"),
        ConfigKey("rewrite", .tables(rewrite), "Rewrites applied in order to every URL before the rules.", example: "[{ template = \"{url}\" }]"),
        ConfigKey("rules", .tables(rule), "The rules, tried in file order.", example: "[{ match.domain = \"zoom.us\", open = \"system\" }]"),
        ConfigKey("redirector", .tables(redirector), "Extra redirectors to unwrap, beside the built-in ones.", example: "[{ host = \"go.example.com\", params = [\"url\"] }]"),
        ConfigKey("sitelist", .tables(sitelist), "Site lists (Enterprise Mode XML, or one pattern a line) whose sites open with a target.",
                  example: "[{ path = \"/etc/openurld/sites.xml\", format = \"emie-v2\", open = \"system\" }]"),
    ]

    /// The names of `keys`, for the loader's unknown-key checks.
    static func names(_ keys: [ConfigKey]) -> [String] { keys.map(\.name) }
}

// The one table of `openurl`'s commands. Parsing, `--help`, the usage summary, the man page's
// synopsis and the shell completions are all derived from it, so they cannot disagree. It is
// plain Swift without Foundation: the `openurl` handler links it to decide, without loading
// anything else, which arguments are commands for `openurl-tool`.

/// The name of every command `openurl` knows; `Client` switches over it exhaustively.
public enum CommandName: String, CaseIterable, Sendable {
    case route = "", test, check, copy, extract, apps, install, uninstall, status, doctor, reload, rules, recent, reopen, settings, help
    case complete = "__complete", generate = "__generate"
}

/// What a value or positional argument is, so completions know what to offer.
public enum ArgumentKind: Equatable, Sendable {
    /// Anything (a URL, a number): nothing to complete.
    case free
    /// A file name.
    case file
    /// One of these words.
    case words([String])
    /// A rule name, asked of the daemon.
    case ruleName
    /// A recent link's id, asked of the daemon.
    case recentID
    /// A target for `reopen --with`: apps, browsers, webmail, desktop entries.
    case target
    /// A command name (`help COMMAND`).
    case command
}

/// One option of a command: `--json`, or `--config FILE`.
public struct OptionSpec: Sendable {
    /// The long name, with its dashes.
    public let name: String
    /// A short alias (`-v`), if any.
    public let short: String?
    /// The value's placeholder (`FILE`), nil for a flag.
    public let value: String?
    /// What the value is, for completions.
    public let valueKind: ArgumentKind
    /// One line saying what it does.
    public let summary: String

    init(_ name: String, short: String? = nil, value: String? = nil, kind: ArgumentKind = .free, _ summary: String) {
        self.name = name
        self.short = short
        self.value = value
        self.valueKind = kind
        self.summary = summary
    }

    /// `--config FILE` or `--json`, as in a synopsis.
    public var synopsis: String { value.map { "\(name) \($0)" } ?? name }
}

/// One positional argument.
public struct ArgumentSpec: Sendable {
    /// The placeholder shown in the synopsis (`URL`).
    public let name: String
    /// What it is, for completions.
    public let kind: ArgumentKind
    /// Whether it may be left out.
    public let optional: Bool
    /// Whether it may be given more than once (only the last argument).
    public let repeats: Bool

    init(_ name: String, _ kind: ArgumentKind = .free, optional: Bool = false, repeats: Bool = false) {
        self.name = name
        self.kind = kind
        self.optional = optional
        self.repeats = repeats
    }
}

/// One command: its name, options, arguments and help text.
public struct CommandSpec: Sendable {
    /// Which command this is.
    public let command: CommandName
    /// The options it takes (`--help` is implied for every command).
    public let options: [OptionSpec]
    /// The positional arguments, in order.
    public let arguments: [ArgumentSpec]
    /// The synopsis after the options, when the arguments alone do not say it (`[enable|disable NAME]`).
    public let argumentSynopsis: String?
    /// One line for the usage summary and completions.
    public let summary: String
    /// A paragraph for `--help` and the man page.
    public let details: String
    /// Internal commands (completion helpers) are left out of help, man page and completions.
    public let hidden: Bool

    init(_ command: CommandName, options: [OptionSpec] = [], arguments: [ArgumentSpec] = [], synopsis: String? = nil,
         hidden: Bool = false, _ summary: String, _ details: String) {
        self.command = command
        self.options = options
        self.arguments = arguments
        self.argumentSynopsis = synopsis
        self.summary = summary
        self.details = details
        self.hidden = hidden
    }

    /// The word typed on the command line (empty for routing URLs).
    public var name: String { command.rawValue }

    /// The most positional arguments accepted.
    public var maximumArguments: Int { arguments.last?.repeats == true ? Int.max : arguments.count }
    /// The fewest positional arguments accepted.
    public var minimumArguments: Int { arguments.filter { !$0.optional }.count }

    /// `openurl test [--json] [--config FILE] [--opener ID] URL`.
    public var synopsis: String {
        var words = ["openurl"]
        if !name.isEmpty { words.append(name) }
        words += options.map { "[\($0.short.map { s in "\(s)|" } ?? "")\($0.synopsis)]" }
        if let argumentSynopsis { words.append(argumentSynopsis) } else {
            words += arguments.map { argument in
                let text = argument.name + (argument.repeats ? "..." : "")
                return argument.optional ? "[\(text)]" : text
            }
        }
        return words.joined(separator: " ")
    }

    /// The option called `word` (long name or short alias).
    public func option(_ word: String) -> OptionSpec? { options.first { $0.name == word || $0.short == word } }
}

/// The table itself, and lookups over it.
public enum CommandTable {
    /// Every command, in the order help and the man page list them.
    public static let all: [CommandSpec] = [
        CommandSpec(.route, options: [
            OptionSpec("--verbose", short: "-v", "say on stderr what was decided and who carried it out"),
            OptionSpec("--ask", "ask which target to use, whatever the rules say"),
            OptionSpec("--no-daemon", "route in this process without asking openurld (what the handler does when openurld is missing or does not answer within 2 s)"),
        ], arguments: [ArgumentSpec("URL", repeats: true)],
        "route each URL (through openurld, else in-process)",
        "Route each URL by the rules: through openurld when it runs (D-Bus activation starts it), else in this process with the same engine (embedded mode), so a link is never lost. This is the desktop entry's Exec."),
        CommandSpec(.test, options: [
            OptionSpec("--json", "print the decision as one JSON object"),
            OptionSpec("--config", value: "FILE", kind: .file, "use FILE instead of the user's config"),
            OptionSpec("--opener", value: "ID", "pretend the click came from ID (a desktop id, Flatpak or Snap app id, or process name)"),
            OptionSpec("--link-text", value: "TEXT", "pretend the link was shown as TEXT (as Open's context link-text), for the safety verdict"),
            OptionSpec("--origin-url", value: "URL", "pretend the link was on the page URL (as Open's context origin-url)"),
            OptionSpec("--network", value: "ID", "pretend the active network connection is ID (its name and Wi-Fi SSID)"),
            OptionSpec("--vpn", "pretend a VPN connection is active"),
            OptionSpec("--vpn-name", value: "ID", "pretend the VPN connection ID is active"),
            OptionSpec("--at", value: "TIME", "pretend the click is at TIME, local (\"2026-12-01 18:30\")"),
            OptionSpec("--modifiers", value: "KEYS", kind: .words(["shift", "ctrl", "alt", "super", "none"]), "pretend KEYS are held (comma-separated: shift,ctrl)"),
            OptionSpec("--window", value: "TITLE", "pretend the click came from a window titled TITLE"),
        ], arguments: [ArgumentSpec("URL")],
        "explain the decision for URL without acting",
        "Explain the decision for URL without carrying it out: the final URL after rewrites and cleaning, the decision, the target, the rule, the safety verdict (safe, warn with reasons, block with the list) and what the safety policy does with it, and a trace of which matchers held, rule by rule, each condition on the moment with the value it saw. The moment is as a click now would see it (NetworkManager, the clock, the running programs) unless an option gives it; the window title and held keys come only from --window and --modifiers."),
        CommandSpec(.check, options: [
            OptionSpec("--config", value: "FILE", kind: .file, "check FILE instead of the user's config"),
            OptionSpec("--system", "check only the system configuration ($XDG_CONFIG_DIRS/openurld) and its site lists, as an administrator does"),
        ], "validate the config",
        "Validate the config: the system configuration's files and site lists, then the user's config and remembered answers, each with its rules, and where a locked setting keeps the system's value. Every problem is printed as FILE:LINE:COLUMN: message; an unknown key suggests the nearest known one. The block lists are read and counted; one that cannot be read is an error at its key. Exit 3 when the user's config is invalid, or with --system when a system file or site list is."),
        CommandSpec(.copy, arguments: [ArgumentSpec("URL")],
        "copy URL (the address of a mailto) and notify",
        "Copy URL to the clipboard and confirm with a notification; for a mailto link only the address is copied."),
        CommandSpec(.extract, options: [
            OptionSpec("--open", "route every link found instead of printing it, each with the text it was shown as (its safety verdict counts it)"),
            OptionSpec("--all", "with --open, allow more than 10 links"),
            OptionSpec("--json", "print one JSON object per link (text, url, start, end, link_text: the text a Markdown or HTML link or text <url> showed, else null; safety: the verdict a click on it would get)"),
            OptionSpec("--selection", "read the primary selection instead of a file"),
        ], arguments: [ArgumentSpec("FILE", .file, optional: true)],
        "list the links in text (stdin by default)",
        "List the links found in FILE (standard input when FILE is missing or -), one per line; a Markdown or HTML link is one link, its target, and the text it shows is never listed as a link of its own. Exit 4 when none is found."),
        CommandSpec(.apps, options: [
            OptionSpec("--json", "print one JSON array of the targets"),
            OptionSpec("--config", value: "FILE", kind: .file, "list FILE's [apps] instead of the user's config"),
            OptionSpec("--all", "without SCHEME, also list the apps for other schemes (geo:, tel:, ...)"),
        ], arguments: [ArgumentSpec("SCHEME", .words(["http", "https", "mailto"]), optional: true)],
        "list browsers, profiles, webmail, mail programs and desktop actions, as targets",
        "List what rules can open: browsers and their profiles (native, Flatpak and Snap), private windows, desktop actions, the config's [apps], webmail, the installed mail programs and app links, each with the target string to paste into open, ask or reopen --with. Without SCHEME, web and mail targets are listed (--all adds the apps for every other scheme after them); SCHEME limits the list to apps that handle it."),
        CommandSpec(.install, options: [
            OptionSpec("--force", "take over even when D-Bus activation of openurld does not work"),
            OptionSpec("--system", "as root: make openurld the default for every user, in the system's files"),
        ], "become the default handler for http, https and mailto on every desktop path",
        "Make openurld the default handler for http, https and mailto: the user's mimeapps.list, desktop-specific *-mimeapps.list files, XFCE's helpers.rc and KDE's BrowserApplication and emaildefaults, saving what was there so uninstall can restore it byte for byte. Install first checks that D-Bus activation of openurld works end to end, and refuses otherwise (links would be lost). With --system (as root) the same in the files every user's desktop reads: the first $XDG_CONFIG_DIRS directory's mimeapps.list and desktop lists (/etc/xdg), XFCE's system helpers.rc with helpers in the first $XDG_DATA_DIRS directory, KDE's system kdeglobals; it checks that openurld's desktop entry and D-Bus service are installed system-wide, and records what was there in $XDG_CONFIG_DIRS/openurld/system-install/."),
        CommandSpec(.uninstall, options: [
            OptionSpec("--system", "as root: restore the system's files install --system changed"),
        ], "restore the previous default handlers",
        "Stop being the default handler: restore the handlers that were the defaults before install. With --system, put back byte for byte the system files install --system changed."),
        CommandSpec(.status, options: [
            OptionSpec("--check", "the same as without it: every path is always checked"),
        ], "check the whole chain a click takes",
        "Check every path a click can take (xdg-open per desktop, gio, xdg-email, exo-open, kde-open5, the portal), which file decides it and what to run to fix it, plus the daemon, its display environment, the notification server, clipboard tool, picker and systemd unit. Exit 4 when a path is broken, 3 when the config is."),
        CommandSpec(.doctor, options: [
            OptionSpec("--json", "print one JSON object per path (path, verdict, milliseconds, program, why)"),
            OptionSpec("--fix", "mend the paths that go around openurld, recording each change for uninstall"),
            OptionSpec("--system", "with --fix, as root: the system's files and the x-www-browser alternative"),
        ], "prove every way a link can arrive, and mend the ones that go around openurld",
        "List every way a link can arrive here (xdg-open under each desktop's detection: none, GNOME, KDE, XFCE, LXQt, MATE; gio open, xdg-email, xdg-settings, the OpenURI portal that Flatpak and Snap apps use, sensible-browser, x-www-browser, $BROWSER and the files that set it, python3 -m webbrowser, exo-open, kde-open5 and kde-open), what each would run, worked out from the files and variables the tool itself reads, and for each that should reach openurld a live probe: the tool is run with a link to openurld.invalid that the daemon records as a probe and never opens (openurl recent --probes shows them). Each row says reaches openurld (N ms), goes around it → PROGRAM (why), reaches nothing (why) or not installed. With --fix: openurl install's takeover where a desktop's files go around openurld, a per-user x-www-browser and sensible-browser on the first PATH directory of yours before /usr/bin, and BROWSER=openurl in ~/.config/environment.d/ when $BROWSER points elsewhere; each change is recorded, so openurl uninstall gives the files back byte for byte. With --fix --system (as root): install --system's takeover and the x-www-browser and gnome-www-browser alternatives (update-alternatives; uninstall --system gives them back). Nothing changes without --fix. Exit 0 when every installed path reaches openurld, 1 otherwise."),
        CommandSpec(.reload, "reload the config in the daemon",
        "Ask openurld to load the config again. A config that fails to load never replaces the one in use; its errors are printed and the exit status is 3."),
        CommandSpec(.rules, arguments: [ArgumentSpec("ACTION", .words(["enable", "disable", "forget"]), optional: true), ArgumentSpec("NAME", .ruleName, optional: true)],
                    synopsis: "[enable|disable|forget NAME]",
        "list the rules, turn one on or off, or forget a remembered answer",
        "Without arguments, list the daemon's rules: index, on or off, name, and action. With enable or disable, turn the rule called NAME on or off until the daemon restarts. With forget, remove the remembered answer called NAME (a chooser's \"Remember for …\") from remembered.toml, leaving the rest of the file as it was; the daemon stops using it before the command returns."),
        CommandSpec(.recent, options: [
            OptionSpec("--json", "print one JSON object per link"),
            OptionSpec("--clear", "forget every recent link and remove recent.tsv"),
            OptionSpec("--probes", "also show the probes openurl doctor sent (hidden otherwise)"),
        ], arguments: [ArgumentSpec("N", optional: true)],
        "show the last N links (20 by default)",
        "Show the links routed lately, newest first: id, time, decision and target, the rule that decided, the app the click came from, the URL and the outcome (done, asking, duplicate, failed: why, blocked by PROVIDER, held: what the safety checks found, abandoned, probe). The id is what reopen takes. The probe links openurl doctor sends (outcome probe: recorded, never opened) are left out unless --probes is given. With --clear, forget them all."),
        CommandSpec(.reopen, options: [
            OptionSpec("--with", value: "TARGET", kind: .target, "use TARGET (a desktop id, an [apps] name, a webmail name, system or copy)"),
        ], arguments: [ArgumentSpec("N", .recentID)],
        "route recent link N again, optionally with another target",
        "Carry out recent link N again (see recent), with TARGET instead of the target decided then. A link that was held by the safety checks is opened as Open anyway would. The display of the shell it runs from goes with it (an ask shows its window there, as a click's does)."),
        CommandSpec(.settings, options: [
            OptionSpec("--page", value: "PAGE", kind: .words(["rules", "try", "recent", "remembered", "defaults"]), "open on PAGE: rules, try, recent, remembered or defaults"),
            OptionSpec("--report", value: "FILE", kind: .file, "after each change, write what the window shows to FILE as one JSON object (for tests and scripts)"),
        ], "open the settings window",
        "Open the settings window (GTK 4): the rules in force grouped by where they come from, each with a switch (a rule the administrator locked cannot be turned off), what it matches, where it sends links, FILE:LINE and its hits among the recent clicks; Try a link, which shows as you type what openurl test would (decision, target, rule, safety verdict, trace) with the moment's network, VPN, time, window, keys and app as fields; Recent, with Open again, Copy, Try it and Make a rule…, which appends one [[rules]] block to config.toml and reloads; Remembered, with Forget; Defaults, openurl status with Make openurld the default. It talks to openurld over D-Bus (starting it if needed) and writes only your config.toml. Alt+1 to Alt+5 show the pages, F5 reads everything again, Ctrl+W closes."),
        CommandSpec(.help, arguments: [ArgumentSpec("COMMAND", .command, optional: true)],
        "show help for openurl or one command",
        "Show the usage summary, or the help of COMMAND (the same as openurl COMMAND --help)."),
        CommandSpec(.complete, arguments: [ArgumentSpec("WHAT", .words(["rules", "recent", "targets"]))], hidden: true,
        "print completion candidates (for the shell completions)",
        "Print rule names, recent ids or targets, one per line with a tab before a description."),
        CommandSpec(.generate, arguments: [ArgumentSpec("WHAT", .words(["bash", "zsh", "fish", "man-synopsis", "man-commands", "man-config", "schema"]))],
                    hidden: true,
        "print a completion script, a man page part or the config schema",
        "Print what the build installs: a shell completion script, generated parts of the man pages, or the JSON Schema of the config."),
    ]

    /// The commands a user sees (not the internal ones).
    public static var visible: [CommandSpec] { all.filter { !$0.hidden } }

    /// The command typed as `word`, if it is one.
    public static func spec(named word: String) -> CommandSpec? {
        word.isEmpty ? nil : all.first { $0.name == word }
    }

    /// The spec of `command`.
    public static func spec(_ command: CommandName) -> CommandSpec {
        all.first { $0.command == command } ?? all[0]
    }

    /// Words that go to the command-line tool rather than being routed as links.
    public static let globalFlags = ["-h", "--help", "--version"]

    /// Whether `openurl` must hand `arguments` to `openurl-tool`: a command, a global flag, or a
    /// first word that cannot be a URL (no colon), so a mistyped command gets "did you mean".
    public static func isForTool(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return true }
        // The names alone (not the specs with their help text) keep the click path light.
        if globalFlags.contains(first) || (!first.isEmpty && CommandName(rawValue: first) != nil) { return true }
        return !first.hasPrefix("-") && !first.contains(":")
    }

    /// The visible command nearest to a mistyped `word`, when one is close enough to suggest.
    public static func nearest(to word: String) -> String? {
        let names = visible.map(\.name).filter { !$0.isEmpty }
        let scored = names.map { ($0, editDistance(word.lowercased(), $0)) }.sorted { $0.1 < $1.1 }
        guard let best = scored.first, best.1 <= max(1, min(2, word.count / 3)) else { return nil }
        return best.0
    }

    /// The Damerau–Levenshtein (optimal string alignment) distance, so a swap (`stauts`) costs one.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { table[i][0] = i }
        for j in 0...y.count { table[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[x.count][y.count]
    }
}

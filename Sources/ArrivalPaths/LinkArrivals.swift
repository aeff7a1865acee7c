import Launching
import Platform

/// Every way a link can arrive here, each with what it would run now: `xdg-open` under each
/// desktop's detection, `gio open`, `xdg-email`, `xdg-settings`, the OpenURI portal (Flatpak and
/// Snap apps), `sensible-browser`, `x-www-browser`, `$BROWSER`, Python's `webbrowser`,
/// `exo-open` and `kde-open5`/`kde-open`. Nothing is run or changed here.
public struct LinkArrivals {
    /// The XDG locations, with the session's desktop.
    public var paths: XDGPaths
    /// The environment links start in (`PATH`, `DISPLAY`, `BROWSER`, `XDG_CURRENT_DESKTOP`).
    public var environment: [String: String]
    /// What `xdg-settings get default-web-browser` printed (nil: it is not installed or failed).
    public var xdgSettingsAnswer: String?
    /// Whether the OpenURI portal is on the bus or can be started there.
    public var portalAvailable: Bool

    /// The paths as `paths` and `environment` make them.
    public init(paths: XDGPaths, environment: [String: String], xdgSettingsAnswer: String?, portalAvailable: Bool) {
        self.paths = paths
        self.environment = environment
        self.xdgSettingsAnswer = xdgSettingsAnswer
        self.portalAvailable = portalAvailable
    }

    /// A desktop as `xdg-open` detects it, and the variables that make it detect that one.
    public struct Desktop: Sendable {
        /// The name shown (`GNOME`, `none`).
        public var name: String
        /// `XDG_CURRENT_DESKTOP`'s value, nil for none.
        public var current: String?

        /// The variables for a probe under this desktop; the other desktops' are unset, so
        /// xdg-open's fallbacks do not pick one of them.
        var environment: [String: String?] {
            var values: [String: String?] = ["XDG_CURRENT_DESKTOP": current, "KDE_SESSION_VERSION": nil, "KDE_FULL_SESSION": nil,
                                             "GNOME_DESKTOP_SESSION_ID": nil, "MATE_DESKTOP_SESSION_ID": nil, "DESKTOP_SESSION": nil]
            if current == "KDE" { values["KDE_SESSION_VERSION"] = "5"; values["KDE_FULL_SESSION"] = "true" }
            return values
        }
    }

    /// The desktops xdg-open 1.1 tells apart, as its rows are shown.
    public static let desktops = [Desktop(name: "none", current: nil), Desktop(name: "GNOME", current: "GNOME"),
                                  Desktop(name: "KDE", current: "KDE"), Desktop(name: "XFCE", current: "XFCE"),
                                  Desktop(name: "LXQt", current: "LXQt"), Desktop(name: "MATE", current: "MATE")]

    static let web = "x-scheme-handler/https"
    static let mail = "x-scheme-handler/mailto"

    var reader: ArrivalReader { ArrivalReader(paths: paths, environment: environment) }

    /// Every path, in the order they are shown.
    public func all() -> [ArrivalPath] {
        let reader = self.reader
        var rows: [ArrivalPath] = []
        let session = paths.currentDesktops.first
        for desktop in Self.desktops {
            let own = desktop.current?.lowercased() == session || (desktop.current == nil && session == nil)
            rows.append(ArrivalPath(name: "xdg-open (\(desktop.name)\(own ? ", this session" : ""))", forecast: xdgOpen(desktop),
                                    probe: .command(argv: ["xdg-open"], environment: desktop.environment)))
        }
        rows.append(ArrivalPath(name: "gio open", forecast: gio(Self.web, desktops: paths.currentDesktops),
                                probe: .command(argv: ["gio", "open"], environment: [:])))
        rows.append(ArrivalPath(name: "xdg-email", forecast: xdgEmail(), isMail: true, probe: .command(argv: ["xdg-email"], environment: [:])))
        rows.append(ArrivalPath(name: "xdg-settings get default-web-browser", forecast: xdgSettings()))
        rows.append(ArrivalPath(name: "Flatpak and Snap apps (the OpenURI portal)", forecast: portal(), probe: .portal))
        rows.append(ArrivalPath(name: "sensible-browser", forecast: sensibleBrowser(), probe: .command(argv: ["sensible-browser"], environment: [:])))
        rows.append(ArrivalPath(name: "x-www-browser", forecast: reader.programForecast("x-www-browser", why: "x-www-browser on PATH", package: "a browser (firefox-esr, chromium)"),
                                probe: .command(argv: ["x-www-browser"], environment: [:])))
        let sources = BrowserVariable.sources(paths: paths)
        if let value = reader.browserVariable {
            rows.append(ArrivalPath(name: "$BROWSER", forecast: reader.browserForecast(value, why: "BROWSER=\(value)" + BrowserVariable.whereSet(sources)),
                                    probe: .command(argv: BrowserVariable.firstCommand(value), environment: [:])))
        } else if !sources.isEmpty {
            rows.append(ArrivalPath(name: "$BROWSER", forecast: .fails("not set in this shell, but set in "
                                                                            + BrowserVariable.locations(sources) + ": sessions that read those files get it")))
        }
        rows.append(ArrivalPath(name: "python3 -m webbrowser", forecast: python(), probe: .command(argv: ["python3", "-m", "webbrowser"], environment: [:])))
        rows.append(ArrivalPath(name: "exo-open", forecast: reader.resolve("exo-open") == nil ? .notInstalled(package: "exo-utils")
                                    : needingDisplay("exo-open") ?? reader.xfceForecast("WebBrowser"),
                                probe: .command(argv: ["exo-open"], environment: [:])))
        for program in ["kde-open5", "kde-open"] {
            rows.append(ArrivalPath(name: program, forecast: reader.resolve(program) == nil ? .notInstalled(package: "kde-cli-tools")
                                        : needingDisplay(program) ?? reader.kdeForecast(Self.web, desktops: paths.currentDesktops),
                                    probe: .command(argv: [program], environment: [:])))
        }
        return rows
    }

    /// xdg-open 1.1.3 under `desktop`: GNOME and MATE hand links to `gio open`, KDE to
    /// `kde-open5`, XFCE to `exo-open`; LXQt and none read mimeapps.list themselves, then `$BROWSER`.
    func xdgOpen(_ desktop: Desktop) -> ArrivalForecast {
        let reader = self.reader
        guard reader.resolve("xdg-open") != nil else { return .notInstalled(package: "xdg-utils") }
        let desktops = desktop.current.map { [$0.lowercased()] } ?? []
        switch desktop.current {
        case "GNOME", "MATE":
            if reader.resolve("gio") != nil { return via("gio open", gio(Self.web, desktops: desktops)) }
        case "KDE":
            guard reader.resolve("kde-open5") != nil else { return .notInstalled(package: "kde-cli-tools") }
            return needingDisplay("kde-open5") ?? via("kde-open5", reader.kdeForecast(Self.web, desktops: desktops))
        case "XFCE":
            if reader.resolve("exo-open") != nil { return needingDisplay("exo-open") ?? via("exo-open", reader.xfceForecast("WebBrowser")) }
            if reader.resolve("gio") != nil { return via("gio open", gio(Self.web, desktops: desktops)) }
        default:
            break
        }
        return generic(Self.web, desktops: desktops)
    }

    /// `forecast`, saying which tool the path handed the link to.
    func via(_ tool: String, _ forecast: ArrivalForecast) -> ArrivalForecast {
        switch forecast {
        case .reaches(let why): return .reaches("by \(tool): \(why)")
        case .goesAround(let program, let why): return .goesAround(program: program, why: "by \(tool): \(why)")
        case .fails(let why): return .fails("by \(tool): \(why)")
        case .notInstalled: return forecast
        }
    }

    /// GIO's default: mimeapps.list only.
    func gio(_ type: String, desktops: [String]) -> ArrivalForecast {
        guard reader.resolve("gio") != nil else { return .notInstalled(package: "libglib2.0-bin") }
        return reader.mimeForecast(type, desktops: desktops) ?? .fails("no default for \(type) in any mimeapps.list")
    }

    /// xdg-open's own way (no desktop, LXQt): the scheme's default when there is a display, then
    /// each `$BROWSER` entry, then the first of its list of browsers on PATH.
    func generic(_ type: String, desktops: [String]) -> ArrivalForecast {
        let reader = self.reader
        if reader.hasDisplay, let forecast = reader.mimeForecast(type, desktops: desktops) { return forecast }
        let noDisplay = reader.hasDisplay ? "" : "no DISPLAY or WAYLAND_DISPLAY, so the desktop's default is not read; "
        if let value = reader.browserVariable { return reader.browserForecast(value, why: noDisplay + "BROWSER=\(value)") }
        let list = (reader.hasDisplay ? ["x-www-browser", "firefox", "iceweasel", "seamonkey", "mozilla", "epiphany", "konqueror", "chromium",
                                         "chromium-browser", "google-chrome"] : []) + ["www-browser", "links2", "elinks", "links", "lynx", "w3m"]
        guard let first = list.first(where: { reader.resolve($0) != nil }) else { return .fails(noDisplay + "no default, no $BROWSER and none of xdg-open's browsers on PATH") }
        return reader.programForecast(first, why: noDisplay + "no default for \(type); \(first) is the first of xdg-open's browsers on PATH")
    }

    /// xdg-email 1.1.3: `$MAILER` first; XFCE's MailReader helper, KDE's choice, GNOME's mailto
    /// default; elsewhere it hands the link to xdg-open's own way.
    func xdgEmail() -> ArrivalForecast {
        let reader = self.reader
        guard reader.resolve("xdg-email") != nil else { return .notInstalled(package: "xdg-utils") }
        if let mailer = environment["MAILER"], !mailer.isEmpty {
            return reader.programForecast(mailer.split(separator: " ").first.map(String.init) ?? mailer, why: "MAILER=\(mailer)")
        }
        let desktops = paths.currentDesktops
        if desktops.contains("xfce"), reader.resolve("exo-open") != nil { return needingDisplay("exo-open") ?? via("exo-open", reader.xfceForecast("MailReader")) }
        if desktops.contains("kde") { return reader.kdeForecast(Self.mail, desktops: desktops) }
        if !Set(desktops).isDisjoint(with: ["gnome", "mate", "cinnamon", "lxde", "deepin"]) {
            return reader.mimeForecast(Self.mail, desktops: desktops) ?? .fails("no default for \(Self.mail) in any mimeapps.list")
        }
        return via("xdg-open", generic(Self.mail, desktops: desktops))
    }

    /// Why `tool` (a GTK or Qt program) cannot open anything here: no display to connect to.
    func needingDisplay(_ tool: String) -> ArrivalForecast? {
        reader.hasDisplay ? nil : .fails("no DISPLAY or WAYLAND_DISPLAY, and \(tool) needs one")
    }

    /// What `xdg-settings` tells apps (Chromium, Python) the default browser is.
    func xdgSettings() -> ArrivalForecast {
        guard reader.resolve("xdg-settings") != nil else { return .notInstalled(package: "xdg-utils") }
        guard let answer = xdgSettingsAnswer, !answer.isEmpty else { return .fails("it names no default browser") }
        let why = "it answers \(answer)" + (reader.browserVariable == nil ? "" : " (from $BROWSER, which it reads first)")
        return answer == ArrivalReader.ours ? .reaches(why) : .goesAround(program: answer, why: why)
    }

    /// The portal opens GIO's default for the scheme, in its own session environment.
    func portal() -> ArrivalForecast {
        guard portalAvailable else { return .notInstalled(package: "xdg-desktop-portal") }
        let backends = PortalBackends(paths: paths).describe(desktops: paths.currentDesktops)
        switch via("xdg-desktop-portal", gio(Self.web, desktops: paths.currentDesktops)) {
        case .reaches(let why): return .reaches(why + "; " + backends)
        case .goesAround(let program, let why): return .goesAround(program: program, why: why + "; " + backends)
        case let other: return other
        }
    }

    /// Debian's sensible-browser: `$BROWSER`, else with a display `/usr/bin/gnome-www-browser`
    /// (GNOME) or `/usr/bin/x-www-browser` (by path, never looked up on PATH), else `www-browser`.
    func sensibleBrowser() -> ArrivalForecast {
        let reader = self.reader
        guard let path = reader.resolve("sensible-browser") else { return .notInstalled(package: "sensible-utils") }
        if reader.isOurs(path) { return .reaches("\(path) runs openurl") }
        if let value = reader.browserVariable, reader.resolve(value) != path { return reader.browserForecast(value, why: "BROWSER=\(value)") }
        if !(environment["DISPLAY"] ?? "").isEmpty {
            if !(environment["GNOME_DESKTOP_SESSION_ID"] ?? "").isEmpty, FileSystem.isExecutable("/usr/bin/gnome-www-browser") {
                return reader.programForecast("/usr/bin/gnome-www-browser", why: "it runs /usr/bin/gnome-www-browser")
            }
            if FileSystem.isExecutable("/usr/bin/x-www-browser") {
                return reader.programForecast("/usr/bin/x-www-browser", why: "it runs /usr/bin/x-www-browser (by that path, not from PATH)")
            }
        }
        return reader.programForecast("/usr/bin/www-browser", why: "no DISPLAY: it runs /usr/bin/www-browser")
    }

    /// Python's webbrowser: `$BROWSER` first, then with a display xdg-open, else console browsers.
    func python() -> ArrivalForecast {
        let reader = self.reader
        guard reader.resolve("python3") != nil else { return .notInstalled(package: "python3") }
        if let value = reader.browserVariable { return reader.browserForecast(value, why: "BROWSER=\(value)") }
        if reader.hasDisplay, reader.resolve("xdg-open") != nil {
            let session = Self.desktops.first { $0.current?.lowercased() == paths.currentDesktops.first } ?? Self.desktops[0]
            return via("xdg-open", xdgOpen(session))
        }
        return reader.programForecast("www-browser", why: "no display: it tries console browsers")
    }
}

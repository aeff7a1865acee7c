import RouterContract
import Platform
import Catalog

/// Finds what is installed: the apps that open links, browsers and their profiles.
public protocol AppDiscovering {
    /// A fresh snapshot of the installed apps.
    func catalog() -> AppCatalog
    /// The installed entries among `ids` (those not found are left out).
    func entries(ids: [String]) -> [AppEntry]
}

/// Discovery from the files on disk: desktop entries in the XDG, Flatpak and Snap directories
/// (browsers are entries in the `WebBrowser` category or declaring `x-scheme-handler/http(s)`),
/// then each known browser's profile list in the place its packaging keeps it:
///
/// | family | native | Flatpak | Snap |
/// |---|---|---|---|
/// | Firefox | `~/.mozilla/firefox/profiles.ini`, else `$XDG_CONFIG_HOME/mozilla/firefox` | `~/.var/app/ID/.mozilla/firefox`, else `~/.var/app/ID/config/mozilla/firefox` | `~/snap/NAME/common/.mozilla/firefox`, else `~/snap/NAME/current/.config/mozilla/firefox` |
/// | Chromium | `$CHROME_CONFIG_HOME` or `$XDG_CONFIG_HOME` + `/google-chrome/Local State` | `~/.var/app/ID/config/google-chrome` | `~/snap/NAME/common/chromium` |
///
/// Profiles whose directory is gone (a stale `Local State` entry) are left out: Chrome would
/// silently create a new profile for them.
public struct AppDiscovery: AppDiscovering {
    /// Where desktop entries and home directories are.
    public var paths: XDGPaths
    /// `$CHROME_CONFIG_HOME`, when set to an absolute path.
    public var chromeConfigHome: String?
    /// `MOZ_LEGACY_HOME=1`: Firefox keeps `~/.mozilla/firefox` even where it would use the XDG directory.
    public var mozillaLegacyHome: Bool

    /// Discovers under `paths`; `environment` supplies `CHROME_CONFIG_HOME` and `MOZ_LEGACY_HOME`.
    public init(paths: XDGPaths, environment: [String: String]) {
        self.paths = paths
        chromeConfigHome = environment["CHROME_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        mozillaLegacyHome = environment["MOZ_LEGACY_HOME"]?.hasPrefix("1") == true
    }

    /// Reads every entry and profile list now.
    public func catalog() -> AppCatalog {
        var entries: [AppEntry] = []
        var browsers: [Browser] = []
        var webApps: [WebApp] = []
        for entry in DesktopEntryDirectory(paths: paths).allEntries(containing: ["x-scheme-handler/", "WebBrowser", "--app-id="]) where entry.id != Router1.desktopID {
            let app = Self.appEntry(entry)
            let isBrowser = entry.categories.contains("WebBrowser") || app.schemes.contains("http") || app.schemes.contains("https")
            if !isBrowser, let web = Self.webApp(entry) { webApps.append(web) }
            guard isBrowser || !app.schemes.isEmpty else { continue }
            entries.append(app)
            if isBrowser { browsers.append(browser(for: entry)) }
        }
        var catalog = AppCatalog(entries: entries, browsers: browsers)
        catalog.webApps = webApps
        return catalog
    }

    /// The installed entries among `ids`, read one by one (a config names a few).
    public func entries(ids: [String]) -> [AppEntry] {
        let directory = DesktopEntryDirectory(paths: paths)
        return ids.compactMap { id in directory.entry(id: id).map(Self.appEntry) }
    }

    /// The catalogue's view of a desktop entry: id, name, schemes, actions and icon.
    public static func appEntry(_ entry: DesktopEntry) -> AppEntry {
        let schemes = entry.mimeTypes.compactMap { type -> String? in
            type.hasPrefix("x-scheme-handler/") ? String(type.dropFirst("x-scheme-handler/".count)).lowercased() : nil
        }
        let words = entry.exec.flatMap { try? ExecLine.tokenize($0, entry: entry.id) } ?? []
        return AppEntry(id: entry.id, name: entry.name, schemes: schemes,
                        actions: entry.actions.map { AppEntry.EntryAction(id: $0.id, name: $0.name) }, icon: entry.icon ?? "",
                        program: ExecLine.programPrefix(words).last.map(Path.lastComponent))
    }

    /// A web app a Chromium-family browser installed: its `Exec` runs a browser with `--app-id=ID`.
    static func webApp(_ entry: DesktopEntry) -> WebApp? {
        let words = entry.exec.flatMap { try? ExecLine.tokenize($0, entry: entry.id) } ?? []
        guard let word = words.first(where: { $0.hasPrefix("--app-id=") }) else { return nil }
        let id = String(word.dropFirst("--app-id=".count))
        guard !id.isEmpty else { return nil }
        return WebApp(desktopID: entry.id, name: entry.name, icon: entry.icon ?? "", appID: id)
    }

    /// The browser an entry launches, with its profiles when its family is known.
    func browser(for entry: DesktopEntry) -> Browser {
        let words = entry.exec.flatMap { try? ExecLine.tokenize($0, entry: entry.id) } ?? []
        let packaging = Self.packaging(of: entry, words: words)
        let program = ExecLine.programPrefix(words).last
        guard let known = KnownBrowser.identify(desktopID: entry.id, program: program, packaging: packaging) else {
            return Browser(desktopID: entry.id, name: entry.name, known: nil, packaging: packaging)
        }
        let directory = profileDirectory(of: known, packaging: packaging)
        let all = Self.profiles(of: known.family, in: directory)
        // Only the first profiles are looked at (their directories checked, offered as targets).
        let listed = all.prefix(Browser.maximumProfiles)
        var present: [ProfileRecord] = [], stale: [ProfileRecord] = []
        for var record in listed {
            let exists = Self.isDirectory(known.family == .firefox ? record.directory : directory + "/" + record.directory)
            if exists, known.family == .firefox, let containers = FileSystem.contents(record.directory + "/containers.json") {
                record.containers = ProfileFiles.firefoxContainers(containersJSON: containers)
            }
            if exists { present.append(record) } else { stale.append(record) }
        }
        var browser = Browser(desktopID: entry.id, name: entry.name, known: known, packaging: packaging, profileDirectory: directory,
                              profiles: present, staleProfiles: stale)
        browser.skippedProfiles = all.count - listed.count
        return browser
    }

    /// Where `known` keeps its profiles, as the browser itself decides: for the Firefox family the
    /// legacy directory (`~/.mozilla/firefox`) when it or its root (`~/.mozilla`) exists or
    /// `MOZ_LEGACY_HOME=1`, else the XDG one (`$XDG_CONFIG_HOME/mozilla/firefox`, Firefox 147 and
    /// later). When the place the browser would use has no profile list but another has, that one
    /// is read (a profile list moved by hand, a browser older or newer than the rule assumes).
    func profileDirectory(of known: KnownBrowser, packaging: KnownBrowser.Packaging) -> String {
        let configHome = known.family == .chromium ? chromeConfigHome ?? paths.configHome : paths.configHome
        let places = known.profileDirectories(packaging: packaging, home: paths.home, configHome: configHome)
        guard !places.xdg.isEmpty else { return places.legacy }
        let legacyFirst = mozillaLegacyHome || Self.isDirectory(places.legacy) || Self.isDirectory(places.legacyRoot)
        let ordered = legacyFirst ? [places.legacy] + places.xdg : places.xdg + [places.legacy]
        let list = known.family == .firefox ? "/profiles.ini" : "/Local State"
        return ordered.first { FileSystem.exists($0 + list) } ?? ordered[0]
    }

    /// Flatpak by `X-Flatpak` or a `flatpak run` Exec; Snap by `X-SnapInstanceName` or snapd's
    /// `NAME_APP.desktop` in its export directory; native otherwise.
    static func packaging(of entry: DesktopEntry, words: [String]) -> KnownBrowser.Packaging {
        if let id = entry.flatpakID { return .flatpak(id: id) }
        if let first = words.first, Path.lastComponent(first) == "flatpak", words.count > 2, words[1] == "run",
           let id = ExecLine.programPrefix(words).last {
            return .flatpak(id: id)
        }
        if let name = entry.snapName { return .snap(name: name) }
        if entry.path.containsText("/snapd/desktop/"), let underscore = entry.id.firstIndex(of: "_") {
            return .snap(name: String(entry.id[..<underscore]))
        }
        return .native
    }

    /// The profiles listed in `directory` (`profiles.ini` or `Local State`), existing or not.
    static func profiles(of family: BrowserFamily, in directory: String) -> [ProfileRecord] {
        switch family {
        case .firefox:
            guard let data = FileSystem.contents(directory + "/profiles.ini") else { return [] }
            return ProfileFiles.firefoxProfiles(ini: String(decoding: data, as: UTF8.self), base: directory)
        case .chromium:
            guard let data = FileSystem.contents(directory + "/Local State") else { return [] }
            return ProfileFiles.chromiumProfiles(localState: data) ?? []
        case .unlisted:
            return []
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        FileSystem.isDirectory(path)
    }
}

import RoutingCore

/// What is installed, as discovery found it: desktop entries that open links, browsers and their
/// profiles. `Desktop` builds it (reading files); the config loader, the engine and `openurl apps`
/// only read it, so everything that depends on it stays testable as data.
public struct AppCatalog: Sendable, Equatable {
    /// Desktop entries that declare an `x-scheme-handler/…` or are browsers, sorted by id.
    public var entries: [AppEntry]
    /// Browsers, with their profiles where the family is known.
    public var browsers: [Browser]
    /// Other entries a config names (`open = "zoom.desktop"`, `[apps.X] desktop = …`): for their
    /// names and icons only; `entries` lists what opens links.
    public var others: [AppEntry] = []
    /// What `system` opens, by scheme (`http`, `https`, `mailto`): the handler that was the
    /// default before openurld (the takeover record), else the current default, else the first
    /// other app for the scheme. Filled by whoever reads the takeover record (Routing reads no
    /// files); empty when unknown.
    public var previousHandlers: [String: AppEntry] = [:]
    /// Installed web apps: desktop entries a Chromium-family browser wrote with `--app-id=`.
    public var webApps: [WebApp] = []

    /// What discovery left out, one sentence each (a browser's profiles past the limit).
    public var warnings: [String] { browsers.compactMap(\.skippedProfilesWarning) }

    /// Creates a catalogue; the empty one knows no apps.
    public init(entries: [AppEntry] = [], browsers: [Browser] = []) {
        self.entries = entries
        self.browsers = browsers
    }

    /// The entry that opens `scheme` links (the first by id), if any.
    public func handler(forScheme scheme: String) -> AppEntry? {
        let lowered = scheme.lowercased()
        return entries.first { $0.schemes.contains(lowered) }
    }

    /// The entry with this desktop id, if discovery found it.
    public func entry(id: String) -> AppEntry? {
        entries.first { $0.id == id } ?? others.first { $0.id == id } ?? webApps.first { $0.desktopID == id }.map(\.entry)
    }

    /// The entries that declare `x-scheme-handler/SCHEME`, by id.
    public func entries(forScheme scheme: String) -> [AppEntry] {
        let lowered = scheme.lowercased()
        return entries.filter { $0.schemes.contains(lowered) }
    }

    /// Whether the desktop entry `id` (with or without `.desktop`) is a browser.
    public func isBrowser(desktopID id: String) -> Bool {
        let fileID = id.hasSuffix(".desktop") ? id : id + ".desktop"
        return browsers.contains { $0.desktopID == fileID }
    }

    /// The browser a target names: its desktop id without `.desktop` (`org.mozilla.firefox`), or a
    /// known browser's short name (`firefox`) when no entry has that id.
    public func browser(named name: String) -> Browser? {
        browsers.first { $0.id == name } ?? browsers.first { $0.known?.key == name }
    }

    /// Resolves `browser` and an optional `profile` (a display name, a directory name, `private`
    /// or `app`, or a profile followed by `:private` or `:app`) to the arguments that open it;
    /// the error names the nearest existing names.
    public func resolve(browser name: String, profile: String?) -> Result<BrowserTarget, BrowserLookupError> {
        guard let browser = browser(named: name) else {
            // Suggestions may be short names (`firefox` for firefox-esr); only desktop ids are installed.
            let installed = browsers.map(\.id)
            return .failure(BrowserLookupError(message: "unknown browser \"\(name)\"" + Self.hint(name, among: browserNames)
                + (installed.isEmpty ? " (no browsers were found)" : " (installed: \(installed.joined(separator: ", ")))")))
        }
        guard let profile else { return .success(BrowserTarget(browser: name, profile: nil, desktopID: browser.desktopID, arguments: [])) }
        if let window = BrowserWindow(rawValue: profile), window != .normal {
            return target(name, browser, profile: nil, window: window, profileArguments: [])
        }
        // A profile's own name wins over a `:private`, `:app` or `:container:NAME` suffix (profile names may hold colons).
        if browser.known != nil, let record = profileRecord(profile, of: browser), let known = browser.known {
            return .success(BrowserTarget(browser: name, profile: profile, desktopID: browser.desktopID,
                                          arguments: known.profileArguments(directory: record.directory)))
        }
        if let container = containerTarget(name, browser, profile: profile) { return container }
        for window in [BrowserWindow.private, .app] where profile.hasSuffix(":" + window.rawValue) {
            let profileName = String(profile.dropLast(window.rawValue.count + 1))
            guard !profileName.isEmpty else { break }
            switch resolve(browser: name, profile: profileName) {
            case .success(let plain): return target(name, browser, profile: profileName, window: window, profileArguments: plain.arguments)
            case .failure(let error): return .failure(error)
            }
        }
        guard let known = browser.known else {
            return .failure(BrowserLookupError(message: "\(name): openurld does not know where \(browser.name) keeps its profiles (known: \(KnownBrowser.table.filter { $0.family != .unlisted }.map(\.key).joined(separator: ", ")))", isMissing: false))
        }
        if let stale = browser.staleProfiles.first(where: { $0.name == profile || $0.directory == profile }) {
            return .failure(BrowserLookupError(message: "\(name): profile \"\(profile)\" is listed by the browser but its directory \(stale.directory) is gone (a deleted profile); pick another: \(Self.quoted(browser.profiles.map(\.name)))"))
        }
        let names = browser.profiles.map(\.name) + ["private"] + (known.appArgument != nil ? ["app"] : [])
        // A Chromium profile is also named by its directory (`chromium:Work` for `--profile-directory=Work`,
        // whose display name may be "Your Chromium"), so the directories are suggested too.
        let directories = browser.profiles.map(\.directory).filter { !$0.contains("/") && !names.contains($0) }
        let skipped = browser.skippedProfiles > 0 ? "; only the first \(Browser.maximumProfiles) profiles its list names are read, \(browser.skippedProfiles) were skipped" : ""
        return .failure(BrowserLookupError(message: "\(name) has no profile \"\(profile)\"" + Self.hint(profile, among: names + directories)
            + " (profiles: \(Self.quoted(names)))" + skipped))
    }

    /// `container:NAME` (the default profile's) or `PROFILE:container:NAME`: a Firefox container,
    /// which must be one the profile's `containers.json` lists; nil when `profile` names none.
    private func containerTarget(_ name: String, _ browser: Browser, profile: String) -> Result<BrowserTarget, BrowserLookupError>? {
        let profileName: String?
        let container: String
        if profile.hasPrefix("container:") {
            (profileName, container) = (nil, String(profile.dropFirst("container:".count)))
        } else if let cut = Self.split(profile, at: ":container:") {
            (profileName, container) = cut
        } else {
            return nil
        }
        guard !container.isEmpty else { return .failure(BrowserLookupError(message: "\(name): no container named after \"container:\"", isMissing: false)) }
        guard let known = browser.known, known.family == .firefox else {
            return .failure(BrowserLookupError(message: "\(name): containers are Firefox's (\(browser.name) has none)", isMissing: false))
        }
        var plain = BrowserTarget(browser: name, profile: profileName, desktopID: browser.desktopID, arguments: [])
        let record: ProfileRecord?
        if let profileName {
            switch resolve(browser: name, profile: profileName) {
            case .success(let resolved) where resolved.window == .normal: plain = resolved
            case .success: return .failure(BrowserLookupError(message: "\(name): a container opens in a normal window of a profile", isMissing: false))
            case .failure(let error): return .failure(error)
            }
            record = profileRecord(profileName, of: browser)
        } else {
            record = browser.profiles.first { $0.isDefault } ?? (browser.profiles.count == 1 ? browser.profiles.first : nil)
        }
        let containers = record?.containers ?? []
        let found = containers.first { $0 == container } ?? unique(containers.filter { $0.lowercased() == container.lowercased() }.map { ProfileRecord(name: $0, directory: "") })?.name
        guard let found else {
            let which = record.map { "profile \"\($0.name)\"" } ?? "the default profile"
            let listed = containers.isEmpty ? "it lists no containers (Firefox writes containers.json once containers are on: install openurld's companion extension, which turns them on)"
                : "containers: \(Self.quoted(containers))"
            return .failure(BrowserLookupError(message: "\(name): \(which) has no container \"\(container)\"" + Self.hint(container, among: containers) + " (\(listed))"))
        }
        plain.container = found
        return .success(plain)
    }

    /// The text before and after the first `marker` in `text`, nil when it has none.
    private static func split(_ text: String, at marker: String) -> (String, String)? {
        let bytes = Array(text.utf8), mark = Array(marker.utf8)
        guard bytes.count >= mark.count else { return nil }
        for start in 0...(bytes.count - mark.count) where bytes[start..<(start + mark.count)].elementsEqual(mark) {
            return (String(decoding: bytes[..<start], as: UTF8.self), String(decoding: bytes[(start + mark.count)...], as: UTF8.self))
        }
        return nil
    }

    /// `"a", "b", "c"`: at most 20 names, then how many more (a message is read, not searched).
    private static func quoted(_ names: [String]) -> String {
        let shown = names.prefix(20).map { "\"\($0)\"" }.joined(separator: ", ")
        return names.count > 20 ? shown + " and \(names.count - 20) more" : shown
    }

    /// A private or app-mode window of `browser` (in a profile when `profileArguments` say so).
    private func target(_ name: String, _ browser: Browser, profile: String?, window: BrowserWindow, profileArguments: [String]) -> Result<BrowserTarget, BrowserLookupError> {
        guard let known = browser.known else {
            let what = window == .private ? "a private window" : "an app-mode window"
            return .failure(BrowserLookupError(message: "\(name): openurld does not know how \(browser.name) opens \(what); use a desktop action (openurl apps lists them)", isMissing: false))
        }
        switch window {
        case .private:
            return .success(BrowserTarget(browser: name, profile: profile, window: .private, desktopID: browser.desktopID,
                                          arguments: profileArguments + known.privateArguments))
        case .app:
            guard known.appArgument != nil else {
                return .failure(BrowserLookupError(message: "\(name): \(browser.name) has no app-mode window (a window without tabs: Chromium-family browsers have one, with --app=URL)", isMissing: false))
            }
            return .success(BrowserTarget(browser: name, profile: profile, window: .app, desktopID: browser.desktopID, arguments: profileArguments))
        case .normal:
            return .success(BrowserTarget(browser: name, profile: profile, desktopID: browser.desktopID, arguments: profileArguments))
        }
    }

    /// The profile `profile` names: its display name, its directory, or its name without case when that is unique.
    private func profileRecord(_ profile: String, of browser: Browser) -> ProfileRecord? {
        browser.profiles.first { $0.name == profile }
            ?? browser.profiles.first { $0.directory == profile || $0.directory.hasSuffix("/" + profile) }
            ?? unique(browser.profiles.filter { $0.name.lowercased() == profile.lowercased() })
    }

    /// The installed web app (Chromium's `--app-id=` entries) with this desktop id, if any.
    public func webApp(id: String) -> WebApp? {
        // Asked at every click on a desktop entry: most desktops have no web apps, and the
        // suffix test and concatenation cost ~300 instructions.
        guard !webApps.isEmpty else { return nil }
        let fileID = id.hasSuffix(".desktop") ? id : id + ".desktop"
        return webApps.first { $0.desktopID == fileID }
    }

    /// Every name a browser can be given by: desktop ids, then known short names not taken.
    public var browserNames: [String] {
        var names = browsers.map(\.id)
        for browser in browsers { if let key = browser.known?.key, !names.contains(key) { names.append(key) } }
        return names
    }

    private func unique(_ records: [ProfileRecord]) -> ProfileRecord? { records.count == 1 ? records[0] : nil }

    /// `; did you mean "X"?` for the nearest name, compared without case (profile names have capitals).
    private static func hint(_ word: String, among names: [String]) -> String {
        let lowered = names.map { $0.lowercased() }
        guard let nearest = NearestName.nearest(to: word, among: lowered), let index = lowered.firstIndex(of: nearest) else { return "" }
        return "; did you mean \"\(names[index])\"?"
    }
}

/// A desktop entry that can open links.
public struct AppEntry: Sendable, Equatable {
    /// The desktop file id (`firefox.desktop`).
    public var id: String
    /// The display name.
    public var name: String
    /// The schemes of its `x-scheme-handler/…` MIME types, lowercased.
    public var schemes: [String]
    /// Its desktop actions as (action id, display name).
    public var actions: [EntryAction]
    /// Its `Icon`: a theme name or an absolute path, empty for none.
    public var icon: String
    /// The basename of the program its `Exec` runs (`firefox-esr`), for "is it running?".
    public var program: String?

    /// A `[Desktop Action ID]`.
    public struct EntryAction: Sendable, Equatable {
        /// The action id.
        public var id: String
        /// The display name.
        public var name: String
        /// Creates an action.
        public init(id: String, name: String) { self.id = id; self.name = name }
    }

    /// Creates an entry.
    public init(id: String, name: String, schemes: [String], actions: [EntryAction] = [], icon: String = "", program: String? = nil) {
        self.id = id
        self.name = name
        self.schemes = schemes
        self.actions = actions
        self.icon = icon
        self.program = program
    }
}

/// An installed browser.
public struct Browser: Sendable, Equatable {
    /// The name targets use: the desktop id without `.desktop`.
    public var id: String { desktopID.hasSuffix(".desktop") ? String(desktopID.dropLast(8)) : desktopID }
    /// The desktop file id.
    public var desktopID: String
    /// The display name.
    public var name: String
    /// The family entry, when openurld knows this browser's profiles.
    public var known: KnownBrowser?
    /// Native, Flatpak or Snap.
    public var packaging: KnownBrowser.Packaging
    /// Where its profile list was read from, if it was.
    public var profileDirectory: String?
    /// Its profiles (only those whose directory exists).
    public var profiles: [ProfileRecord]
    /// Profiles its list names whose directory is gone: not offered, only named in errors.
    public var staleProfiles: [ProfileRecord]
    /// How many profiles its list names past `Browser.maximumProfiles`: not read further.
    public var skippedProfiles = 0

    /// The most profiles read from one browser's list, in the list's order. Each is a target,
    /// a choice in every question and a line of `openurl apps`; a `Local State` of 100,000 took
    /// the daemon seconds to start and every question seconds to put.
    public static let maximumProfiles = 1000

    /// What `openurl check` and the daemon's log say when the list was cut short; nil when it was not.
    public var skippedProfilesWarning: String? {
        guard skippedProfiles > 0 else { return nil }
        let file = known?.family == .firefox ? "profiles.ini" : "Local State"
        let place = profileDirectory.map { $0 + "/" + file } ?? file
        return "\(desktopID): \(place) lists \(skippedProfiles + profiles.count + staleProfiles.count) profiles; "
            + "the first \(Self.maximumProfiles) (in the file's order) are used and the other \(skippedProfiles) skipped"
    }

    /// Creates a browser.
    public init(desktopID: String, name: String, known: KnownBrowser?, packaging: KnownBrowser.Packaging = .native,
                profileDirectory: String? = nil, profiles: [ProfileRecord] = [], staleProfiles: [ProfileRecord] = []) {
        self.desktopID = desktopID
        self.name = name
        self.known = known
        self.packaging = packaging
        self.profileDirectory = profileDirectory
        self.profiles = profiles
        self.staleProfiles = staleProfiles
    }
}

/// An installed web app: a desktop entry a Chromium-family browser wrote for a site
/// (`Exec=chromium --profile-directory=Default --app-id=ID`), opened at a URL with
/// `--app-launch-url-for-shortcuts-menu-item=URL`.
public struct WebApp: Sendable, Equatable {
    /// The desktop file id (`chrome-ID-Default.desktop`): the target to write.
    public var desktopID: String
    /// Its `Name`.
    public var name: String
    /// Its `Icon`.
    public var icon: String
    /// The `--app-id=` value.
    public var appID: String

    /// A web app.
    public init(desktopID: String, name: String, icon: String = "", appID: String) {
        self.desktopID = desktopID
        self.name = name
        self.icon = icon
        self.appID = appID
    }

    /// As an entry, for its label and icon.
    var entry: AppEntry { AppEntry(id: desktopID, name: name, schemes: [], icon: icon) }
}

/// Why a browser target does not resolve, naming the nearest existing names.
public struct BrowserLookupError: Error, Sendable, Equatable {
    /// The message for `check`.
    public var message: String
    /// True when what is named may simply not be installed (a browser, a profile): a missing
    /// app, with which the rest of the config still loads; false for a target no installation
    /// makes work (Firefox's app window, a private window of a browser openurld does not know).
    public var isMissing: Bool

    /// An error for `check`; `isMissing` when an installation could make the target work.
    public init(message: String, isMissing: Bool = true) {
        self.message = message
        self.isMissing = isMissing
    }
}

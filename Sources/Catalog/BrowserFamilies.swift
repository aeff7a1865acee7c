/// How a browser keeps its profiles, which decides how they are found and how one is launched.
public enum BrowserFamily: String, Sendable, Equatable {
    /// `profiles.ini`; launched with `--profile DIR`.
    case firefox
    /// `Local State` JSON; launched with `--profile-directory=DIR`.
    case chromium
    /// Profiles openurld does not list (GNOME Web, Falkon, qutebrowser): private windows only.
    case unlisted
}

/// A browser openurld knows the profiles of: one line of `KnownBrowser.table` each.
public struct KnownBrowser: Sendable, Equatable {
    /// The short name, also accepted as a browser name in targets (`firefox:Work`).
    public var key: String
    /// How its profiles are kept.
    public var family: BrowserFamily
    /// The arguments that open a private window.
    public var privateArguments: [String]
    /// The argument that, with the URL appended, opens an app-mode window (`--app=`); nil when the browser has none.
    public var appArgument: String? { family == .chromium ? "--app=" : nil }
    /// Where its profiles live, relative to the home directory (Firefox family: `.mozilla/firefox`)
    /// or to the config directory (Chromium family: `google-chrome`).
    public var profileRoot: String
    /// Firefox family: where the profiles live under `$XDG_CONFIG_HOME` when the legacy home
    /// directory (`profileRoot`) does not exist, as Firefox 147 and later keep them
    /// (`mozilla/firefox`); nil for the Chromium family, which has always used the config directory.
    public var xdgProfileRoot: String?
    /// Desktop ids (without `.desktop`) and program names of native packages.
    public var nativeNames: [String]
    /// Flatpak application ids.
    public var flatpakIDs: [String]
    /// Snap names.
    public var snapNames: [String]

    /// The browsers whose profiles are discovered, a line each.
    public static let table: [KnownBrowser] = [
        KnownBrowser(key: "firefox", family: .firefox, privateArguments: ["--private-window"], profileRoot: ".mozilla/firefox", xdgProfileRoot: "mozilla/firefox", nativeNames: ["firefox", "firefox-esr"], flatpakIDs: ["org.mozilla.firefox"], snapNames: ["firefox"]),
        KnownBrowser(key: "librewolf", family: .firefox, privateArguments: ["--private-window"], profileRoot: ".librewolf", xdgProfileRoot: "librewolf", nativeNames: ["librewolf"], flatpakIDs: ["io.gitlab.librewolf-community"], snapNames: []),
        KnownBrowser(key: "waterfox", family: .firefox, privateArguments: ["--private-window"], profileRoot: ".waterfox", xdgProfileRoot: "waterfox", nativeNames: ["waterfox"], flatpakIDs: ["net.waterfox.waterfox"], snapNames: []),
        KnownBrowser(key: "floorp", family: .firefox, privateArguments: ["--private-window"], profileRoot: ".floorp", xdgProfileRoot: "floorp", nativeNames: ["floorp"], flatpakIDs: ["one.ablaze.floorp"], snapNames: []),
        KnownBrowser(key: "zen", family: .firefox, privateArguments: ["--private-window"], profileRoot: ".zen", xdgProfileRoot: "zen", nativeNames: ["zen", "zen-browser"], flatpakIDs: ["app.zen_browser.zen", "io.github.zen_browser.zen"], snapNames: []),
        KnownBrowser(key: "google-chrome", family: .chromium, privateArguments: ["--incognito"], profileRoot: "google-chrome", xdgProfileRoot: nil, nativeNames: ["google-chrome", "google-chrome-stable"], flatpakIDs: ["com.google.Chrome"], snapNames: []),
        KnownBrowser(key: "chromium", family: .chromium, privateArguments: ["--incognito"], profileRoot: "chromium", xdgProfileRoot: nil, nativeNames: ["chromium", "chromium-browser"], flatpakIDs: ["org.chromium.Chromium"], snapNames: ["chromium"]),
        KnownBrowser(key: "brave", family: .chromium, privateArguments: ["--incognito"], profileRoot: "BraveSoftware/Brave-Browser", xdgProfileRoot: nil, nativeNames: ["brave-browser", "brave"], flatpakIDs: ["com.brave.Browser"], snapNames: ["brave"]),
        KnownBrowser(key: "microsoft-edge", family: .chromium, privateArguments: ["--inprivate"], profileRoot: "microsoft-edge", xdgProfileRoot: nil, nativeNames: ["microsoft-edge", "microsoft-edge-stable"], flatpakIDs: ["com.microsoft.Edge"], snapNames: []),
        KnownBrowser(key: "vivaldi", family: .chromium, privateArguments: ["--incognito"], profileRoot: "vivaldi", xdgProfileRoot: nil, nativeNames: ["vivaldi-stable", "vivaldi"], flatpakIDs: ["com.vivaldi.Vivaldi"], snapNames: ["vivaldi"]),
        KnownBrowser(key: "opera", family: .chromium, privateArguments: ["--private"], profileRoot: "opera", xdgProfileRoot: nil, nativeNames: ["opera"], flatpakIDs: ["com.opera.Opera"], snapNames: ["opera"]),
        KnownBrowser(key: "ungoogled-chromium", family: .chromium, privateArguments: ["--incognito"], profileRoot: "chromium", xdgProfileRoot: nil, nativeNames: ["ungoogled-chromium"], flatpakIDs: ["io.github.ungoogled_software.ungoogled_chromium"], snapNames: []),
        KnownBrowser(key: "epiphany", family: .unlisted, privateArguments: ["--incognito-mode"], profileRoot: "", xdgProfileRoot: nil, nativeNames: ["org.gnome.Epiphany", "epiphany", "epiphany-browser"], flatpakIDs: ["org.gnome.Epiphany"], snapNames: []),
        KnownBrowser(key: "falkon", family: .unlisted, privateArguments: ["--private-browsing"], profileRoot: "", xdgProfileRoot: nil, nativeNames: ["org.kde.falkon", "falkon"], flatpakIDs: ["org.kde.falkon"], snapNames: []),
        KnownBrowser(key: "qutebrowser", family: .unlisted, privateArguments: ["--target", "private-window"], profileRoot: "", xdgProfileRoot: nil, nativeNames: ["org.qutebrowser.qutebrowser", "qutebrowser"], flatpakIDs: ["org.qutebrowser.qutebrowser"], snapNames: []),
    ]

    /// How a desktop entry of a browser is packaged, which decides where its profiles are.
    public enum Packaging: Sendable, Equatable {
        case native
        case flatpak(id: String)
        case snap(name: String)
    }

    /// The known browser a desktop entry belongs to: by Flatpak id, Snap name, desktop id or program.
    public static func identify(desktopID: String, program: String?, packaging: Packaging) -> KnownBrowser? {
        switch packaging {
        case .flatpak(let id): return table.first { $0.flatpakIDs.contains(id) }
        case .snap(let name): return table.first { $0.snapNames.contains(name) }
        case .native:
            let id = desktopID.hasSuffix(".desktop") ? String(desktopID.dropLast(8)) : desktopID
            if let known = table.first(where: { $0.nativeNames.contains(id) || $0.key == id }) { return known }
            guard let program else { return nil }
            let base = program.split(separator: "/").last.map(String.init) ?? program
            return table.first { $0.nativeNames.contains(base) }
        }
    }

    /// The directory holding the profiles (`profiles.ini` or `Local State`) for this packaging:
    /// for the Firefox family the legacy one (`~/.mozilla/firefox`; see `profileDirectories`).
    /// `configHome` is `$CHROME_CONFIG_HOME` when set, else `$XDG_CONFIG_HOME`, for native Chromium browsers.
    public func profileDirectory(packaging: Packaging, home: String, configHome: String) -> String {
        profileDirectories(packaging: packaging, home: home, configHome: configHome).legacy
    }

    /// Where a browser of this packaging may keep its profiles: `legacy`, the home directory's
    /// (`~/.mozilla/firefox`; the only one for the Chromium family), and for the Firefox family the
    /// XDG ones (`$XDG_CONFIG_HOME/mozilla/firefox`), in the order they are tried; `legacyRoot` is
    /// the directory whose existence makes Firefox keep the legacy place (`~/.mozilla`).
    ///
    /// Firefox 147 and later (`toolkit/xre/nsXREDirProvider.cpp`, `GetLegacyOrXDGHomePath`) use
    /// `$HOME/.mozilla/firefox` when it or `$HOME/.mozilla` exists or `MOZ_LEGACY_HOME=1`, else
    /// `$XDG_CONFIG_HOME/mozilla/firefox` (`~/.config/mozilla/firefox`). A Flatpak's
    /// `XDG_CONFIG_HOME` is `~/.var/app/ID/config`; a Snap's is its per-revision `.config`
    /// (`~/snap/NAME/current/.config`), its HOME the common directory.
    public func profileDirectories(packaging: Packaging, home: String, configHome: String) -> (legacy: String, legacyRoot: String, xdg: [String]) {
        let root = profileRoot.split(separator: "/").first.map(String.init) ?? profileRoot
        switch (family, packaging) {
        case (.firefox, .native):
            return (home + "/" + profileRoot, home + "/" + root, xdgProfileRoot.map { [configHome + "/" + $0] } ?? [])
        case (.firefox, .flatpak(let id)):
            let app = home + "/.var/app/" + id
            return (app + "/" + profileRoot, app + "/" + root, xdgProfileRoot.map { [app + "/config/" + $0] } ?? [])
        case (.firefox, .snap(let name)):
            let snap = home + "/snap/" + name
            let xdg = xdgProfileRoot.map { [snap + "/current/.config/" + $0, snap + "/common/.config/" + $0] } ?? []
            return (snap + "/common/" + profileRoot, snap + "/common/" + root, xdg)
        case (.chromium, .native): return (configHome + "/" + profileRoot, configHome + "/" + profileRoot, [])
        case (.chromium, .flatpak(let id)):
            let directory = home + "/.var/app/" + id + "/config/" + profileRoot
            return (directory, directory, [])
        // The Chromium snap points CHROME_CONFIG_HOME at its common directory; other snaps keep
        // the default, which is their per-revision data (`current` follows the installed one).
        case (.chromium, .snap(let name)) where key == "chromium":
            let directory = home + "/snap/" + name + "/common/" + profileRoot
            return (directory, directory, [])
        case (.chromium, .snap(let name)):
            let directory = home + "/snap/" + name + "/current/.config/" + profileRoot
            return (directory, directory, [])
        case (.unlisted, _): return ("", "", [])
        }
    }

    /// The arguments that open `profile` (its directory, from discovery).
    public func profileArguments(directory: String) -> [String] {
        switch family {
        case .firefox: return ["--profile", directory]
        case .chromium: return ["--profile-directory=" + directory]
        case .unlisted: return []
        }
    }
}

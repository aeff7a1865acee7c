import Foundation

/// Installs fake browsers into an `IsolatedDesktop`, in the layouts real packages use, each a
/// desktop entry running the recording browser, with real-format profile lists:
///
/// - `firefox.desktop` (native): `~/.mozilla/firefox/profiles.ini` with `default-release` (the
///   `[Install…]` default), `Work Stuff` and `Ünïcödé`, and a `new-private-window` action.
/// - `google-chrome.desktop` (native): `$XDG_CONFIG_HOME/google-chrome/Local State` with
///   `Default` ("Person 1"), `Profile 1` ("Work"), `Profile 3` ("Café ☕ Team") and a stale
///   `Profile 2` ("Stale") whose directory is gone.
/// - `org.chromium.Chromium.desktop` (Flatpak, in `$XDG_DATA_HOME/flatpak/exports`): `Exec` runs a
///   `flatpak` that is the recording browser, in Flatpak's `@@u %U @@` form; `Local State` in
///   `~/.var/app/org.chromium.Chromium/config/chromium` with `Profile 1` ("Work").
/// - `firefox_firefox.desktop` (Snap, `X-SnapInstanceName=firefox`): profiles in
///   `~/snap/firefox/common/.mozilla/firefox` (`Snap Profile`).
public struct BrowserHome {
    /// The desktop it was installed into.
    public let desktop: IsolatedDesktop
    /// The `flatpak` stand-in (a link to the recording browser).
    public let flatpak: String

    /// Native Firefox's profile directory for `Work Stuff`.
    public var firefoxWorkDirectory: String { desktop.home + "/.mozilla/firefox/def456.Work Stuff" }
    /// Native Firefox's profile directory for `Ünïcödé`.
    public var firefoxUnicodeDirectory: String { desktop.home + "/.mozilla/firefox/ghi789.unicode" }
    /// The Snap Firefox's profile directory.
    public var snapProfileDirectory: String { desktop.home + "/snap/firefox/common/.mozilla/firefox/snap1.default" }

    /// Writes every browser and profile list; `browser` is the recording browser's executable.
    public init(desktop: IsolatedDesktop, browser: String) throws {
        self.desktop = desktop
        let home = desktop.home
        let files = FileManager.default
        let web = ["x-scheme-handler/http", "x-scheme-handler/https"]

        try desktop.writeDesktopEntry(id: "firefox.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Firefox", exec: "\(browser) --firefox %u", mimeTypes: web + ["text/html"],
            extra: "Categories=Network;WebBrowser;\nActions=new-private-window;\n\n[Desktop Action new-private-window]\nName=New Private Window\nExec=\(browser) --firefox --private-window %u\n"))
        let mozilla = home + "/.mozilla/firefox"
        try Self.write(mozilla + "/profiles.ini", """
            [Install4F96D1932A9F858E]
            Default=abc123.default-release
            Locked=1

            [Profile2]
            Name=Ünïcödé
            IsRelative=1
            Path=ghi789.unicode

            [Profile1]
            Name=Work Stuff
            IsRelative=0
            Path=\(mozilla)/def456.Work Stuff

            [Profile0]
            Name=default-release
            IsRelative=1
            Path=abc123.default-release
            Default=1

            [General]
            StartWithLastProfile=1
            Version=2

            """)
        for dir in ["abc123.default-release", "def456.Work Stuff", "ghi789.unicode"] {
            try files.createDirectory(atPath: mozilla + "/" + dir, withIntermediateDirectories: true)
        }

        try desktop.writeDesktopEntry(id: "google-chrome.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Google Chrome", exec: "\(browser) --chrome %U", mimeTypes: web, extra: "Categories=Network;WebBrowser;\n"))
        let chrome = desktop.configHome + "/google-chrome"
        try Self.write(chrome + "/Local State", #"""
            {"browser":{"enabled_labs_experiments":[]},"profile":{"info_cache":{
            "Default":{"name":"Person 1","is_using_default_name":true},
            "Profile 1":{"name":"Work","gaia_name":"Work Account"},
            "Profile 2":{"name":"Stale"},
            "Profile 3":{"name":"Caf\u00e9 \u2615 Team"}},
            "last_used":"Profile 1","profiles_order":["Default","Profile 1","Profile 2","Profile 3"]}}
            """#)
        for dir in ["Default", "Profile 1", "Profile 3"] {
            try files.createDirectory(atPath: chrome + "/" + dir, withIntermediateDirectories: true)
        }

        let bin = desktop.root + "/fake-bin"
        try files.createDirectory(atPath: bin, withIntermediateDirectories: true)
        flatpak = bin + "/flatpak"
        try? files.removeItem(atPath: flatpak)
        try files.createSymbolicLink(atPath: flatpak, withDestinationPath: browser)
        let exports = desktop.dataHome + "/flatpak/exports/share/applications"
        try files.createDirectory(atPath: exports, withIntermediateDirectories: true)
        try IsolatedDesktop.desktopEntry(
            name: "Chromium", exec: "\(flatpak) run --branch=stable --arch=x86_64 --command=/app/bin/chromium --file-forwarding org.chromium.Chromium @@u %U @@",
            mimeTypes: web, extra: "Categories=Network;WebBrowser;\nX-Flatpak=org.chromium.Chromium\n"
        ).write(toFile: exports + "/org.chromium.Chromium.desktop", atomically: true, encoding: .utf8)
        let flatpakChromium = home + "/.var/app/org.chromium.Chromium/config/chromium"
        try Self.write(flatpakChromium + "/Local State", #"{"profile":{"info_cache":{"Default":{"name":"Person 1"},"Profile 1":{"name":"Work"}}}}"#)
        for dir in ["Default", "Profile 1"] {
            try files.createDirectory(atPath: flatpakChromium + "/" + dir, withIntermediateDirectories: true)
        }

        try desktop.writeDesktopEntry(id: "firefox_firefox.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Firefox (Snap)", exec: "env BAMF_DESKTOP_FILE_HINT=/var/lib/snapd/desktop/applications/firefox_firefox.desktop \(browser) --snap %u",
            mimeTypes: web, extra: "Categories=Network;WebBrowser;\nX-SnapInstanceName=firefox\n"), system: true)
        let snap = home + "/snap/firefox/common/.mozilla/firefox"
        try Self.write(snap + "/profiles.ini", "[Profile0]\nName=Snap Profile\nIsRelative=1\nPath=snap1.default\nDefault=1\n")
        try files.createDirectory(atPath: snap + "/snap1.default", withIntermediateDirectories: true)
    }

    /// Adds `Zoom.desktop`, registered for `x-scheme-handler/zoommtg`, running the recording browser with `--zoom`.
    public func installZoom(browser: String) throws {
        try desktop.writeDesktopEntry(id: "Zoom.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Zoom", exec: "\(browser) --zoom %U", mimeTypes: ["x-scheme-handler/zoommtg", "x-scheme-handler/zoomus"]))
    }

    private static func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

import Foundation
import DesktopDefaults
import ArrivalPaths
import Launching
import Testing

/// What each path would run, read from the files as its tool reads them.
struct ForecastTests {
    static func rows(_ fixture: ArrivalFixture, _ extra: [String: String] = [:], answer: String? = nil) -> [String: ArrivalForecast] {
        let environment = fixture.environment(extra)
        let arrivals = LinkArrivals(paths: XDGPaths(environment: environment), environment: environment, xdgSettingsAnswer: answer, portalAvailable: true)
        var rows: [String: ArrivalForecast] = [:]
        for row in arrivals.all() { rows[row.name] = row.forecast }
        return rows
    }

    @Test func gioAndTheDesktopsFollowMimeappsAndTheirOwnLists() throws {
        let fixture = try ArrivalFixture("mime")
        try fixture.entry("browser.desktop", exec: fixture.bin + "/browser %u")
        try fixture.entry("io.github.openurld.desktop", exec: fixture.bin + "/openurl %u")
        try fixture.write("home/.config/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=io.github.openurld.desktop\n")
        try fixture.write("home/.config/gnome-mimeapps.list", "[Default Applications]\nx-scheme-handler/https=browser.desktop\n")
        let rows = Self.rows(fixture)
        guard case .reaches = rows["gio open"] else { Issue.record("\(String(describing: rows["gio open"]))"); return }
        guard case .goesAround(let program, let why) = rows["xdg-open (GNOME)"] else { Issue.record("\(rows)"); return }
        #expect(program == fixture.bin + "/browser" && why.contains("gnome-mimeapps.list"), "\(why)")
        guard case .reaches = rows["xdg-open (LXQt)"] else { Issue.record("\(String(describing: rows["xdg-open (LXQt)"]))"); return }
    }

    @Test func kdesBrowserApplicationComesBeforeMimeapps() throws {
        let fixture = try ArrivalFixture("kde")
        try fixture.entry("io.github.openurld.desktop", exec: fixture.bin + "/openurl %u")
        try fixture.write("home/.config/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=io.github.openurld.desktop\n")
        try fixture.write("home/.config/kdeglobals", "[General]\nBrowserApplication=!konqueror --new-tab\n")
        let rows = Self.rows(fixture, ["XDG_CURRENT_DESKTOP": "KDE"])
        #expect(rows["kde-open5"] == .goesAround(program: "konqueror", why: "BrowserApplication=!konqueror --new-tab in \(fixture.home)/.config/kdeglobals"))
        #expect(rows["kde-open"] == .notInstalled(package: "kde-cli-tools"))
    }

    /// KService reads the lists of the desktop it runs under, as GIO does.
    @Test func kdeOpen5InAGNOMESessionReadsGNOMEsList() throws {
        let fixture = try ArrivalFixture("kde-in-gnome")
        try fixture.entry("browser.desktop", exec: fixture.bin + "/browser %u")
        try fixture.entry("io.github.openurld.desktop", exec: fixture.bin + "/openurl %u")
        try fixture.write("home/.config/mimeapps.list", "[Default Applications]\nx-scheme-handler/https=io.github.openurld.desktop\n")
        try fixture.write("home/.config/gnome-mimeapps.list", "[Default Applications]\nx-scheme-handler/https=browser.desktop\n")
        let rows = Self.rows(fixture, ["XDG_CURRENT_DESKTOP": "GNOME"])
        guard case .goesAround(let program, _) = rows["kde-open5"] else { Issue.record("\(String(describing: rows["kde-open5"]))"); return }
        #expect(program == fixture.bin + "/browser")
        guard case .reaches = rows["xdg-open (KDE)"] else { Issue.record("\(String(describing: rows["xdg-open (KDE)"]))"); return }
    }

    @Test func withoutADisplayTheGUIToolsCannotOpen() throws {
        let fixture = try ArrivalFixture("nodisplay")
        let rows = Self.rows(fixture, ["DISPLAY": ""])
        guard case .fails(let why) = rows["exo-open"] else { Issue.record("\(String(describing: rows["exo-open"]))"); return }
        #expect(why.contains("needs one"))
    }

    @Test func browserVariableComesFirstForSensibleBrowserAndPython() throws {
        let fixture = try ArrivalFixture("browser")
        try fixture.program("lynx", "#!/bin/sh\n")
        let rows = Self.rows(fixture, ["BROWSER": "lynx:w3m"])
        #expect(rows["sensible-browser"] == .goesAround(program: fixture.bin + "/lynx", why: "BROWSER=lynx:w3m"))
        #expect(rows["python3 -m webbrowser"] == .goesAround(program: fixture.bin + "/lynx", why: "BROWSER=lynx:w3m"))
        #expect(rows["$BROWSER"] == .goesAround(program: fixture.bin + "/lynx", why: "BROWSER=lynx:w3m"))
    }

    @Test func aWrapperFromDoctorFixIsOurs() throws {
        let fixture = try ArrivalFixture("wrapper")
        let bin = fixture.home + "/.local/bin"
        let mends = PathMends(rows: [ArrivalPath(name: "x-www-browser", forecast: .goesAround(program: "/usr/bin/firefox-esr", why: ""))],
                              paths: XDGPaths(environment: fixture.environment()), environment: ["PATH": bin + ":/usr/bin"],
                              openurl: "/usr/bin/openurl", userID: getuid())
        #expect(mends.files.map(\.path) == [bin + "/x-www-browser"])
        try fixture.program("x-www-browser", mends.files.first?.content ?? "")
        guard case .reaches = Self.rows(fixture)["x-www-browser"] else { Issue.record("the wrapper is not taken for ours"); return }
        #expect(Self.rows(fixture, answer: "io.github.openurld.desktop")["xdg-settings get default-web-browser"] == .reaches("it answers io.github.openurld.desktop"))
    }

    @Test(arguments: [
        ("HOME/.local/bin:/usr/bin", "HOME/.local/bin"),
        ("/usr/bin:HOME/.local/bin", nil),
        ("/opt/tools:HOME/bin:/usr/bin", "HOME/bin"),
        ("/usr/local/bin:HOME/bin", nil),
        ("HOME/elsewhere:/usr/bin", nil),
    ] as [(String, String?)])
    func aUserDirectoryBeforeTheSystemsIsChosen(path: String, chosen: String?) throws {
        let fixture = try ArrivalFixture("path")
        let found = PathMends.userDirectoryBeforeSystem(environment: ["PATH": path.replacingOccurrences(of: "HOME", with: fixture.home)],
                                                         home: fixture.home, userID: getuid())
        #expect(found == chosen?.replacingOccurrences(of: "HOME", with: fixture.home))
    }

    @Test func thePortalsAppChooserIsTheDesktopsBackend() throws {
        let fixture = try ArrivalFixture("portal")
        try fixture.write("share/xdg-desktop-portal/portals/gtk.portal",
                          "[portal]\nDBusName=org.freedesktop.impl.portal.desktop.gtk\nInterfaces=org.freedesktop.impl.portal.AppChooser;\nUseIn=gnome\n")
        try fixture.write("share/xdg-desktop-portal/portals/kde.portal",
                          "[portal]\nDBusName=org.freedesktop.impl.portal.desktop.kde\nInterfaces=org.freedesktop.impl.portal.AppChooser;org.freedesktop.impl.portal.Email;\nUseIn=KDE\n")
        let backends = PortalBackends(paths: XDGPaths(environment: fixture.environment()))
        #expect(backends.appChooser(desktops: ["kde"])?.name == "kde")
        #expect(backends.appChooser(desktops: ["gnome"])?.name == "gtk")
        #expect(backends.appChooser(desktops: ["sway"])?.name == "gtk")
    }
}

import Foundation
import TestSupport
import Testing

/// The daemon notices another app taking the defaults (here GLib's own writer, `gio mime`, as a
/// browser's "make me the default" does) and offers Take back / Keep; `status` checks the chain;
/// `install` refuses when D-Bus activation is broken.
@Suite(.serialized) struct StealGuardTests {
    static func installed(_ config: String = DesktopPathTests.config, session: [String: String] = [:], name: String) throws -> DaemonHarness {
        let harness = try DaemonHarness(config: config, name: name, withDesktopSession: true, session: session)
        try DesktopPathTests().installEntry(harness)
        try PriorState.gioMime(harness)
        let install = try harness.run([harness.openurl, "install"])
        #expect(install.status == 0, "\(install)")
        // The guard's checks are read from the log: the daemon must be up and watching first.
        try harness.warmUp()
        return harness
    }

    func displayedCount(_ harness: DaemonHarness) throws -> Int {
        Int(try harness.run(["dunstctl", "count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    func choose(_ key: String, label: String, _ server: NotificationServer) -> Bool {
        var chosen = false
        return eventually(timeout: 8) {
            if !chosen, (try? server.chooseAction(key: key)) != nil { chosen = server.lastMenu.contains { $0.contains(label) } }
            return chosen
        }
    }

    func httpsDefault(_ harness: DaemonHarness) throws -> String {
        try harness.run(["xdg-mime", "query", "default", "x-scheme-handler/https"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aStolenDefaultIsOfferedBackAndTakeBackRestoresIt() throws {
        let harness = try Self.installed(name: "steal")
        let server = try #require(harness.notifications)
        #expect(try httpsDefault(harness) == "io.github.openurld.desktop")
        // A browser makes itself the default through GLib while the daemon runs.
        #expect(try harness.run(["gio", "mime", "x-scheme-handler/https", "browser.desktop"]).status == 0)
        #expect(choose("take-back", label: "Take back", server), "menu: \(server.lastMenu)")
        #expect(server.lastMenu.contains { $0.contains("Keep Recording Browser") }, "\(server.lastMenu)")
        #expect(eventually(timeout: 5) { (try? httpsDefault(harness)) == "io.github.openurld.desktop" })
        try server.closeAll()
        let history = try server.waitForHistory { $0.contains { $0.summary.contains("took over") } }
        #expect(history.map(\.summary) == ["Recording Browser took over https links"])
        #expect(try harness.run(["gio", "open", "https://example.org/back"]).status == 0)
        #expect(harness.browser.waitForRecords(1) == [["--work", "https://example.org/back"]])
    }

    /// A browser's "make default" under KDE runs `xdg-settings`, which writes mimeapps.list and
    /// kdeglobals: one notification names the app once, and Take back restores both files.
    @Test func xdgSettingsUnderKDEIsOneStealAndTakeBackCoversEveryFile() throws {
        let harness = try DesktopPathTests.harness(.kde, name: "steal-kde")
        let server = try #require(harness.notifications)
        try DesktopPathTests().installEntry(harness)
        try PriorState.write(.kde, harness)
        #expect(try harness.run([harness.openurl, "install"]).status == 0)
        let kdeglobals = harness.desktop.configHome + "/kdeglobals"
        #expect(try String(contentsOfFile: kdeglobals, encoding: .utf8).contains("BrowserApplication=io.github.openurld.desktop\n"))

        let steal = try harness.run(["xdg-settings", "set", "default-web-browser", "browser.desktop"])
        #expect(steal.status == 0, "\(steal)")
        #expect(try String(contentsOfFile: kdeglobals, encoding: .utf8).contains("BrowserApplication=browser.desktop\n"))
        #expect(choose("take-back", label: "Take back", server), "menu: \(server.lastMenu)")
        #expect(eventually(timeout: 5) {
            ((try? String(contentsOfFile: kdeglobals, encoding: .utf8)) ?? "").contains("BrowserApplication=io.github.openurld.desktop\n")
        })
        #expect(eventually(timeout: 5) { (try? httpsDefault(harness)) == "io.github.openurld.desktop" })
        try server.closeAll()
        let history = try server.waitForHistory { $0.contains { $0.summary.contains("took over") } }
        #expect(history.map(\.summary) == ["Recording Browser took over http and https links"])
        #expect(try harness.run(["kde-open5", "https://example.org/kde-back"]).status == 0)
        #expect(harness.browser.waitForRecords(1) == [["--work", "https://example.org/kde-back"]])
    }

    @Test func keepMakesTheNewAppTheSystemHandlerAndIsNotAskedAgain() throws {
        let harness = try Self.installed(name: "keep")
        let server = try #require(harness.notifications)
        #expect(try harness.run(["gio", "mime", "x-scheme-handler/http", "browser.desktop"]).status == 0)
        #expect(try harness.run(["gio", "mime", "x-scheme-handler/https", "browser.desktop"]).status == 0)
        #expect(choose("keep", label: "Keep Recording Browser", server), "menu: \(server.lastMenu)")
        try server.closeAll()
        let history = try server.waitForHistory { $0.contains { $0.summary.contains("took over") } }
        #expect(history.map(\.summary) == ["Recording Browser took over http and https links"])
        let record = try String(contentsOfFile: harness.desktop.stateHome + "/openurld/previous-handlers", encoding: .utf8)
        #expect(record.contains("handler\tx-scheme-handler/https\tbrowser.desktop\t"), "\(record)")
        // Another write of the lists is not a new steal: the guard checks it and shows nothing.
        let checks = harness.bus.log.components(separatedBy: "defaults checked: no app took new ones").count
        #expect(try harness.run(["gio", "mime", "x-scheme-handler/https", "browser.desktop"]).status == 0)
        #expect(eventually(timeout: 10) { harness.bus.log.components(separatedBy: "defaults checked: no app took new ones").count > checks })
        #expect(try displayedCount(harness) == 0)
        // Uninstall leaves the kept app alone.
        #expect(try harness.run([harness.openurl, "uninstall"]).status == 0)
        #expect(try httpsDefault(harness) == "browser.desktop")
    }

    @Test func guardDefaultsFalseTurnsTheGuardOff() throws {
        let harness = try Self.installed(DesktopPathTests.config + "\n[settings]\nguard_defaults = false\n", name: "noguard")
        let server = try #require(harness.notifications)
        #expect(try harness.run(["gio", "mime", "x-scheme-handler/https", "browser.desktop"]).status == 0)
        #expect(eventually(timeout: 10) { harness.bus.log.contains("defaults changed; not checked (guard_defaults = false)") })
        #expect(try displayedCount(harness) == 0)
        #expect(try server.history().isEmpty)
        #expect(try httpsDefault(harness) == "browser.desktop")
    }

    @Test func statusChecksEveryPathAndExitsNonZeroWhenOneIsBroken() throws {
        let harness = try Self.installed(session: ["XDG_CURRENT_DESKTOP": "GNOME"], name: "status")
        let good = try harness.run([harness.openurl, "status"])
        #expect(good.status == 0, "\(good)")
        #expect(good.stdout.contains("ok      GIO apps, gio open, xdg-open, the portal (https): io.github.openurld.desktop, set in \(harness.desktop.configHome)/mimeapps.list"), "\(good.stdout)")
        #expect(good.stdout.contains("ok      notifications: dunst"), "\(good.stdout)")
        #expect(good.stdout.contains("ok      daemon environment: DISPLAY=:"), "\(good.stdout)")

        // A desktop-specific list written after install overrides the plain one on GNOME.
        let list = harness.desktop.configHome + "/gnome-mimeapps.list"
        try "[Default Applications]\nx-scheme-handler/https=browser.desktop\n".write(toFile: list, atomically: true, encoding: .utf8)
        let bad = try harness.run([harness.openurl, "status"])
        #expect(bad.status == 4, "\(bad)")
        #expect(bad.stdout.contains("BROKEN  GIO apps, gio open, xdg-open, the portal (https): browser.desktop, set in \(list)\n        fix: openurl install"), "\(bad.stdout)")
        #expect(try harness.run([harness.openurl, "install"]).status == 0)
        #expect(try harness.run([harness.openurl, "status"]).status == 0)

        // $BROWSER and $MAILER are used before any default by sensible-browser and xdg-email.
        let bypassed = try harness.run([harness.openurl, "status"], extra: ["BROWSER": "firefox", "MAILER": "thunderbird"])
        #expect(bypassed.status == 4, "\(bypassed)")
        #expect(bypassed.stdout.contains("BROKEN  $BROWSER (sensible-browser, Python's webbrowser, git, man -H): $BROWSER=firefox is used before any default"), "\(bypassed.stdout)")
        #expect(bypassed.stdout.contains("BROKEN  $MAILER (xdg-email): $MAILER=thunderbird"), "\(bypassed.stdout)")
        #expect(try harness.run([harness.openurl, "status"], extra: ["BROWSER": "openurl"]).status == 0)
    }

    @Test func statusShowsADaemonWithoutADisplay() throws {
        // The session never ran dbus-update-activation-environment: the activated daemon has no display.
        let harness = try DaemonHarness(config: DesktopPathTests.config, name: "nodisplay", session: ["DISPLAY": ""])
        try DesktopPathTests().installEntry(harness)
        let status = try harness.run([harness.openurl, "status"])
        // Each click brings its display (issue 10), so this is a note, not a broken path.
        #expect(!status.stdout.contains("BROKEN  daemon environment"), "\(status.stdout)")
        #expect(status.stdout.contains("note    daemon environment: no DISPLAY or WAYLAND_DISPLAY of its own"), "\(status.stdout)")
        #expect(status.stdout.contains("dbus-update-activation-environment"), "\(status.stdout)")
    }

    @Test func installRefusesWhenDBusActivationIsBroken() throws {
        let harness = try DaemonHarness(config: DesktopPathTests.config, name: "noactivation")
        try DesktopPathTests().installEntry(harness)
        try PriorState.gioMime(harness)
        let before = try FileTree(harness.desktop)
        // The service file's Exec is gone, as after a partial uninstall or an upgrade.
        try harness.bus.addService(name: DaemonHarness.busName, exec: [harness.desktop.root + "/missing/openurld"])
        _ = try harness.run(["dbus-send", "--session", "--type=method_call", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                             "org.freedesktop.DBus.ReloadConfig"])
        let install = try harness.run([harness.openurl, "install"])
        #expect(install.status == 4, "\(install)")
        #expect(install.stderr.contains("not taking over the defaults: D-Bus activation of io.github.openurld failed"), "\(install.stderr)")
        #expect(try FileTree(harness.desktop).differences(from: before) == [])
        #expect(!FileManager.default.fileExists(atPath: harness.desktop.stateHome + "/openurld/previous-handlers"))
    }
}

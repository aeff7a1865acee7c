import DBus
import Foundation
import TestSupport
import Testing

/// Issue 10: notifications that tell the truth — one per failure, escaped once, saying what
/// happened with the app's name — and a log that keeps no copied text or mail bodies.
@Suite(.serialized) struct NotificationTruthTests {
    static let config = """
        [settings]
        clipboard = "xclip"

        [default]
        open = "browser.desktop"

        [[rules]]
        name = "broken app"
        match.domain = "broken.example"
        open = "broken.desktop"

        [[rules]]
        name = "no trackers"
        match.domain = "tracker.example"
        discard = true
        notify = true

        [[rules]]
        name = "copy mail"
        match.scheme = "mailto"
        copy = true
        """

    func harness(_ name: String, config: String = NotificationTruthTests.config) throws -> (DaemonHarness, NotificationServer) {
        let harness = try DaemonHarness(config: config, name: name, withDesktopSession: true)
        // A program that is there but cannot run (its interpreter is missing): the entry is
        // valid, the spawn fails.
        let program = harness.desktop.root + "/broken-app"
        try "#!/nonexistent/interpreter\n".write(toFile: program, atomically: true, encoding: .utf8)
        chmod(program, 0o755)
        try harness.desktop.writeDesktopEntry(id: "broken.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Broken App", exec: "\(program) %u"))
        return (harness, try #require(harness.notifications))
    }

    /// Notifications from openurld so far (closing them all first, so dunst files them in its history).
    func shown(_ server: NotificationServer, count: Int) throws -> [DunstHistoryEntry] {
        try server.closeAll()
        _ = try server.waitForHistory { $0.filter { $0.appName == "openurld" }.count >= count }
        // A negative about dunst: the tests assert no notification beyond `count` came, and no
        // event says none is still on its way, so a late one is given this long to arrive.
        usleep(300_000)
        try server.closeAll()
        return try server.history().filter { $0.appName == "openurld" }
    }

    @Test func aFailedLaunchIsOneNotificationNamingTheApp() throws {
        let (harness, server) = try harness("launchfail")
        let result = try harness.run([harness.openurl, "https://broken.example/x"])
        #expect(result.status == 4, "\(result)")
        let notes = try shown(server, count: 1)
        #expect(notes.count == 1, "\(notes.map(\.summary))")
        #expect(notes.first?.summary == "Could not open link in Broken App", "\(notes.first?.body ?? "")")
        #expect(notes.first?.body.contains("https://broken.example/x") == true)
        let recent = try harness.call("Recent", [.uint32(1)]).first?.array?.first?.dictionary
        #expect(recent?["outcome"]?.string?.hasPrefix("failed: ") == true)
    }

    @Test func markupInALinkIsEscapedOnceAndOnlyOnce() throws {
        let (harness, server) = try harness("markup")
        let result = try harness.run([harness.openurl, "gopher://x.org/<a href='https://evil.example'>click</a>"])
        #expect(result.status == 4, "\(result)")
        let notes = try shown(server, count: 1)
        #expect(notes.count == 1, "\(notes.map(\.summary))")
        let body = notes.first?.body ?? ""
        #expect(notes.first?.summary == "Link not opened")
        #expect(!body.contains("<a "), "\(body)")
        #expect(!body.contains("&amp;"), "escaped twice: \(body)")
    }

    @Test func aDiscardNamesItsRule() throws {
        let (harness, server) = try harness("discard")
        #expect(try harness.run([harness.openurl, "https://tracker.example/p"]).status == 0)
        let notes = try shown(server, count: 1)
        #expect(notes.map(\.summary) == ["Link discarded by rule no trackers"])
        #expect(try harness.outcomes(of: "https://tracker.example/p") == ["done"])
        #expect(harness.browser.records().isEmpty)
    }

    @Test func aBrokenConfigAtStartSaysBuiltInDefaults() throws {
        let (harness, server) = try harness("brokenstart", config: "[default]\nopen = 42\n")
        let reply = try harness.call("Open", [.string("https://example.org/d"), .vardict([:])])
        #expect(reply.first?.dictionary?["decision"]?.string == "system")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/d"]])
        let notes = try shown(server, count: 1)
        #expect(notes.map(\.summary) == ["openurld: config error, using built-in defaults"], "\(notes.map(\.summary))")
        #expect(notes.first?.body.contains("config.toml:2:") == true, "\(notes.first?.body ?? "")")
        #expect(!harness.bus.log.contains("previous rules stay"), "\(harness.bus.log)")
    }

    @Test func theLogKeepsNoCopiedTextOrMailBodies() throws {
        let (harness, server) = try harness("privacy")
        let secret = "mailto:who@example.org?subject=SecretSubject&body=SecretBody"
        #expect(try harness.run([harness.openurl, secret]).status == 0)
        #expect(eventually { (try? harness.run(["xclip", "-o", "-selection", "clipboard"]).stdout) == "who@example.org" })
        _ = try shown(server, count: 1)
        let log = harness.bus.log
        #expect(log.contains("copied with xclip"), "\(log)")
        #expect(!log.contains("SecretBody") && !log.contains("SecretSubject"), "\(log)")
        #expect(!log.contains("copied with xclip: who@example.org"), "\(log)")
    }

    /// A hung notification server never holds up a click: the copy is confirmed without waiting,
    /// so the daemon answers `openurl` in time and nothing is routed twice.
    @Test func aStoppedNotificationServerDoesNotHoldUpTheClick() throws {
        let (harness, server) = try harness("hungserver")
        _ = try harness.call("Explain", [.string("https://example.org/"), .vardict([:])])
        let dunst = pid_t(try harness.connect().processID(of: "org.freedesktop.Notifications"))
        #expect(kill(dunst, SIGSTOP) == 0)
        let result = try harness.run([harness.openurl, "-v", "mailto:held@example.org"], timeout: 30)
        #expect(kill(dunst, SIGCONT) == 0)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("by openurld"), "\(result.stderr)")
        #expect(eventually { (try? harness.run(["xclip", "-o", "-selection", "clipboard"]).stdout) == "held@example.org" })
        let notes = try shown(server, count: 1)
        #expect(notes.map(\.summary) == ["Copied address"], "\(notes.map(\.summary))")
    }

    /// Repeated failures replace their notification instead of piling up.
    @Test func repeatedFailuresReplaceOneNotification() throws {
        let (harness, _) = try harness("replaceid")
        for path in ["a", "b", "c"] {
            #expect(try harness.run([harness.openurl, "https://broken.example/\(path)"]).status == 4)
        }
        // Each Notify is answered before the next click's: by now all three have been shown.
        #expect(eventually(timeout: 5) {
            (try? harness.run(["dunstctl", "count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == "1"
        }, "\((try? harness.run(["dunstctl", "count", "displayed"]))?.description ?? "")")
        // A negative about dunst (no second notification is on its way): given this long to show.
        usleep(300_000)
        let displayed = try harness.run(["dunstctl", "count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let waiting = try harness.run(["dunstctl", "count", "waiting"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(displayed == "1" && waiting == "0", "displayed \(displayed), waiting \(waiting)")
    }

    /// openurl's own notifications (not a URL; embedded mode's refusals) are escaped once too.
    @Test(arguments: [false, true])
    func theClientsOwnNotificationsAreEscapedOnce(embedded: Bool) throws {
        let (harness, server) = try harness(embedded ? "clientescape-embedded" : "clientescape")
        if embedded { try FileManager.default.removeItem(atPath: harness.bus.serviceDirectory + "/\(DaemonHarness.busName).service") }
        let hostile = embedded ? "gopher://x.org/<a href='https://evil.example'>click</a>" : "1x:<a href='https://evil.example'>click</a>"
        let result = try harness.run([harness.openurl, hostile])
        #expect(result.status != 0, "\(result)")
        let notes = try shown(server, count: 1)
        #expect(notes.count == 1, "\(notes.map(\.summary))")
        let body = notes.first?.body ?? ""
        #expect(body.contains("&lt;a href="), "\(body)")
        #expect(!body.contains("<a "), "\(body)")
        #expect(!body.contains("&amp;lt;"), "escaped twice: \(body)")
    }
}

extension NotificationTruthTests {
    /// A target that fails at the click (uninstalled or broken since the config loaded) offers
    /// what a target missing at load offers (issue 36, case 5): a button per installed app, and
    /// the one picked opens the link under the click's own entry in `recent`.
    @Test func aFailedLaunchOffersTheInstalledApps() throws {
        let (harness, server) = try harness("launchoffer")
        let result = try harness.run([harness.openurl, "https://broken.example/offer"])
        #expect(result.status == 4, "\(result)")
        let offered = eventually(timeout: 10) { (try? server.displayedCount()) ?? 0 >= 1 }
        #expect(offered)
        // The recording browser is also the handler from before openurld: its button is `system`.
        try server.chooseAction(key: "system")
        #expect(harness.browser.waitForRecords(1) == [["https://broken.example/offer"]], "\(server.lastMenu)")
        #expect(server.lastMenu.contains { $0.contains("Recording Browser") && $0.contains("Could not open link in Broken App") }, "\(server.lastMenu)")
        let settled = eventually(timeout: 10) { (try? harness.outcomes(of: "https://broken.example/offer")) == ["done"] }
        #expect(settled, "\((try? harness.outcomes(of: "https://broken.example/offer")) ?? [])")
    }
}

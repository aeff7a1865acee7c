import RouterContract
import DBus
import Foundation
import TestSupport
import Testing

/// Issue 10: every click ends somewhere visible — opened once, or a notification saying why —
/// on sessions that go wrong in ordinary ways, and `recent` records what really happened.
@Suite(.serialized) struct VisibleOutcomeTests {
    static let config = """
        [settings]
        clipboard = "xclip"

        [default]
        open = "browser.desktop"

        [[rules]]
        name = "copy mail"
        match.scheme = "mailto"
        copy = true
        """

    /// The outcome `Recent` reports for the newest entry with `finalURL`.
    func recentOutcome(_ harness: DaemonHarness, _ finalURL: String) throws -> String? {
        let entries = try harness.call("Recent", [.uint32(0)]).first?.array ?? []
        return entries.compactMap(\.dictionary).first { $0["final_url"]?.string == finalURL }?["outcome"]?.string
    }

    /// Case 5: a stopped daemon costs a click at most the client's timeout, the link opens in-process
    /// once, and the daemon, resumed, drops the call whose client gave up.
    @Test func aStoppedDaemonDoesNotOpenTheLinkTwice() throws {
        let harness = try DaemonHarness(config: Self.config, name: "stopped")
        _ = try harness.call("Explain", [.string("https://example.org/"), .vardict([:])])
        let pid = pid_t(try harness.daemonPID())
        #expect(kill(pid, SIGSTOP) == 0)
        let url = "https://example.org/while-stopped"
        let result = try harness.run([harness.openurl, url], timeout: 30)
        #expect(kill(pid, SIGCONT) == 0)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("did not answer within 2 s; routing in-process"), "\(result.stderr)")
        #expect(harness.browser.waitForRecords(1) == [[url]])
        // Calls are handled in order: once this one is answered, the stale Open has been seen.
        _ = try harness.call("Explain", [.string("https://example.org/"), .vardict([:])])
        #expect(try recentOutcome(harness, url) == "abandoned")
        // openurl-tool was told not to ask again: the daemon saw the link once.
        let seen = try harness.call("Recent", [.uint32(0)]).first?.array?.compactMap(\.dictionary).filter { $0["final_url"]?.string == url }
        #expect(seen?.count == 1, "\(seen ?? [])")
        #expect(harness.bus.log.contains("past its deadline (the client gave up and routed it in-process): \(url)"), "\(harness.bus.log)")
        // The daemon's record says it dropped the call, so the one launch is the client's.
        #expect(harness.browser.records() == [[url]], "the resumed daemon opened the link again")
    }

    /// A daemon that starts slower than the deadline answers "abandoned" (or not in time): either
    /// way `openurl` routes the link itself, and it arrives once.
    @Test func aSlowlyStartingDaemonStillOpensTheLinkOnce() throws {
        let harness = try DaemonHarness(config: Self.config, name: "slowstart")
        try harness.bus.addService(name: DaemonHarness.busName, exec: ["/bin/sh", "-c", "sleep 1.7; exec \"$0\"", harness.openurld])
        let url = "https://example.org/slow"
        let result = try harness.run([harness.openurl, url], timeout: 30)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("routing in-process"), "\(result.stderr)")
        #expect(harness.browser.waitForRecords(1) == [[url]])
        #expect(try eventually(timeout: 10) { try recentOutcome(harness, url) == "abandoned" })
        #expect(try harness.outcomes(of: url) == ["abandoned"], "the daemon carried it out too")
        #expect(harness.browser.records() == [[url]])
    }

    /// The daemon honours the deadline of any caller, not only `openurl`'s timing.
    @Test func aCallPastItsDeadlineIsDroppedAndRecorded() throws {
        let harness = try DaemonHarness(config: Self.config, name: "deadline")
        let url = "https://example.org/late"
        let reply = try harness.call("Open", [.string(url), .vardict(["deadline": .uint64(ClickDeadline.now() - 1)])])
        #expect(reply.first?.dictionary?["outcome"]?.string == "abandoned")
        let onTime = try harness.call("Open", [.string(url + "2"), .vardict(["deadline": .uint64(ClickDeadline.now() + 60_000_000)])])
        #expect(onTime.first?.dictionary?["outcome"]?.string == "done")
        #expect(harness.browser.waitForRecords(1) == [[url + "2"]])
        #expect(try harness.outcomes(of: url) == ["abandoned"])
        #expect(try harness.outcomes(of: url + "2") == ["done"])
        #expect(harness.browser.records().count == 1)
    }

    /// Case 1, `openurl`: the daemon was activated without a display; the client's goes with the click.
    @Test func aDaemonWithoutADisplayLaunchesOnTheClientsDisplay() throws {
        let harness = try DaemonHarness(config: Self.config, name: "nodisplay", activationHasDisplay: false)
        _ = try harness.call("Explain", [.string("https://example.org/"), .vardict([:])])
        let environ = try #require(FileManager.default.contents(atPath: "/proc/\(try harness.daemonPID())/environ"))
        #expect(!environ.split(separator: 0).contains { $0.starts(with: Array("DISPLAY=".utf8)) }, "the daemon was started with a display")
        let result = try harness.run([harness.openurl, "https://example.org/shown"], extra: ["DISPLAY": ":42"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/shown"]])
        #expect(harness.browser.displays().map(\.x11) == [":42"])
    }

    /// A session that exports its display to the bus (`dbus-update-activation-environment`)
    /// gives the daemon its own, which it prefers.
    @Test func anUpdatedActivationEnvironmentGivesTheDaemonItsDisplay() throws {
        let harness = try DaemonHarness(config: Self.config, name: "updatedenv", activationHasDisplay: false)
        let update = try harness.run(["dbus-update-activation-environment", "DISPLAY=:44"])
        #expect(update.status == 0, "\(update)")
        let result = try harness.run([harness.openurl, "https://example.org/own"], extra: ["DISPLAY": ":42"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/own"]])
        #expect(harness.browser.displays().map(\.x11) == [":44"])
    }

    /// A daemon with only an X display gets the click's Wayland display added, its own kept.
    @Test func theClickFillsInWhatTheDaemonLacks() throws {
        let harness = try DaemonHarness(config: Self.config, name: "fillin")
        let result = try harness.run([harness.openurl, "https://example.org/fill"], extra: ["DISPLAY": ":46", "WAYLAND_DISPLAY": "wayland-46"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/fill"]])
        #expect(harness.browser.displays().map { "\($0.x11) \($0.wayland)" } == [":99 wayland-46"])
    }

    /// Case 1, asking: the picker (like the chooser window) runs on the click's display.
    @Test func aDaemonWithoutADisplayAsksOnTheClientsDisplay() throws {
        let harness = try DaemonHarness(name: "nodisplayask", activationHasDisplay: false)
        let seen = harness.desktop.root + "/picker-display"
        let picker = harness.desktop.root + "/picker.sh"
        // A dmenu stand-in: notes its display, then picks the line "Recording Browser (default
        // browser)" (the entry that is also what `system` opens is named so; issue 21, case 6).
        try "#!/bin/sh\necho \"$DISPLAY\" > '\(seen)'\ngrep '^Recording Browser'\n".write(toFile: picker, atomically: true, encoding: .utf8)
        chmod(picker, 0o755)
        try harness.writeConfig("""
            [settings]
            ask_with = "picker"
            picker = ["\(picker)"]

            [[rules]]
            match.domain = "ask.example"
            ask = ["work.desktop", "browser.desktop"]
            """)
        let result = try harness.run([harness.openurl, "https://ask.example/where"], extra: ["DISPLAY": ":48"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["https://ask.example/where"]])
        #expect((try? String(contentsOfFile: seen, encoding: .utf8)) == ":48\n")
        #expect(harness.browser.displays().map(\.x11) == [":48"])
        #expect(try eventually { try recentOutcome(harness, "https://ask.example/where") == "done" })
    }

    /// Case 1, GIO apps: `org.freedesktop.Application.Open` carries no environment; the daemon
    /// takes the calling app's display.
    @Test func applicationOpenCallersLendTheirDisplay() throws {
        let harness = try DaemonHarness(config: Self.config, name: "giodisplay", activationHasDisplay: false)
        let result = try harness.run(["gdbus", "call", "--session", "--dest", DaemonHarness.busName, "--object-path", DaemonHarness.path,
                                      "--method", "org.freedesktop.Application.Open", "['https://example.org/gio']", "{}"],
                                     extra: ["DISPLAY": ":43"])
        #expect(result.status == 0, "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/gio"]])
        #expect(harness.browser.displays().map(\.x11) == [":43"])
    }

    /// Case 1, systemd sessions: the user manager's environment (`systemctl --user
    /// import-environment`) comes before the caller's.
    @Test func theSystemdUserEnvironmentLendsItsDisplay() throws {
        let harness = try DaemonHarness(config: Self.config, name: "systemdenv", activationHasDisplay: false)
        let systemd = try FakeSystemdManager(bus: harness.bus, environment: ["HOME=/x", "DISPLAY=:45", "XAUTHORITY=/x/.Xauthority"])
        defer { systemd.stop() }
        let result = try harness.run(["gdbus", "call", "--session", "--dest", DaemonHarness.busName, "--object-path", DaemonHarness.path,
                                      "--method", "org.freedesktop.Application.Open", "['https://example.org/systemd']", "{}"],
                                     extra: ["DISPLAY": ""])
        #expect(result.status == 0, "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/systemd"]])
        #expect(harness.browser.displays().map(\.x11) == [":45"])
    }

    /// Case 1, copy: with Xvfb only in the client's environment, xclip still copies for real.
    @Test func aDaemonWithoutADisplayCopiesOnTheClientsDisplay() throws {
        let harness = try DaemonHarness(config: Self.config, name: "nodisplaycopy", withDesktopSession: true, activationHasDisplay: false)
        let server = try #require(harness.notifications)
        let result = try harness.run([harness.openurl, "mailto:someone@example.org"])
        #expect(result.status == 0, "\(result)")
        #expect(eventually { (try? harness.run(["xclip", "-o", "-selection", "clipboard"]).stdout) == "someone@example.org" })
        try server.closeAll()
        let history = try server.waitForHistory { $0.contains { $0.appName == "openurld" } }
        #expect(history.contains { $0.summary == "Copied address" }, "\(history)")
        #expect(try recentOutcome(harness, "mailto:someone@example.org") == "done")
    }

    /// Case 4: no daemon and a broken config: the link still opens (built-in defaults: the
    /// previous handler) and a notification names the error.
    @Test func embeddedModeWithABrokenConfigUsesTheDefaultsAndSaysSo() throws {
        let harness = try DaemonHarness(config: "[[rules]]\nopne = \"x\"\n", name: "brokenembedded", withDesktopSession: true)
        let server = try #require(harness.notifications)
        try FileManager.default.removeItem(atPath: harness.bus.serviceDirectory + "/\(DaemonHarness.busName).service")
        let result = try harness.run([harness.openurl, "https://example.org/broken"])
        #expect(result.stderr.contains("using built-in defaults"), "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/broken"]])
        try server.closeAll()
        let history = try server.waitForHistory { $0.contains { $0.summary.contains("using built-in defaults") } }
        let entry = try #require(history.first { $0.summary.contains("using built-in defaults") })
        #expect(entry.body.contains("config.toml:2:1: unknown key"), "\(entry.body)")
    }
}

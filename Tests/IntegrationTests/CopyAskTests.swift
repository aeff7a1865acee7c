import DBus
import Foundation
import TestSupport
import Testing

/// Copy, notify and ask through the daemon, with Xvfb, dunst and xclip for real.
@Suite(.serialized) struct CopyAskTests {
    static let config = """
        [settings]
        clipboard = "xclip"

        [default]
        open = "browser.desktop"

        [[rules]]
        name = "ask"
        match.domain = "ask.example"
        ask = ["browser.desktop", "work.desktop", "copy"]

        [[rules]]
        name = "copy mail"
        match.scheme = "mailto"
        copy = true
        """

    /// The same config asking through notification buttons rather than the chooser window.
    static let notificationConfig = config.replacingOccurrences(of: "clipboard = \"xclip\"", with: "clipboard = \"xclip\"\nask_with = \"notification\"")

    func clipboard(_ harness: DaemonHarness) throws -> String {
        try harness.run(["xclip", "-o", "-selection", "clipboard"]).stdout
    }

    @Test func copyLeavesTheAddressOnTheClipboardAndNotifies() throws {
        let harness = try DaemonHarness(config: Self.config, name: "copy", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let result = try harness.run([harness.openurl, "copy", "mailto:a@example.org?subject=Hi"])
        #expect(result.status == 0, "\(result)")
        #expect(eventually { (try? clipboard(harness)) == "a@example.org" })
        let history = try server.closeIntoHistory { $0.contains { $0.appName == "openurld" } }
        let entry = try #require(history.first { $0.appName == "openurld" })
        #expect(entry.summary == "Copied address")
        #expect(entry.body.contains("a@example.org"))
    }

    @Test func aCopyRuleCopiesRecipientsAndEscapesMarkup() throws {
        let harness = try DaemonHarness(config: Self.config, name: "copyrule", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let result = try harness.run([harness.openurl, "mailto:%3Cb%3Ebob%3C/b%3E%20%26@x.org,c@y.org"])
        #expect(result.status == 0, "\(result)")
        #expect(eventually { (try? clipboard(harness)) == "<b>bob</b> &@x.org, c@y.org" })
        let history = try server.closeIntoHistory { $0.contains { $0.appName == "openurld" } }
        let body = try #require(history.first { $0.appName == "openurld" }?.body)
        #expect(body.contains("&lt;b&gt;bob&lt;/b&gt; &amp;"), "\(body)")
        #expect(!body.contains("<b>"))
    }

    @Test func anAskNotificationActionLaunchesTheChoice() throws {
        let harness = try DaemonHarness(config: Self.notificationConfig, name: "ask", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let reply = try harness.call("Open", [.string("https://ask.example/page"), .vardict([:])])
        #expect(reply.first?.dictionary?["decision"]?.string == "ask")
        #expect(reply.first?.dictionary?["outcome"]?.string == "asking")
        #expect(reply.first?.dictionary?["choices"]?.stringArray == ["browser.desktop", "work.desktop", "copy"])
        // dunst's context menu lists the actions with our labels; pick "Work Browser".
        var chosen = false
        #expect(eventually(timeout: 5) {
            if !chosen, (try? server.chooseAction(key: "work.desktop")) != nil { chosen = server.lastMenu.contains { $0.contains("Work Browser") } }
            return chosen
        }, "menu: \(server.lastMenu)")
        #expect(harness.browser.waitForRecords(1) == [["--work", "https://ask.example/page"]])
        let recent = try harness.call("Recent", [.uint32(1)]).first?.array?.first?.dictionary
        #expect(recent?["target"]?.string == "work.desktop")
    }

    @Test func closingTheAskDoesNothingButTheLinkIsInRecent() throws {
        let harness = try DaemonHarness(config: Self.notificationConfig, name: "askclose", withDesktopSession: true)
        let server = try #require(harness.notifications)
        _ = try harness.call("Open", [.string("https://ask.example/closed"), .vardict([:])])
        #expect(eventually { (try? harness.run(["dunstctl", "count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == "1" })
        try server.closeAll()
        #expect(try harness.settledOutcomes(of: "https://ask.example/closed") == ["cancelled"])
        #expect(harness.browser.records().isEmpty)
    }

    @Test func aPickerChoosesWhenConfigured() throws {
        let harness = try DaemonHarness(name: "picker", withDesktopSession: true)
        let script = harness.desktop.root + "/picker.sh"
        // Prints the second line offered: the work browser.
        try "#!/bin/sh\nsed -n 2p\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        try harness.writeConfig("[settings]\npicker = [\"\(script)\"]\n" + Self.config.replacingOccurrences(of: "[settings]\n", with: "[misc]\n")
            .replacingOccurrences(of: "[misc]\nclipboard = \"xclip\"\n", with: ""))
        _ = try harness.call("Open", [.string("https://ask.example/picked"), .vardict([:])])
        #expect(harness.browser.waitForRecords(1) == [["--work", "https://ask.example/picked"]])
    }

    @Test func copyWorksWithoutANotificationServer() throws {
        let harness = try DaemonHarness(config: Self.config, name: "noserver", withDesktopSession: true)
        try #require(harness.notifications).stop()
        let connection = try harness.connect()
        #expect(try eventually { try !connection.nameHasOwner("org.freedesktop.Notifications") })
        let result = try harness.run([harness.openurl, "copy", "https://example.org/c"])
        #expect(result.status == 0, "\(result)")
        #expect(eventually { (try? clipboard(harness)) == "https://example.org/c" })
    }
}

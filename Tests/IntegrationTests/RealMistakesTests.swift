import DBus
import Foundation
import TestSupport
import Testing

/// Issue 21 against the real daemon, with the recording browser: a config naming apps that are
/// not installed (case 2), remembered answers and where they live (case 3), the "config not
/// reloaded" notification closed by a good reload (case 5), `openurl reopen` bringing the
/// caller's display (case 8), and the smaller items (case 10).
@Suite(.serialized) struct RealMistakesTests {
    static let missing = """
        [settings]
        clipboard = "xclip"

        [[rules]]
        match.domain = "work.example"
        open = "brave:Work"

        [[rules]]
        match.domain = "chat.example"
        open = "google-chrome.desktop"

        [[rules]]
        match.domain = "paste.example"
        copy = true

        [default]
        open = "browser.desktop"
        """

    @Test func aMissingAppLeavesTheRestOfTheConfigAndItsLinksEndVisibly() throws {
        let harness = try DaemonHarness(config: Self.missing, name: "missingapps", withDesktopSession: true)
        let server = try #require(harness.notifications)
        // check names each missing app where it is written, with what is installed, and fails.
        let check = try harness.run([harness.openurl, "check"])
        #expect(check.status == 3, "\(check)")
        #expect(check.stderr.contains("\(harness.configPath):6:8: unknown browser \"brave\""), "\(check.stderr)")
        #expect(check.stderr.contains("\(harness.configPath):10:8: google-chrome.desktop is not installed (installed browsers: browser.desktop"), "\(check.stderr)")

        // The daemon loads the rest: the copy rule still copies.
        let copy = try harness.call("Open", [.string("https://paste.example/p"), .vardict([:])]).first?.dictionary ?? [:]
        #expect(copy["decision"]?.string == "copy", "\(copy)")
        let error = try harness.call("Get", [.string(DaemonHarness.interface), .string("ConfigError")], interface: "org.freedesktop.DBus.Properties")
        #expect(error.first?.string == "", "\(error)")
        // It said once which targets are missing.
        #expect(eventually { harness.bus.log.contains("not installed, links to them are refused with a notification: \(harness.configPath):6:8") }, "\(harness.bus.log)")

        // A link for a missing app: refused, with a notification offering the previous handler
        // (here the recording browser, by its Name) and the installed browsers; recent says so.
        let url = "https://work.example/report"
        let reply = try harness.call("Open", [.string(url), .vardict([:])]).first?.dictionary ?? [:]
        #expect(reply["outcome"]?.string?.hasPrefix("failed: unknown browser \"brave\"") == true, "\(reply)")
        var chosen = false
        #expect(eventually(timeout: 10) {
            if !chosen, (try? server.chooseAction(key: "system")) != nil { chosen = server.lastMenu.contains { $0.contains("Recording Browser (default browser)") } }
            return chosen
        }, "menu: \(server.lastMenu)")
        #expect(server.lastMenu.contains { $0.contains("Link not opened: brave:Work is not installed") }, "\(server.lastMenu)")
        #expect(harness.browser.waitForRecords(1) == [[url]])
        #expect(eventually { (try? harness.outcomes(of: url)) == ["done"] }, "\((try? harness.outcomes(of: url)) ?? [])")

        // The notification title names an entry that is not installed by its id, never "Google-chrome".
        _ = try harness.call("Open", [.string("https://chat.example/"), .vardict([:])])
        try server.closeAll()
        let history = try server.waitForHistory { $0.contains { $0.summary.contains("google-chrome.desktop") } }
        #expect(history.contains { $0.summary == "Link not opened: google-chrome.desktop is not installed" }, "\(history.map(\.summary))")
        #expect(!history.contains { $0.summary.contains("Google-chrome") })

        // recent: a long outcome is cut, so the URL stays in view (case 10).
        let recent = try harness.run([harness.openurl, "recent"])
        let line = try #require(recent.stdout.split(separator: "\n").first { $0.hasSuffix("https://chat.example/") }, "\(recent.stdout)")
        #expect(line.contains("…"), "\(line)")
        #expect(line.count - "https://chat.example/".count < 140, "the URL starts at column \(line.count - "https://chat.example/".count): \(line)")
    }

    @Test func embeddedModeRoutesTheRestAndSaysWhyForAMissingApp() throws {
        let harness = try DaemonHarness(config: Self.missing, name: "missingembedded")
        let tool = try BuiltProduct.path("openurl-tool")
        let kept = try harness.run([tool, "--no-daemon", "https://elsewhere.example/"])
        #expect(kept.status == 0, "\(kept)")
        #expect(harness.browser.waitForRecords(1) == [["https://elsewhere.example/"]], "the rest of the config was not used")
        let missing = try harness.run([tool, "--no-daemon", "https://work.example/"])
        #expect(missing.status == 4, "\(missing)")
        #expect(missing.stderr.contains("https://work.example/: unknown browser \"brave\""), "\(missing.stderr)")
        #expect(harness.browser.records().count == 1)
    }

    @Test func rulesAndTestShowWhichRememberedAnswerAppliedAndWhereItLives() throws {
        let config = """
            [[rules]]
            name = "paste"
            match.domain = "paste.example.org"
            copy = true

            [[rules]]
            name = "ask"
            match.domain = "example.org"
            ask = ["browser.desktop", "work.desktop", "copy"]
            """
        let harness = try DaemonHarness(config: config, name: "rememberedwhere")
        let remembered = harness.desktop.configHome + "/openurld/remembered.toml"
        try "[[rules]]\nname = \"Remembered: example.org\"\nmatch.domain = \"example.org\"\nopen = \"work.desktop\"\n"
            .write(toFile: remembered, atomically: true, encoding: .utf8)
        // Another rule is not shadowed; the question is answered.
        let paste = try harness.run([harness.openurl, "test", "--json", "https://paste.example.org/x"])
        #expect(paste.stdout.contains("\"decision\":\"copy\""), "\(paste)")
        let news = try harness.run([harness.openurl, "test", "--json", "https://news.example.org/x"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(news.stdout.utf8)) as? [String: Any])
        #expect(object["rule"] as? String == "Remembered: example.org")
        let step = (object["trace"] as? [[String: Any]])?.first { $0["step"] as? String == "remembered" } ?? [:]
        #expect(step["step"] as? String == "remembered" && step["location"] as? String == "\(remembered):1" && step["asked"] as? String == "ask", "\(step)")
        let rules = try harness.run([harness.openurl, "rules"])
        #expect(rules.stdout.hasPrefix("remembered\ton \tRemembered: example.org\topen work.desktop\tremembered \(remembered):1"), "\(rules.stdout)")
        #expect(rules.stdout.contains("\n1\ton \tpaste\tcopy"), "\(rules.stdout)")
    }

    @Test func aGoodReloadClosesTheConfigNotReloadedNotification() throws {
        let harness = try DaemonHarness(config: TestConfig().text, name: "reloadclose", withDesktopSession: true)
        _ = try harness.call("Explain", [.string("https://example.org/"), .vardict([:])])
        let displayed = { Int((try? harness.run(["dunstctl", "count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? "") ?? -1 }
        try harness.writeConfig("[default]\nopne = \"browser.desktop\"\n")
        #expect(eventually(timeout: 10) { displayed() == 1 }, "no config error notification")
        // One log line per problem, saying what it is about (case 10).
        #expect(eventually { harness.bus.log.contains("config not reloaded, the previous rules stay in use: \(harness.configPath):2:1: unknown key \"opne\"") },
                "\(harness.bus.log)")
        try harness.writeConfig(TestConfig().text)
        #expect(eventually(timeout: 10) { displayed() == 0 }, "the config error stayed on screen after a good reload")
        let history = try #require(harness.notifications).waitForHistory { $0.contains { $0.summary == "openurld: config not reloaded" } }
        #expect(history.contains { $0.summary == "openurld: config not reloaded" })
    }

    @Test func reopenBringsTheCallersDisplaySoAnAskShowsItsWindow() throws {
        let config = "[[rules]]\nname = \"ask\"\nmatch.domain = \"ask.example\"\nask = [\"browser.desktop\", \"work.desktop\", \"copy\"]\n"
        let harness = try DaemonHarness(config: config, name: "reopendisplay", withDesktopSession: true, activationHasDisplay: false)
        let server = try #require(harness.notifications)
        // A click from a process without a display: the daemon (which has none) asks by notification.
        let url = "https://ask.example/later"
        let first = try harness.run(["gdbus", "call", "--session", "--dest", DaemonHarness.busName, "--object-path", DaemonHarness.path,
                                     "--method", "\(DaemonHarness.interface).Open", url, "{}"], extra: ["DISPLAY": ""])
        #expect(first.status == 0, "\(first)")
        #expect(eventually(timeout: 10) { (try? server.history()) != nil && (try? harness.run(["dunstctl", "count", "displayed"]).stdout.hasPrefix("1")) == true })
        try server.closeAll()
        #expect(try harness.settledOutcomes(of: url) == ["cancelled"])
        let id = try #require(try harness.call("Recent", [.uint32(1)]).first?.array?.first?.dictionary?["id"]?.uint32)
        // openurl reopen, run with a display, brings it: the window asks there.
        let reopen = try harness.run([harness.openurl, "reopen", "\(id)"])
        #expect(reopen.status == 0, "\(reopen)")
        let chooser = ChooserTests()
        let window = try #require(try chooser.chooserWindow(harness), "reopen asked without a window (the caller's display was not sent): \(reopen) \(harness.bus.log.suffix(3000)) \((try? harness.outcomes(of: url)) ?? [])")
        try chooser.press(harness, window, "2")
        #expect(harness.browser.waitForRecords(1) == [["--work", url]])
    }

    @Test func aSecondInstallChangesNothingAndSaysSo() throws {
        let harness = try DaemonHarness(name: "installtwice")
        let entry = try String(contentsOfFile: HandlerTests.packageRoot + "/desktop/io.github.openurld.desktop", encoding: .utf8)
            .replacingOccurrences(of: "Exec=openurl %u", with: "Exec=\(harness.openurl) %u")
        try harness.desktop.writeDesktopEntry(id: "io.github.openurld.desktop", contents: entry)
        let first = try harness.run([harness.openurl, "install"])
        #expect(first.status == 0 && first.stdout.contains("  changed \(harness.desktop.configHome)/mimeapps.list"), "\(first)")
        let second = try harness.run([harness.openurl, "install"])
        #expect(second.status == 0, "\(second)")
        #expect(!second.stdout.contains("changed "), "\(second.stdout)")
        #expect(second.stdout.contains("nothing to change"), "\(second.stdout)")
    }

    @Test func theCopyNotificationsOpenIsRecordedInRecent() throws {
        let harness = try DaemonHarness(config: "[settings]\nclipboard = \"xclip\"\n[default]\nopen = \"browser.desktop\"\n[[rules]]\nmatch.domain = \"copy.example\"\ncopy = true\n",
                                        name: "copyopen", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let url = "https://copy.example/page"
        #expect(try harness.call("Open", [.string(url), .vardict([:])]).first?.dictionary?["decision"]?.string == "copy")
        var chosen = false
        #expect(eventually(timeout: 10) {
            if !chosen, (try? server.chooseAction(key: "open")) != nil { chosen = server.lastMenu.contains { $0.contains("Copied link") } }
            return chosen
        }, "menu: \(server.lastMenu)")
        #expect(harness.browser.waitForRecords(1) == [[url]])
        let entries = try harness.call("Recent", [.uint32(0)]).first?.array?.compactMap(\.dictionary) ?? []
        #expect(eventually {
            let now = (try? harness.call("Recent", [.uint32(0)]).first?.array?.compactMap(\.dictionary)) ?? []
            return now.contains { $0["final_url"]?.string == url && $0["decision"]?.string == "open" && $0["target"]?.string == "browser.desktop" && $0["outcome"]?.string == "done" }
        }, "\(entries)")
    }
}

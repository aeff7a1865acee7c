import DBus
import Foundation
import TestSupport
import Testing

/// Issue 35: the settings window for real (GTK 4 under Xvfb, no window manager), on a private bus
/// with the real daemon, driven with xdotool. What the window shows is read from its `--report`
/// file, which it writes from its widgets (label texts, switch states) after each change.
@Suite(.serialized) struct SettingsWindowTests {
    /// A running `openurl-settings` and its X window.
    final class Window {
        let harness: DaemonHarness
        let child: ChildProcess
        let report: String
        let id: String

        init(_ harness: DaemonHarness, page: String = "rules") throws {
            self.harness = harness
            let report = harness.desktop.root + "/settings-report.json"
            self.report = report
            try? FileManager.default.removeItem(atPath: report)
            child = try ChildProcess([try BuiltProduct.path("openurl-settings"), "--page", page, "--report", report],
                                     environment: harness.environment, captureOutput: false)
            var found: String?
            _ = eventually(timeout: 20) {
                let result = try? harness.run(["xdotool", "search", "--onlyvisible", "--name", "^Link routing"])
                found = result?.stdout.split(separator: "\n").first.map(String.init)
                return found != nil && FileManager.default.fileExists(atPath: report)
            }
            guard let found else { throw HarnessError("the settings window did not appear within 20 s") }
            id = found
        }

        deinit { _ = child.terminate(grace: 1) }

        /// The last report, parsed.
        var shown: [String: Any] {
            guard let data = FileManager.default.contents(atPath: report),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
            return object
        }

        var rules: [[String: Any]] { shown["rules"] as? [[String: Any]] ?? [] }
        var status: String { shown["status"] as? String ?? "" }

        /// Focuses the window and presses `keys` (xdotool key names).
        func press(_ keys: String...) throws {
            let result = try harness.run(["xdotool", "windowfocus", "--sync", id, "key", "--delay", "60"] + keys)
            #expect(result.status == 0, "\(result)")
        }

        /// Waits for the Try page to show a decision for `url`, and returns what it shows.
        func tried(_ url: String) -> [String: Any] {
            var shown: [String: Any] = [:]
            #expect(eventually(timeout: 10) {
                shown = self.shown["try"] as? [String: Any] ?? [:]
                return shown["link"] as? String == url && shown["decision"] is String
            }, "\(self.shown)")
            return shown
        }

        /// Focuses the window and types `text`.
        func type(_ text: String) throws {
            let result = try harness.run(["xdotool", "windowfocus", "--sync", id, "type", "--delay", "20", text])
            #expect(result.status == 0, "\(result)")
        }
    }

    static let system = """
        [[rules]]
        name = "Intranet"
        match.domain = "intranet.example"
        open = "work.desktop"
        locked = true
        """

    static let user = """
        # my own comments stay
        [default]
        open = "browser.desktop"

        [[rules]]
        name = "Mine"
        match.host = "docs.example.org"
        open = "work.desktop"

        [[rules]]
        name = "Paste"
        match.domain = "paste.example"
        copy = true
        """

    static func harness(_ name: String, config: String = user, system: String? = system) throws -> DaemonHarness {
        for tool in ["xdotool"] where (try? Command.run(["sh", "-c", "command -v \(tool)"], environment: ProcessInfo.processInfo.environment))?.status != 0 {
            throw HarnessError("\(tool) is not installed (Debian package \(tool)); the settings window tests need it")
        }
        let harness = try DaemonHarness(config: config, name: name, withDesktopSession: true)
        if let system {
            let folder = harness.desktop.root + "/etc-xdg/openurld"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try system.write(toFile: folder + "/config.toml", atomically: true, encoding: .utf8)
        }
        return harness
    }

    @Test func theLockedSystemRuleIsShownLockedAndRefusesItsSwitch() throws {
        let harness = try Self.harness("settingslocked")
        _ = try harness.call("Open", [.string("https://paste.example/abc"), .vardict(pairs: [])])
        let window = try Window(harness)
        #expect(eventually(timeout: 10) { window.rules.count == 3 }, "\(window.shown)")
        let rules = window.rules
        #expect(rules.map { $0["name"] as? String } == ["Intranet", "Mine", "Paste"])
        #expect(rules.map { $0["group"] as? String } == ["locked", "user", "user"])
        #expect(rules[0]["switchable"] as? Bool == false && rules[0]["on"] as? Bool == true, "\(rules[0])")
        #expect((rules[0]["title"] as? String)?.hasPrefix("🔒") == true && (rules[0]["origin"] as? String)?.contains("locked by the administrator") == true, "\(rules[0])")
        #expect(rules[1]["switchable"] as? Bool == true)
        #expect((rules[1]["origin"] as? String)?.hasSuffix("openurld/config.toml:5") == true, "\(rules[1])")
        #expect(rules[2]["hits"] as? String == "1 hit", "\(rules[2])")

        // The focus starts on the first rule, the locked one: Enter and Space would move its
        // switch, and are refused with the reason; the daemon still has it on.
        try window.press("Return")
        #expect(eventually(timeout: 10) { window.status.contains("locked by the administrator") }, "\(window.status)")
        try window.press("space")
        let described = try #require(try harness.call("DescribeRules").first?.array?.compactMap(\.dictionary))
        #expect(described.first { $0["name"]?.string == "Intranet" }?["enabled"]?.bool == true)
        #expect(window.rules.first?["on"] as? Bool == true)

        // The window fits a 768-pixel-high screen.
        let geometry = try harness.run(["xdotool", "getwindowgeometry", window.id])
        let size = geometry.stdout.split(separator: "\n").first { $0.contains("Geometry:") }?.split(separator: " ").last ?? ""
        let height = Int(size.split(separator: "x").last ?? "") ?? 10_000
        #expect(height <= 768, "\(geometry)")
    }

    @Test func spaceOnAUserRuleTurnsItOffInTheDaemon() throws {
        let harness = try Self.harness("settingstoggle", system: nil)
        let window = try Window(harness)
        #expect(eventually(timeout: 10) { window.rules.count == 2 }, "\(window.shown)")
        try window.press("space")
        #expect(eventually(timeout: 10) {
            let described = (try? harness.call("DescribeRules").first?.array?.compactMap(\.dictionary)) ?? []
            return described.first { $0["name"]?.string == "Mine" }?["enabled"]?.bool == false
        })
        #expect(eventually(timeout: 10) { window.rules.first?["on"] as? Bool == false }, "\(window.rules)")
        #expect(window.status.contains("Turned off Mine"), "\(window.status)")
    }

    /// The decision shown as one types is the one `openurl test --json` prints for the same link.
    @Test(arguments: ["https://docs.example.org/guide", "https://www.paste.example/x?utm_source=mail", "https://elsewhere.example/"])
    func tryingALinkShowsWhatOpenurlTestSays(_ url: String) throws {
        let harness = try Self.harness("settingstry", system: nil)
        let window = try Window(harness, page: "try")
        try window.type(url)
        let shown = window.tried(url)
        let test = try harness.run([try BuiltProduct.path("openurl-tool"), "test", "--json", url])
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(test.stdout.utf8)) as? [String: Any], "\(test)")
        #expect(shown["decision"] as? String == expected["decision"] as? String)
        #expect(shown["target"] as? String == expected["target"] as? String)
        #expect(shown["rule"] as? String == expected["rule"] as? String)
        #expect(shown["verdict"] as? String == (expected["safety"] as? [String: Any])?["verdict"] as? String)
        let text = shown["text"] as? String ?? ""
        #expect(text.contains("decision:  \(expected["decision"] as? String ?? "?")") && text.contains("trace:"), "\(text)")
    }

    /// The network field goes to Explain as the moment's network: the rule that needs it takes
    /// the link, as `openurl test --network` says, and without it the link goes elsewhere.
    @Test func theNetworkFieldDecidesAsOpenurlTestNetworkDoes() throws {
        let config = Self.user + "\n\n[[rules]]\nname = \"Office\"\nmatch.network = \"CorpWiFi\"\nopen = \"work.desktop\"\n"
        let harness = try Self.harness("settingsmoment", config: config, system: nil)
        let window = try Window(harness, page: "try")
        let url = "https://intranet.example/wiki"
        try window.type(url)
        var shown = window.tried(url)
        #expect(shown["rule"] == nil || shown["rule"] is NSNull, "no network given, yet \(shown)")
        try window.press("alt+n")
        try window.type("CorpWiFi")
        #expect(eventually(timeout: 10) {
            shown = window.shown["try"] as? [String: Any] ?? [:]
            return shown["rule"] as? String == "Office"
        }, "\(window.shown)")
        let test = try harness.run([try BuiltProduct.path("openurl-tool"), "test", "--json", "--network", "CorpWiFi", url])
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(test.stdout.utf8)) as? [String: Any], "\(test)")
        #expect(shown["decision"] as? String == expected["decision"] as? String && shown["target"] as? String == expected["target"] as? String
                && expected["rule"] as? String == "Office", "\(shown) vs \(expected)")
    }

    /// "Make a rule…" on a recent click: the block appended to config.toml, every byte before it
    /// kept; `openurl check` accepts the file, and the next click on the domain follows the rule.
    @Test func aRuleMadeFromARecentClickRoutesTheNextOneAndKeepsTheFile() throws {
        let harness = try Self.harness("settingsmake", system: nil)
        let before = try String(contentsOfFile: harness.configPath, encoding: .utf8)
        _ = try harness.call("Open", [.string("https://news.example.net/a/b"), .vardict(pairs: [])])
        #expect(harness.browser.waitForRecords(1) == [["https://news.example.net/a/b"]])
        let window = try Window(harness, page: "recent")
        #expect(eventually(timeout: 10) { ((window.shown["recent"] as? [String: Any])?["clicks"] as? [Any])?.count == 1 }, "\(window.shown)")
        try window.press("alt+k")
        var form: [String: Any] = [:]
        #expect(eventually(timeout: 10) {
            form = (window.shown["recent"] as? [String: Any])?["form"] as? [String: Any] ?? [:]
            return (form["message"] as? String)?.contains("the new rule routes this link") == true
        }, "\(window.shown)")
        #expect(form["match"] as? String == "links to example.net and its subdomains (match.domain)", "\(form)")
        // "Send to" (Alt+S): End picks the last action (Ask …), Up the one before it (Discard),
        // then Up again: Copy.
        try window.press("alt+s", "End", "Up", "Up")
        #expect(eventually(timeout: 10) {
            form = (window.shown["recent"] as? [String: Any])?["form"] as? [String: Any] ?? [:]
            return form["action"] as? String == "Copy it"
        }, "\(window.shown)")
        #expect(form["name"] as? String == "example.net → copy", "\(form)")
        try window.press("alt+v")
        #expect(eventually(timeout: 10) { window.status.contains("Added rule “example.net → copy”") }, "\(window.shown)")

        let after = try String(contentsOfFile: harness.configPath, encoding: .utf8)
        #expect(after.hasPrefix(before), "the file before the new block changed:\n\(after)")
        #expect(String(after.dropFirst(before.count)) == "\n\n[[rules]]\nname = \"example.net → copy\"\nmatch.domain = \"example.net\"\ncopy = true\n"
                || String(after.dropFirst(before.count)) == "\n[[rules]]\nname = \"example.net → copy\"\nmatch.domain = \"example.net\"\ncopy = true\n",
                "\(after.dropFirst(before.count))")
        let check = try harness.run([try BuiltProduct.path("openurl-tool"), "check"])
        #expect(check.status == 0, "\(check)")
        let next = try harness.call("Open", [.string("https://www.example.net/other"), .vardict(pairs: [])]).first?.dictionary ?? [:]
        #expect(next["decision"]?.string == "copy" && next["rule"]?.string == "example.net → copy", "\(next)")
        #expect(eventually(timeout: 10) { (window.rules.last?["name"] as? String) == "example.net → copy" }, "\(window.rules)")
    }

    /// The desktop's light/dark preference, as the real xdg-desktop-portal (GTK backend, reading
    /// GNOME's `color-scheme` from a keyfile GSettings) serves it, is what GTK is asked for.
    @Test(arguments: [("prefer-dark", "dark", true), ("prefer-light", "light", false), ("default", "unknown", false)])
    func theWindowFollowsTheDesktopsColorScheme(_ setting: String, _ scheme: String, _ dark: Bool) throws {
        for program in ["/usr/libexec/xdg-desktop-portal", "/usr/libexec/xdg-desktop-portal-gtk"] where access(program, X_OK) != 0 {
            throw HarnessError("\(program) not found: install xdg-desktop-portal and xdg-desktop-portal-gtk")
        }
        let harness = try DaemonHarness(config: Self.user, name: "settingstheme", withDesktopSession: true,
                                        session: ["XDG_CURRENT_DESKTOP": "GNOME", "GSETTINGS_BACKEND": "keyfile"],
                                        serviceDirectories: ["/usr/share/dbus-1/services"], systemDirectories: true)
        let folder = harness.desktop.configHome + "/glib-2.0/settings"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "[org/gnome/desktop/interface]\ncolor-scheme='\(setting)'\n".write(toFile: folder + "/keyfile", atomically: true, encoding: .utf8)
        // The window does not start a portal for this (it would wait on it): one is running, as on a desktop.
        let read = try harness.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.portal.Desktop", "--object-path", "/org/freedesktop/portal/desktop",
                                    "--method", "org.freedesktop.portal.Settings.Read", "org.freedesktop.appearance", "color-scheme"], timeout: 30)
        #expect(read.status == 0, "\(read)")
        let window = try Window(harness)
        #expect(window.shown["scheme"] as? String == scheme && window.shown["dark"] as? Bool == dark, "\(window.shown)")
    }

    /// Recent's buttons act on the selected click through the daemon: Open again routes it once
    /// more (a second launch), Copy puts it on the clipboard (xclip) and says so.
    @Test func openAgainAndCopyActOnTheSelectedClick() throws {
        let config = "[settings]\nclipboard = \"xclip\"\n\n" + Self.user
        let harness = try Self.harness("settingsrecent", config: config, system: nil)
        let url = "https://docs.example.org/guide?q=1"
        _ = try harness.call("Open", [.string(url), .vardict(pairs: [])])
        #expect(harness.browser.waitForRecords(1) == [["--work", url]])
        let window = try Window(harness, page: "recent")
        #expect(eventually(timeout: 10) { ((window.shown["recent"] as? [String: Any])?["clicks"] as? [Any])?.count == 1 }, "\(window.shown)")
        try window.press("alt+o")
        #expect(harness.browser.waitForRecords(2) == [["--work", url], ["--work", url]], "\(harness.browser.records())")
        #expect(eventually(timeout: 10) { window.status.contains("Opened \(url) again") }, "\(window.status)")
        try window.press("alt+c")
        #expect(eventually(timeout: 10) { (try? harness.run(["xclip", "-o", "-selection", "clipboard"]).stdout) == url })
        #expect(eventually(timeout: 10) { window.status == "Copied the link" }, "\(window.status)")
    }

    @Test func forgetRemovesARememberedAnswer() throws {
        let config = """
            [default]
            ask = ["browser.desktop", "work.desktop"]
            """
        let harness = try Self.harness("settingsforget", config: config, system: nil)
        let remembered = harness.desktop.configHome + "/openurld/remembered.toml"
        let block = "[[rules]]\nname = \"Remembered: example.org\"\nmatch.domain = \"example.org\"\nopen = \"work.desktop\"\n"
        try ("# kept\n\n" + block + "\n[[rules]]\nname = \"Remembered: other.example\"\nmatch.domain = \"other.example\"\nopen = \"browser.desktop\"\n")
            .write(toFile: remembered, atomically: true, encoding: .utf8)
        _ = try harness.call("Reload")
        let window = try Window(harness, page: "remembered")
        #expect(eventually(timeout: 10) { (window.shown["remembered"] as? [Any])?.count == 2 }, "\(window.shown)")
        try window.press("alt+g")
        #expect(eventually(timeout: 10) { (window.shown["remembered"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Remembered: other.example"] },
                "\(window.shown)")
        let text = (try? String(contentsOfFile: remembered, encoding: .utf8)) ?? ""
        #expect(!text.contains("example.org\"") && text.contains("# kept") && text.contains("Remembered: other.example"), "\(text)")
        let decision = try harness.call("Explain", [.string("https://example.org/"), .vardict(pairs: [])]).first?.dictionary ?? [:]
        #expect(decision["decision"]?.string == "ask", "\(decision)")
    }
}

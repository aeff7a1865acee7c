import DBus
import Foundation
import TestSupport
import Testing

/// Issue 21, cases 6 and 7: the chooser for real (Xvfb, no window manager, xdotool). Tab moves
/// the focus between the link, the choices and "Remember", never the selection; the scope menu
/// has its own mnemonic (Alt+F) and the footer says so; a long list fits a 768-pixel screen.
@Suite(.serialized) struct ChooserKeyboardTests {
    let chooser = ChooserTests()

    @Test func tabReachesRememberWithoutChangingWhatEnterOpens() throws {
        try chooser.requireTools()
        let harness = try DaemonHarness(config: ChooserTests.config, name: "choosertab", withDesktopSession: true)
        let url = "https://www.ask.example/tab"
        _ = try chooser.open(harness, url)
        let window = try #require(try chooser.chooserWindow(harness))
        // The focus starts on the first choice: Tab goes to "Remember", space checks it, Enter
        // opens the choice that was selected all along (GTK's Tab would have selected the second).
        try chooser.press(harness, window, "Tab", "space", "Return")
        #expect(harness.browser.waitForRecords(1) == [[url]], "Tab changed the selection: \(harness.browser.records())")
        let remembered = harness.desktop.configHome + "/openurld/remembered.toml"
        #expect(eventually { FileManager.default.fileExists(atPath: remembered) })
        let text = (try? String(contentsOfFile: remembered, encoding: .utf8)) ?? ""
        // The narrowest scope is the default: this host, not all of ask.example (case 3).
        #expect(text.contains("match.host = \"www.ask.example\"") && text.contains("open = \"browser.desktop\""), "\(text)")
    }

    @Test func shiftTabGoesBackToTheLinkAndTabReturnsToTheSameChoice() throws {
        try chooser.requireTools()
        let harness = try DaemonHarness(config: ChooserTests.config, name: "choosershifttab", withDesktopSession: true)
        let url = "https://ask.example/second"
        _ = try chooser.open(harness, url)
        let window = try #require(try chooser.chooserWindow(harness))
        // Down selects the second choice; out to the link field and back keeps it selected.
        try chooser.press(harness, window, "Down", "shift+Tab", "Tab", "Return")
        #expect(harness.browser.waitForRecords(1) == [["--work", url]], "\(harness.browser.records())")
    }

    @Test func theScopeMenuHasItsOwnMnemonic() throws {
        try chooser.requireTools()
        let harness = try DaemonHarness(config: ChooserTests.config, name: "chooserscope", withDesktopSession: true)
        let url = "https://www.ask.example/scope"
        _ = try chooser.open(harness, url)
        let window = try #require(try chooser.chooserWindow(harness))
        // Alt+R checks "Remember", Alt+F opens its scope menu (a popover: its own X window,
        // named "Open link"), Down and Enter pick the second scope (the registrable domain), and
        // 1 opens the first choice.
        try chooser.press(harness, window, "alt+r", "alt+f")
        #expect(eventually(timeout: 10) { (try? harness.run(["xdotool", "search", "--onlyvisible", "--name", "^Open link$"]))?.status == 0 },
                "Alt+F did not open the scope menu")
        // GTK maps the menu's window before it routes keys to it, and X never says when (the
        // focus stays on the chooser's window): under CI's load, keys sent at once were lost.
        usleep(400_000)
        let keys = try harness.run(["xdotool", "key", "--delay", "50", "Down", "Return", "1"])
        #expect(keys.status == 0, "\(keys)")
        #expect(harness.browser.waitForRecords(1) == [[url]])
        let remembered = harness.desktop.configHome + "/openurld/remembered.toml"
        #expect(eventually { FileManager.default.fileExists(atPath: remembered) })
        let text = (try? String(contentsOfFile: remembered, encoding: .utf8)) ?? ""
        #expect(text.contains("match.domain = \"ask.example\""), "\(text)")
    }

    @Test func theFooterListsTabAndTheMnemonics() throws {
        let model = try Command.run([try BuiltProduct.path("openurl-chooser"), "--dump", "--url", "https://www.ask.example/", "--choice", "copy"], environment: [:])
        #expect(model.status == 0, "\(model)")
        let keys = (try JSONSerialization.jsonObject(with: Data(model.stdout.utf8)) as? [String: Any])?["keys"] as? String ?? ""
        #expect(keys.contains("Tab moves between the link, the choices and Remember (never the selection)"), "\(keys)")
        #expect(keys.contains("Alt+R remember, Alt+F for what"), "\(keys)")
    }

    /// A forced ask with every browser profile of a well-stocked home (over twenty choices).
    @Test func aLongForcedAskFitsA768PixelScreenWithCopyAndDiscardOnNumberKeys() throws {
        try chooser.requireTools()
        let harness = try DaemonHarness(config: ChooserTests.config, name: "chooserheight", withDesktopSession: true)
        _ = try BrowserHome(desktop: harness.desktop, browser: harness.browser.executable)
        _ = try harness.call("Reload")
        let reply = try harness.call("Open", [.string("https://tall.example/"), .vardict(["ask": .bool(true)])]).first?.dictionary ?? [:]
        let choices = reply["choices"]?.stringArray ?? []
        #expect(choices.count > 12, "\(choices)")
        #expect(Array(choices.prefix(9)).contains("copy") && Array(choices.prefix(9)).contains("discard"), "\(choices)")
        let window = try #require(try chooser.chooserWindow(harness))
        let geometry = try harness.run(["xdotool", "getwindowgeometry", window]).stdout
        let height = geometry.split(separator: "\n").first { $0.contains("Geometry:") }?.split(separator: "x").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let measured = try #require(height, "\(geometry)")
        #expect(measured <= 768, "the window is \(measured) px high: \(geometry)")
        // Discard keeps its number: the key it shows takes it.
        let discard = try #require(choices.firstIndex(of: "discard"))
        try chooser.press(harness, window, "\(discard + 1)")
        #expect(try harness.settledOutcomes(of: "https://tall.example/") == ["done"])
        #expect(try chooser.latestRecent(harness)["decision"]?.string == "discard")
        #expect(harness.browser.records().isEmpty)
    }
}

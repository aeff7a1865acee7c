import DBus
import Foundation
import TestSupport
import Testing

/// Issue 10 cases 2 and 3: an `ask` with no way to ask still ends somewhere, and a dismissed or
/// unanswered question is recorded as such.
@Suite(.serialized) struct AskFallbackTests {
    static func config(settings: String) -> String {
        """
        [settings]
        dedupe_ms = 0
        \(settings)

        [[rules]]
        name = "ask"
        match.domain = "ask.example"
        ask = ["copy", "work.desktop", "browser.desktop"]
        """
    }

    func latestRecent(_ harness: DaemonHarness) -> [String: DBusValue] {
        (try? harness.call("Recent", [.uint32(1)]).first?.array?.first?.dictionary) ?? [:]
    }

    func picker(_ harness: DaemonHarness, _ script: String) throws -> String {
        let path = harness.desktop.root + "/picker.sh"
        try "#!/bin/sh\n\(script)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// The harness display (:99) has no X server: the chooser exits before showing itself.
    @Test func withADeadDisplayNoServerAndNoPickerTheFirstTargetOpensOnce() throws {
        let harness = try DaemonHarness(config: Self.config(settings: ""), name: "noask")
        let reply = try harness.call("Open", [.string("https://ask.example/a"), .vardict([:])]).first?.dictionary ?? [:]
        #expect(reply["decision"]?.string == "ask")
        // The first choice is copy; the first *target* is the work browser.
        #expect(harness.browser.waitForRecords(1) == [["--work", "https://ask.example/a"]])
        #expect(try harness.settledOutcomes(of: "https://ask.example/a") == ["done"], "\(latestRecent(harness))")
        #expect(harness.browser.records().count == 1)
        #expect(latestRecent(harness)["target"]?.string == "work.desktop")
    }

    @Test func aMissingPickerFallsBackToTheWindow() throws {
        let harness = try DaemonHarness(config: Self.config(settings: "ask_with = \"picker\"\npicker = [\"no-such-picker-openurld\"]"),
                                        name: "nopicker", withDesktopSession: true)
        _ = try harness.call("Open", [.string("https://ask.example/b"), .vardict([:])])
        var window = ""
        #expect(try eventually(timeout: 15) {
            window = try harness.run(["xdotool", "search", "--onlyvisible", "--name", "^Open link"]).stdout
                .split(separator: "\n").first.map(String.init) ?? ""
            return !window.isEmpty
        }, "the chooser window did not appear after the picker was found missing")
        _ = try harness.run(["xdotool", "windowfocus", "--sync", window, "key", "Escape"])
        #expect(eventually { latestRecent(harness)["outcome"]?.string == "cancelled" }, "\(latestRecent(harness))")
    }

    @Test(arguments: [
        ("cat >/dev/null; exit 1", "cancelled"),
        ("cat >/dev/null; echo", "cancelled"),
        ("exec sleep 30", "expired"),
    ])
    func aPickerThatDoesNotChooseIsRecordedTruthfully(script: String, outcome: String) throws {
        let harness = try DaemonHarness(name: "pickerend")
        let path = try picker(harness, script)
        try harness.writeConfig(Self.config(settings: "ask_with = \"picker\"\npicker = [\"\(path)\"]\nask_timeout = 1"))
        _ = try harness.call("Open", [.string("https://ask.example/c"), .vardict([:])])
        #expect(eventually(timeout: 8) { latestRecent(harness)["outcome"]?.string == outcome }, "\(latestRecent(harness))")
        #expect(harness.browser.records().isEmpty)
    }

    @Test func checkWarnsWhenThePickerIsNotOnPath() throws {
        let harness = try DaemonHarness(config: Self.config(settings: "picker = [\"no-such-picker-openurld\", \"--dmenu\"]"), name: "checkpicker")
        let result = try harness.run([try BuiltProduct.path("openurl-tool"), "check"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("warning: settings.picker: no-such-picker-openurld is not on PATH; asks will fall back to window, then notification"), "\(result)")
        let fine = try DaemonHarness(config: Self.config(settings: "picker = [\"sh\"]"), name: "checkpickerok")
        #expect(try fine.run([try BuiltProduct.path("openurl-tool"), "check"]).stderr.isEmpty)
    }

    @Test func aBadAskWithValueIsAnErrorWithASuggestion() throws {
        let harness = try DaemonHarness(config: Self.config(settings: "ask_with = \"windw\""), name: "askwith")
        let result = try harness.run([try BuiltProduct.path("openurl-tool"), "check"])
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("config.toml:3:12: settings.ask_with: unknown way to ask \"windw\" (expected one of window, notification, picker); did you mean \"window\"?"), "\(result)")
    }
}

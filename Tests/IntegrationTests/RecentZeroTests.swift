import DBus
import Foundation
import TestSupport
import Testing

/// Issue 31, case 4, on a real daemon: with `recent = 0` no history is kept, but a question is
/// still kept pending, and asked again by the next daemon after a crash.
@Suite(.serialized) struct RecentZeroTests {
    /// `recent = 0` keeps no history, but a question is still kept pending: a daemon killed
    /// while it waits leaves it to the next, which asks it again.
    @Test func questionsArePendingWithRecentZero() throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config("recent = 0"), name: "recentzero", withDesktopSession: true)
        let asked = try Fault.open(harness, "https://one.ask.example/zero")
        #expect(asked.outcome == "asking")
        #expect(asked.id != 0)
        #expect(Fault.window(harness, host: "one.ask.example") != nil, "no window")
        #expect(Fault.pendingIDs(harness) == [asked.id], "the question is not pending")
        #expect(Fault.mode(Fault.stateDirectory(harness) + "/pending-asks.jsonl") == 0o600)
        try Fault.stopDaemon(harness, SIGKILL)
        #expect(eventually(timeout: 10) { Fault.windows(harness).isEmpty })
        // The next daemon (started by this call) asks it again.
        _ = try harness.warmUp()
        let window = try #require(Fault.window(harness, host: "one.ask.example"), "the question was lost")
        try Fault.press(harness, window, "2")
        #expect(harness.browser.waitForRecords(1) == [["--work", "https://one.ask.example/zero"]])
        #expect(eventually(timeout: 10) { !FileManager.default.fileExists(atPath: Fault.stateDirectory(harness) + "/pending-asks.jsonl") })
        // And no history was kept.
        #expect(try Fault.recent(harness).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: Fault.stateDirectory(harness) + "/recent.tsv"))
    }
}

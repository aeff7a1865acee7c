import DBus
import Foundation
import TestSupport
import Testing

/// Issue 26, case 4: a chooser that crashes, is killed or freezes is a failure to ask, not the
/// user's Escape. Its question goes to the next way of asking (here dunst's buttons), the queued
/// ones get a new chooser, a frozen one is killed for good before that, the log says so, and one
/// question never has two windows.
@Suite(.serialized) struct ChooserFaultTests {
    static let urls = AskSurvivalTests.urls

    @Test(arguments: [SIGKILL, SIGTERM, SIGSTOP])
    func aChooserThatFailsHandsItsQuestionOnAndTheQueueGetsANewOne(signal: Int32) throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config(), name: "chooserfault\(signal)", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let ids = try Self.urls.map { try Fault.open(harness, $0).id }
        let first = try #require(Fault.window(harness, host: "one.ask.example"), "the first window never appeared")
        let chooser = try #require(Fault.windowPID(harness, first))
        #expect(kill(chooser, signal) == 0)
        defer { if signal == SIGSTOP { kill(chooser, SIGCONT) } }
        // Never two windows, while the question moves on and the next window comes.
        var most = 0
        var second: String?
        #expect(eventually(timeout: 20) {
            most = max(most, Fault.windows(harness).count)
            second = Fault.windows(harness, titled: "^Open link — two\\.ask\\.example$").first
            return second != nil
        }, "no window for the second question")
        #expect(most <= 1, "two windows at once")
        #expect(Fault.windows(harness).count == 1)
        // A frozen chooser was killed for good (a stopped process would keep its window).
        #expect(eventually(timeout: 10) { DaemonLifecycleTests.gone(chooser) }, "the old chooser is still there")
        let window = try #require(second)
        #expect(Fault.windowPID(harness, window) != chooser)
        // The first question went on to the notification's buttons: the link is not lost and not cancelled.
        #expect(Fault.outcomes(harness, ids) == ["asking", "asking", "asking"])
        #expect(eventually(timeout: 10) { ((try? server.displayedCount()) ?? 0) == 1 })
        let log = Fault.log(harness)
        #expect(log.contains(signal == SIGSTOP ? "stopped answering" : "went away without an answer"), "\(log)")
        // Answer all three where they are now.
        try Fault.press(harness, window, "2")
        let third = try #require(Fault.window(harness, host: "three.ask.example"))
        try Fault.press(harness, third, "1")
        #expect(Fault.choose(server, key: "work.desktop", label: "Work Browser"), "menu: \(server.lastMenu)")
        #expect(server.lastMenu.contains { $0.contains("Open link with…") }, "\(server.lastMenu)")
        let records = harness.browser.waitForRecords(3)
        #expect(Set(records) == [["--work", Self.urls[0]], ["--work", Self.urls[1]], [Self.urls[2]]], "\(records)")
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, ids) == ["done", "done", "done"] }, "\(Fault.outcomes(harness, ids))")
        let recent = try Fault.recent(harness)
        #expect(ids.map { recent[$0]?["target"]?.string ?? "" } == ["work.desktop", "work.desktop", "browser.desktop"])
    }
}

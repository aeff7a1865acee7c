import DBus
import Foundation
import TestSupport
import Testing

/// Issue 31, case 11: a chooser that stops answering while its question is shown is ended within
/// `ask_timeout` + 5 s of the click, even when its question's time runs out first and no other
/// question needs the chooser: the heartbeat goes on after the close, and a chooser that does not
/// confirm it is killed (`SIGKILL`), taking its window with it.
@Suite(.serialized) struct FrozenChooserTests {
    @Test func aChooserFrozenWithItsWindowUpIsEndedEvenWhenNoQuestionWaits() throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config("ask_timeout = 4"), name: "frozenalone", withDesktopSession: true)
        let server = try #require(harness.notifications)
        // A first question, answered, so the chooser is resident and the next window comes at once
        // (GTK's start under load is not what this measures).
        let warm = try Fault.open(harness, "https://two.ask.example/warm")
        let first = try #require(Fault.window(harness, host: "two.ask.example"), "the first window never appeared")
        try Fault.press(harness, first, "1")
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, [warm.id]) == ["done"] && Fault.windows(harness).isEmpty })
        let clicked = Date()
        let asked = try Fault.open(harness, "https://one.ask.example/frozen")
        let window = try #require(Fault.window(harness, host: "one.ask.example"), "the window never appeared")
        let chooser = try #require(Fault.windowPID(harness, window))
        #expect(kill(chooser, SIGSTOP) == 0)
        defer { kill(chooser, SIGCONT) }
        // Its time runs out (nobody answered), and the frozen window goes with its chooser.
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, [asked.id]) == ["expired"] }, "\(Fault.outcomes(harness, [asked.id]))")
        let ended = eventually(timeout: 15) { Fault.windows(harness).isEmpty && DaemonLifecycleTests.gone(chooser) }
        let took = Date().timeIntervalSince(clicked)
        #expect(ended, "the frozen chooser (pid \(chooser)) still shows its window \(Int(took)) s after the click: \(Fault.windows(harness))")
        #expect(took < 4 + 5 + 1, "the frozen chooser was ended \(took) s after the click; ask_timeout + 5 s is the most")
        #expect(Fault.log(harness).contains("stopped answering"), "\(Fault.log(harness))")
        // The question moved on as an expired one does: "Link not opened" with Open.
        #expect(Fault.choose(server, key: "open", label: "Open"), "menu: \(server.lastMenu)")
        #expect(harness.browser.waitForRecords(2) == [["https://two.ask.example/warm"], ["https://one.ask.example/frozen"]])
        // The next question gets a new chooser, and a window.
        _ = try Fault.open(harness, "https://three.ask.example/after")
        let next = try #require(Fault.window(harness, host: "three.ask.example"), "no window after the frozen chooser was ended")
        #expect(Fault.windowPID(harness, next) != chooser)
    }
}

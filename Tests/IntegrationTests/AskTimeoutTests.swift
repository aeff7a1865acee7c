import DBus
import Foundation
import TestSupport
import Testing

/// Issue 26, case 5 (and issue 21's case 9): `ask_timeout` counts from the click, for queued
/// questions too, in every way of asking; an expiry keeps the chooser process; and a question
/// nobody answered shows one low-urgency "Link not opened: no answer" with Open and Ask again.
@Suite(.serialized) struct AskTimeoutTests {
    @Test func twoHundredAsksAtOnceExpireFromTheirClickAndKeepTheChooser() throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config("ask_timeout = 6"), name: "ask200", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let start = Date()
        // At once: from 8 threads, each on its own connection.
        let lock = NSLock()
        nonisolated(unsafe) var ids: [UInt32] = []
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for n in stride(from: thread, to: 200, by: 8) {
                if let id = try? Fault.open(harness, "https://ask.example/q\(n)").id { lock.withLock { ids.append(id) } }
            }
        }
        #expect(ids.count == 200 && Set(ids).count == 200, "\(ids.count) ids")
        let window = try #require(Fault.window(harness, host: "ask.example"))
        let chooser = try #require(Fault.windowPID(harness, window))
        var most = 0
        // Counted from the clicks: all expire about 6 s after them, not one window after another.
        let expired = eventually(timeout: 30) {
            most = max(most, Fault.windows(harness).count)
            return Set(Fault.outcomes(harness, ids)) == ["expired"]
        }
        #expect(expired, "\(Dictionary(grouping: Fault.outcomes(harness, ids)) { $0 }.mapValues(\.count))")
        let took = Date().timeIntervalSince(start)
        #expect(took < 25, "took \(took) s")
        #expect(most <= 1, "\(most) windows at once")
        #expect(eventually(timeout: 10) { Fault.windows(harness).isEmpty })
        // The chooser is kept for the next question.
        #expect(!DaemonLifecycleTests.gone(chooser), "an expiry killed the chooser")
        #expect(harness.browser.records().isEmpty)
        // One notification for all of them, replaced as they expired, low urgency.
        #expect(eventually(timeout: 10) { (try? server.displayedCount()) == 1 })
        let shown = try Fault.shownNotifications(server, atLeast: 1)
        #expect(shown.map(\.summary) == ["200 links not opened: no answer"], "\(shown.map(\.summary))")
        #expect(Set(server.shown.filter { $0.summary.contains("not opened") }.map(\.urgency)) == ["LOW"])
        // The next question reuses the kept chooser.
        _ = try Fault.open(harness, "https://one.ask.example/after")
        let next = try #require(Fault.window(harness, host: "one.ask.example"))
        #expect(Fault.windowPID(harness, next) == chooser)
    }

    @Test func anExpiredAskOffersAskAgainUnderItsOwnId() throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config("ask_timeout = 5"), name: "askagain", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let url = "https://one.ask.example/late"
        let id = try Fault.open(harness, url).id
        let window = try #require(Fault.window(harness, host: "one.ask.example"))
        let chooser = try #require(Fault.windowPID(harness, window))
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, [id]) == ["expired"] })
        #expect(eventually(timeout: 10) { Fault.windows(harness).isEmpty }, "the expired question's window stayed")
        #expect(!DaemonLifecycleTests.gone(chooser))
        #expect(eventually(timeout: 10) { server.shown.last?.summary == "Link not opened: no answer" }, "\(server.shown)")
        #expect(server.shown.last?.urgency == "LOW")
        // More time for the second asking (hot reload), then Ask again.
        let loads = Fault.log(harness).components(separatedBy: "loaded ").count
        try harness.writeConfig(Fault.config("ask_timeout = 120"))
        #expect(eventually(timeout: 10) { Fault.log(harness).components(separatedBy: "loaded ").count > loads })
        #expect(Fault.choose(server, key: "ask-again", label: "Ask again"), "menu: \(server.lastMenu)")
        #expect(server.lastMenu.contains { $0.contains("Open") && $0.contains("Link not opened: no answer") }, "\(server.lastMenu)")
        let again = try #require(Fault.window(harness, host: "one.ask.example"), "Ask again showed no window")
        #expect(Fault.outcomes(harness, [id]) == ["asking"])
        try Fault.press(harness, again, "2")
        #expect(harness.browser.waitForRecords(1) == [["--work", url]])
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, [id]) == ["done"] })
        #expect(try Fault.recent(harness)[id]?["target"]?.string == "work.desktop")
    }

    @Test func aQuestionAsNotificationExpiresToo() throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config("ask_with = \"notification\"\nask_timeout = 4"), name: "asknotifyexpire",
                                        withDesktopSession: true)
        let server = try #require(harness.notifications)
        let url = "https://two.ask.example/unanswered"
        let id = try Fault.open(harness, url).id
        #expect(eventually(timeout: 10) { server.shown.contains { $0.summary == "Open link with…" } })
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, [id]) == ["expired"] }, "\(Fault.outcomes(harness, [id]))")
        #expect(eventually(timeout: 10) { server.shown.last?.summary == "Link not opened: no answer" }, "\(server.shown)")
        // The prompt was taken down; only the "not opened" notice is on screen.
        #expect(eventually(timeout: 10) { (try? server.displayedCount()) == 1 })
        #expect(Fault.choose(server, key: "open", label: "Open"), "menu: \(server.lastMenu)")
        #expect(harness.browser.waitForRecords(1) == [[url]])
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, [id]) == ["done"] })
    }
}

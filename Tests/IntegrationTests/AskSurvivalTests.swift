import DBus
import Foundation
import TestSupport
import Testing

/// Issue 26, cases 1 and 2: a daemon that stops (`kill -9`, `SIGTERM`) with a question on screen
/// and two queued loses none of them: the next daemon asks again under the same ids, or, past
/// `ask_timeout`, records `interrupted` and offers Open and Ask again; and a click is on disk
/// before its reply, so its id is never given to another link.
@Suite(.serialized) struct AskSurvivalTests {
    static let urls = ["https://one.ask.example/1", "https://two.ask.example/2", "https://three.ask.example/3"]

    /// Three questions: the first shown in the chooser, two queued behind it.
    func askThree(_ harness: DaemonHarness) throws -> [UInt32] {
        let replies = try Self.urls.map { try Fault.open(harness, $0) }
        #expect(replies.map(\.outcome) == ["asking", "asking", "asking"])
        #expect(Fault.window(harness, host: "one.ask.example") != nil, "the first question's window never appeared")
        #expect(Fault.windows(harness).count == 1, "one window at a time: \(Fault.windows(harness))")
        // Written before each reply: all three are on disk already.
        #expect(Fault.outcomesOnDisk(harness, replies.map(\.id)) == ["asking", "asking", "asking"])
        return replies.map(\.id)
    }

    /// Answers the three questions in their windows, in order, and checks where each link went.
    func answerThree(_ harness: DaemonHarness, ids: [UInt32]) throws {
        for (host, key) in [("one.ask.example", "1"), ("two.ask.example", "2"), ("three.ask.example", "1")] {
            let window = try #require(Fault.window(harness, host: host), "no window for \(host)")
            #expect(Fault.windows(harness).count == 1, "two windows: \(Fault.windows(harness))")
            try Fault.press(harness, window, key)
        }
        #expect(harness.browser.waitForRecords(3) == [[Self.urls[0]], ["--work", Self.urls[1]], [Self.urls[2]]])
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, ids) == ["done", "done", "done"] }, "\(Fault.outcomes(harness, ids))")
        let recent = try Fault.recent(harness)
        #expect(ids.map { recent[$0]?["target"]?.string ?? "" } == ["browser.desktop", "work.desktop", "browser.desktop"])
    }

    @Test func aKilledDaemonsQuestionsAreAskedAgainByTheNextUnderTheirIds() throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config(), name: "askkill", withDesktopSession: true)
        let ids = try askThree(harness)
        let daemon = try Fault.stopDaemon(harness, SIGKILL)
        // The chooser goes with the daemon (its stdin closes): no window is left for nobody.
        #expect(eventually(timeout: 10) { Fault.windows(harness).isEmpty }, "\(Fault.windows(harness))")
        #expect(harness.browser.records().isEmpty)
        // The next call starts the next daemon (D-Bus activation), which asks again.
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, ids) == ["asking", "asking", "asking"] }, "\(Fault.outcomes(harness, ids))")
        #expect(try harness.daemonPID() != UInt32(daemon))
        try answerThree(harness, ids: ids)
        #expect(Fault.log(harness).contains("asking #\(ids[0]) again"), "\(Fault.log(harness))")
        #expect(!FileManager.default.fileExists(atPath: harness.desktop.stateHome + "/openurld/pending-asks.jsonl"),
                "answered questions stay pending")
    }

    @Test func aStoppedDaemonRecordsInterruptedAndTheNextAsksAgain() throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config(), name: "askterm", withDesktopSession: true)
        let ids = try askThree(harness)
        try Fault.stopDaemon(harness, SIGTERM)
        // What it left says the truth: interrupted, not asking for ever; its window is gone.
        #expect(Fault.outcomesOnDisk(harness, ids) == ["interrupted", "interrupted", "interrupted"])
        #expect(eventually(timeout: 10) { Fault.windows(harness).isEmpty }, "\(Fault.windows(harness))")
        let pending = try String(contentsOfFile: harness.desktop.stateHome + "/openurld/pending-asks.jsonl", encoding: .utf8)
        #expect(pending.split(separator: "\n").count == 3, "\(pending)")
        var mode = stat()
        #expect(stat(harness.desktop.stateHome + "/openurld/pending-asks.jsonl", &mode) == 0 && mode.st_mode & 0o777 == 0o600)
        // Within ask_timeout of the clicks, the next daemon asks again.
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, ids) == ["asking", "asking", "asking"] }, "\(Fault.outcomes(harness, ids))")
        try answerThree(harness, ids: ids)
    }

    @Test func pastAskTimeoutTheNextDaemonRecordsInterruptedAndOffersOpen() throws {
        try Fault.requireTools()
        // Time enough to ask under load; the next daemon is started with a limit the clicks are past.
        let harness = try DaemonHarness(config: Fault.config("ask_timeout = 120"), name: "askstale", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let ids = try askThree(harness)
        let lastClick = Date()
        try Fault.stopDaemon(harness, SIGKILL)
        #expect(eventually(timeout: 10) { Fault.windows(harness).isEmpty })
        try harness.writeConfig(Fault.config("ask_timeout = 1"))
        // The clicks must be more than ask_timeout old when the next daemon reads them: this waits on the clock.
        let left = 1.5 - Date().timeIntervalSince(lastClick)
        if left > 0 { usleep(useconds_t(left * 1_000_000)) }
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, ids) == ["interrupted", "interrupted", "interrupted"] },
                "\(Fault.outcomes(harness, ids))")
        // One notification for the three, low urgency, with Open and Ask again; no window.
        #expect(eventually(timeout: 10) { ((try? server.displayedCount()) ?? 0) == 1 })
        #expect(Fault.choose(server, key: "open", label: "Open"), "menu: \(server.lastMenu)")
        #expect(server.lastMenu.contains { $0.contains("Ask again") && $0.contains("3 links not opened: the question was interrupted") },
                "\(server.lastMenu)")
        #expect(Fault.windows(harness).isEmpty)
        // Open sends each to the first target its question offered.
        let records = harness.browser.waitForRecords(3)
        #expect(Set(records) == Set(Self.urls.map { [$0] }), "\(records)")
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, ids) == ["done", "done", "done"] }, "\(Fault.outcomes(harness, ids))")
        #expect(server.shown.filter { $0.summary.contains("not opened") }.map(\.urgency) == ["LOW"], "\(server.shown)")
    }

    /// Case 2: the click's line is in `recent.tsv` when its reply comes, so a daemon killed at
    /// once loses nothing and the next link gets the next id.
    @Test func aClickIsOnDiskBeforeItsReplyAndItsIdIsNeverGivenAgain() throws {
        let harness = try DaemonHarness(config: Fault.config(), name: "idonce")
        let first = try Fault.open(harness, "https://example.org/first")
        #expect(first.outcome == "done")
        #expect(Fault.outcomesOnDisk(harness, [first.id]) == ["done"])
        try Fault.stopDaemon(harness, SIGKILL)
        let second = try Fault.open(harness, "https://example.org/second")
        #expect(second.id == first.id + 1, "id \(second.id) after \(first.id)")
        #expect(harness.browser.waitForRecords(2) == [["https://example.org/first"], ["https://example.org/second"]])
        let recent = try Fault.recent(harness)
        #expect(recent[first.id]?["url"]?.string == "https://example.org/first")
        #expect(recent[second.id]?["url"]?.string == "https://example.org/second")
    }
}

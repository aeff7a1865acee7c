import DBus
import Foundation
import TestSupport
import Testing

/// Issue 26, case 7: ten copies at once show one "Copied link" (each kind replaces the last, even
/// before the server has said which id it gave), and a question pushed out of a full `recent`
/// still gets its outcome.
@Suite(.serialized) struct NoticeReplacementTests {
    @Test func tenCopiesAtOnceShowOneCopiedLink() throws {
        try Fault.requireTools()
        let config = Fault.config() + "\n\n[[rules]]\nname = \"copy\"\nmatch.domain = \"copy.example\"\ncopy = true\n"
        let harness = try DaemonHarness(config: config, name: "tencopies", withDesktopSession: true)
        let server = try #require(harness.notifications)
        _ = try harness.call("Explain", [.string("https://copy.example/"), .vardict([:])])
        let lock = NSLock()
        nonisolated(unsafe) var ids: [UInt32] = []
        DispatchQueue.concurrentPerform(iterations: 10) { n in
            if let id = try? Fault.open(harness, "https://copy.example/link\(n)").id { lock.withLock { ids.append(id) } }
        }
        #expect(ids.count == 10)
        #expect(eventually(timeout: 15) { Fault.log(harness).components(separatedBy: "copied with xclip").count == 11 }, "\(Fault.log(harness))")
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, ids) == Array(repeating: "done", count: 10) })
        let clipboard = try harness.run(["xclip", "-o", "-selection", "clipboard"]).stdout
        #expect(clipboard.hasPrefix("https://copy.example/link"), "\(clipboard)")
        #expect(eventually(timeout: 10) { (try? server.displayedCount()) == 1 }, "\((try? server.displayedCount()) ?? -1) on screen")
        let shown = try Fault.shownNotifications(server, atLeast: 1)
        #expect(shown.map(\.summary) == ["Copied link"], "\(shown.map(\.summary))")
        #expect(harness.browser.records().isEmpty)
    }

    @Test func aQuestionPushedPastAFullRecentStillGetsItsOutcome() throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config("recent = 3"), name: "pushedout", withDesktopSession: true)
        let asked = try Fault.open(harness, "https://one.ask.example/waiting")
        let window = try #require(Fault.window(harness, host: "one.ask.example"))
        let others = try (0..<5).map { try Fault.open(harness, "https://example.org/other\($0)").id }
        // Three kept, and the question still waiting is one more.
        let recent = try Fault.recent(harness)
        #expect(recent[asked.id]?["outcome"]?.string == "asking", "\(recent.keys.sorted())")
        #expect(Set(recent.keys) == Set([asked.id] + others.suffix(3)), "\(recent.keys.sorted())")
        // Each launch records from its own process, in any order: the five others first, so the
        // answer's launch is the sixth record (under CI's load one of them came after it).
        #expect(harness.browser.waitForRecords(5).count == 5, "\(harness.browser.records())")
        try Fault.press(harness, window, "2")
        #expect(harness.browser.waitForRecords(6).last == ["--work", "https://one.ask.example/waiting"], "\(harness.browser.records())")
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, [asked.id]) == ["done"] }, "\(Fault.outcomes(harness, [asked.id]))")
        #expect(try Fault.recent(harness)[asked.id]?["target"]?.string == "work.desktop")
        // And on disk (answered, it is the oldest: the next link may push it out now).
        #expect(Fault.outcomesOnDisk(harness, [asked.id]) == ["done"])
    }
}

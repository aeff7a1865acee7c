import DBus
import Foundation
import TestSupport
import Testing

/// Issue 31, case 3, on a real daemon: ids are never given twice, after `openurl recent --clear`
/// and a crash with a question waiting, or with a hostile `recent.tsv` (no id in its tail, or
/// the top 32-bit id); never 0; `openurl reopen N` still finds its link.
@Suite(.serialized) struct IDFaultTests {
    /// A question asked, the history cleared, the daemon killed: the next daemon asks it again
    /// under its id, and gives the next links new ids (not 1 again), whose questions are kept too.
    @Test func idsAreNotGivenAgainAfterAClearAndACrash() throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config(), name: "idsclear", withDesktopSession: true)
        let asked = try Fault.open(harness, "https://one.ask.example/before")
        let opened = try Fault.open(harness, "https://example.org/before")
        #expect(asked.outcome == "asking" && opened.outcome == "done")
        #expect(Fault.window(harness, host: "one.ask.example") != nil)
        let cleared = try harness.run([harness.openurl, "recent", "--clear"])
        #expect(cleared.status == 0, "\(cleared)")
        try Fault.stopDaemon(harness, SIGKILL)
        // The next daemon asks the question again, under its id.
        #expect(eventually(timeout: 15) { Fault.outcomes(harness, [asked.id]) == ["asking"] }, "\(Fault.outcomes(harness, [asked.id]))")
        let given = [asked.id, opened.id]
        let next = try Fault.open(harness, "https://two.ask.example/after")
        #expect(next.outcome == "asking")
        #expect(next.id > given.max() ?? 0, "id \(next.id) given again after \(given)")
        // Both questions are pending, each under its own id.
        #expect(eventually(timeout: 10) { Fault.pendingIDs(harness) == [asked.id, next.id] }, "\(Fault.pendingIDs(harness))")
        let recent = try Fault.recent(harness)
        #expect(recent[asked.id]?["url"]?.string == "https://one.ask.example/before")
        #expect(recent[next.id]?["url"]?.string == "https://two.ask.example/after")
        #expect(FileManager.default.fileExists(atPath: Fault.stateDirectory(harness) + "/next-id"))
    }

    /// A `recent.tsv` whose tail holds no id, or whose last id is the top of the 32-bit range:
    /// the next link gets an id no entry holds, never 0, and its outcome is recorded.
    @Test(arguments: ["no id in the tail", "the top id"])
    func aHostileRecentFileDoesNotMakeIdsCollideOrWrapToZero(_ planted: String) throws {
        let harness = try DaemonHarness(config: Fault.config(), name: "idstail")
        let state = Fault.stateDirectory(harness)
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let topID = planted == "the top id" ? UInt32.max : 7
        var text = "\(topID)\t1700000000\thttps://example.org/old\thttps://example.org/old\topen\tbrowser.desktop\t\t\tdone\n"
        if planted == "no id in the tail" { text += String(repeating: "x", count: 70_000) + "\n" }
        try text.write(toFile: state + "/recent.tsv", atomically: false, encoding: .utf8)
        #expect(chmod(state + "/recent.tsv", 0o600) == 0)

        let first = try Fault.open(harness, "https://example.org/first")
        let second = try Fault.open(harness, "https://example.org/second")
        #expect(first.outcome == "done" && second.outcome == "done")
        #expect(first.id != 0 && second.id != 0 && first.id != second.id, "\(first.id), \(second.id)")
        #expect(![first.id, second.id].contains(topID), "an id given twice")
        if topID == 7 { #expect(first.id > 7, "ids restarted below the highest on disk: \(first.id)") }
        // The outcome is recorded (an id 0 stayed `asking` for ever), and the old link is still there.
        let recent = try Fault.recent(harness)
        #expect(recent[first.id]?["outcome"]?.string == "done" && recent[second.id]?["outcome"]?.string == "done", "\(recent)")
        #expect(recent[topID]?["url"]?.string == "https://example.org/old")
        // `openurl reopen N` still finds the link by its id.
        let reopened = try harness.run([harness.openurl, "reopen", "\(first.id)"])
        #expect(reopened.status == 0, "\(reopened)")
        #expect(harness.browser.waitForRecords(3).last == ["https://example.org/first"])
    }
}

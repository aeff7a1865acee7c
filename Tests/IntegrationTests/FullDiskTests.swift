import DBus
import Foundation
import TestSupport
import Testing

/// Issue 26, case 6: `$XDG_STATE_HOME` on a small tmpfs, filled to the last byte, then freed.
/// Clicks still work; one notification says history cannot be written; `Recent` tells the truth
/// meanwhile; the lines are written when space returns, none torn, and survive a restart.
@Suite(.serialized) struct FullDiskTests {
    @Test func aFullStateDiskLosesNoLinkAndTearsNoLine() throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config(), name: "fulldisk", withDesktopSession: true)
        let server = try #require(harness.notifications)
        // Mounted before the daemon starts (the first call starts it), so everything it writes is here.
        let disk = try SmallFilesystem(at: harness.desktop.stateHome, bytes: 256 * 1024)
        defer { disk.unmount() }
        let path = harness.desktop.stateHome + "/openurld/recent.tsv"
        let before = try Fault.open(harness, "https://example.org/before")
        #expect(Fault.outcomesOnDisk(harness, [before.id]) == ["done"])
        try disk.fill()
        #expect(disk.freeBytes == 0)

        var ids: [UInt32] = []
        for n in 0..<15 {
            let reply = try Fault.open(harness, "https://example.org/full\(n)")
            #expect(reply.outcome == "done")
            ids.append(reply.id)
        }
        let asked = try Fault.open(harness, "https://one.ask.example/full")
        let window = try #require(Fault.window(harness, host: "one.ask.example"), "no window with a full disk")
        try Fault.press(harness, window, "2")
        ids.append(asked.id)
        // Every link went where it should.
        let records = harness.browser.waitForRecords(17)
        #expect(records.count == 17 && records.last == ["--work", "https://one.ask.example/full"], "\(records.suffix(2))")
        // Recent tells the truth meanwhile, from memory.
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, ids) == Array(repeating: "done", count: 16) }, "\(Fault.outcomes(harness, ids))")
        #expect(Set(ids).count == 16 && !ids.contains(before.id))
        // One notification says so.
        #expect(eventually(timeout: 10) { server.shown.contains { $0.summary == "openurld: history cannot be written" } }, "\(server.shown)")
        // The file holds no torn line (a short write is cut back off).
        let onFull = try String(contentsOfFile: path, encoding: .utf8)
        #expect(onFull.hasSuffix("\n"))
        #expect(onFull.split(separator: "\n").allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 9 })

        try disk.free()
        // Written again within seconds, whole, in order; the notification goes.
        #expect(eventually(timeout: 15) { Fault.outcomesOnDisk(harness, ids) == Array(repeating: "done", count: 16) },
                "\(Fault.outcomesOnDisk(harness, ids))")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 9 }, "a torn line: \(lines)")
        #expect(!text.contains("\n\n") && !text.hasPrefix("\n"), "an empty line in the record")
        #expect(eventually(timeout: 10) { (try? server.displayedCount()) == 0 }, "the notification stayed after space returned")
        let history = try server.history().filter { $0.summary == "openurld: history cannot be written" }
        #expect(history.count == 1, "\(history)")
        #expect(history.first?.body.contains("No space left on device") == true, "\(history)")

        // A restart reads it all back, and the next id follows.
        try Fault.stopDaemon(harness, SIGKILL)
        #expect(Fault.outcomes(harness, ids) == Array(repeating: "done", count: 16))
        #expect(try Fault.recent(harness)[asked.id]?["target"]?.string == "work.desktop")
        let after = try Fault.open(harness, "https://example.org/after")
        #expect(after.id == (ids.max() ?? 0) + 1)
    }
}

import DBus
import Foundation
import TestSupport
import Testing

/// Issue 31, case 2, on a real daemon: `recent.tsv`, `pending-asks.jsonl` and `log` replaced by
/// symbolic links are never written through (nor their targets made or chmod'ed); the daemon
/// keeps working from memory and names each file once in a notification.
@Suite(.serialized) struct StateLinkTests {
    @Test func stateFilesReplacedByLinksAreNeverWrittenThrough() throws {
        try Fault.requireTools()
        let harness = try DaemonHarness(config: Fault.config(), name: "statelinks", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let state = Fault.stateDirectory(harness)
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        // A file of someone else's (0644) behind recent.tsv and log, nothing behind the pending file.
        let canary = harness.desktop.root + "/canary", logCanary = harness.desktop.root + "/log-canary"
        let dangling = harness.desktop.root + "/made-by-openurld"
        for path in [canary, logCanary] {
            try "canary\n".write(toFile: path, atomically: false, encoding: .utf8)
            #expect(chmod(path, 0o644) == 0)
        }
        #expect(symlink(canary, state + "/recent.tsv") == 0)
        #expect(symlink(logCanary, state + "/log") == 0)
        #expect(symlink(dangling, state + "/pending-asks.jsonl") == 0)

        let opened = try Fault.open(harness, "https://example.org/linked")
        #expect(opened.outcome == "done")
        let asked = try Fault.open(harness, "https://one.ask.example/linked")
        #expect(asked.outcome == "asking")
        let window = try #require(Fault.window(harness, host: "one.ask.example"), "no window")
        // Each file is named in a notification.
        var texts = ""
        #expect(eventually(timeout: 15) {
            texts += Fault.notificationTexts(server)
            return ["recent.tsv", "pending-asks.jsonl", "/log "].allSatisfy { texts.contains($0) }
        }, "\(texts)")
        try Fault.press(harness, window, "2")
        #expect(harness.browser.waitForRecords(2) == [["https://example.org/linked"], ["--work", "https://one.ask.example/linked"]])
        // Recent tells the truth from memory.
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, [opened.id, asked.id]) == ["done", "done"] },
                "\(Fault.outcomes(harness, [opened.id, asked.id]))")
        for n in 0..<3 { #expect(try Fault.open(harness, "https://example.org/more\(n)").outcome == "done") }
        #expect(try Fault.recent(harness).count == 5)
        // Nothing reached the targets, nothing was made, no mode changed, the links stay.
        for path in [canary, logCanary] {
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "canary\n", "\(path) was written through a link")
            #expect(Fault.mode(path) == 0o644, "\(path) was chmod'ed through a link")
        }
        #expect(!FileManager.default.fileExists(atPath: dangling), "a dangling link's target was created")
        for name in ["recent.tsv", "log", "pending-asks.jsonl"] {
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: state + "/" + name)) != nil, "\(name) is no longer the link")
        }
        // Said once per file: the clicks since added no notification.
        texts += Fault.notificationTexts(server)
        let refusals = ((try? server.history()) ?? []).filter { $0.summary.hasPrefix("openurld: not writing") }
        #expect(refusals.count <= 3, "\(refusals.map(\.summary))")
        #expect(texts.contains("symbolic link"), "\(texts)")
    }
}

/// What the state file tests share: the state directory, modes, the pending file's ids and
/// openurld's notifications so far.
extension Fault {
    static func stateDirectory(_ harness: DaemonHarness) -> String { harness.desktop.stateHome + "/openurld" }

    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// The question ids in the pending file (its `ask` lines).
    static func pendingIDs(_ harness: DaemonHarness) -> Set<UInt32> {
        let text = (try? String(contentsOfFile: stateDirectory(harness) + "/pending-asks.jsonl", encoding: .utf8)) ?? ""
        var ids = Set<UInt32>()
        for line in text.split(separator: "\n") {
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let id = object["ask"] as? Int {
                ids.insert(UInt32(id))
            }
        }
        return ids
    }

    /// The summaries and bodies of openurld's notifications so far (each closed into dunst's history).
    static func notificationTexts(_ server: NotificationServer) -> String {
        try? server.closeAll()
        let history = (try? server.history()) ?? []
        return history.filter { $0.appName == "openurld" }.map { $0.summary + "\n" + $0.body }.joined(separator: "\n")
    }
}

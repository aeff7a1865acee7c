import DBus
import Foundation
import TestSupport
import Testing

/// Issue 31's bounded-work faults against the real daemon: one call with thousands of links,
/// and desktop entries that name the URL more than once.
@Suite(.serialized) struct BoundedWorkTests {
    static func applicationOpen(_ harness: DaemonHarness, _ uris: [String]) throws -> Result<[DBusValue], Error> {
        Result { try harness.call("Open", [.stringArray(uris), .vardict([:])], interface: "org.freedesktop.Application") }
    }

    /// 3,000 links in one `Application.Open` once overflowed the daemon's stack (each link's
    /// routing nested in the previous one's): now the first 50 go, the rest are refused in the
    /// reply, and the daemon keeps answering.
    @Test func thousandsOfLinksInOneCallOpenFiftyAndTheDaemonStays() throws {
        let harness = try DaemonHarness(config: "[default]\ndiscard = true\n", name: "open3000")
        let uris = (0..<3000).map { "https://example.org/\($0)" }
        let result = try Self.applicationOpen(harness, uris)
        guard case .failure(let error) = result else { Issue.record("3,000 links were all accepted"); return }
        #expect("\(error)".contains("InvalidArgs") && "\(error)".contains("3000 links; at most 50"), "\(error)")
        #expect(try harness.call("Recent", [.uint32(0)]).first?.array?.count == 50)
        let explained = try harness.call("Explain", [.string("https://example.org/after"), .vardict([:])])
        #expect(explained.first?.dictionary?["decision"]?.string == "discard")
    }

    /// With launches, the links past 50 are refused and a notification says how many.
    @Test func theLinksPastFiftyAreNamedInANotification() throws {
        let harness = try DaemonHarness(config: "[default]\nopen = \"browser.desktop\"\n[settings]\ndedupe_ms = 0\n", name: "open60", withDesktopSession: true)
        let server = try #require(harness.notifications)
        _ = try Self.applicationOpen(harness, (0..<60).map { "https://example.org/\($0)" })
        let records = harness.browser.waitForRecords(50)
        // Each launch is its own process: their records may land in any order.
        #expect(Set(records.compactMap(\.last)) == Set((0..<50).map { "https://example.org/\($0)" }))
        let history = try server.closeIntoHistory { $0.contains { $0.summary == "10 of 60 links not opened" } }
        #expect(history.contains { $0.summary == "10 of 60 links not opened" }, "\(history.map(\.summary))")
        Thread.sleep(forTimeInterval: 0.3)  // a 51st launch would have been spawned by now
        #expect(harness.browser.records().count == 50)
    }

    /// `%u %u` (and `%f %F %U %u`) once gave the browser the link once per code: 5 tabs. The
    /// spec allows one URL code; the link goes once, at the first, and `check` names the entry.
    @Test(arguments: ["%u %u", "%f %F %U %u", "--first=%u --second=%U"])
    func anEntryWithRepeatedFieldCodesGetsTheLinkOnce(codes: String) throws {
        let harness = try DaemonHarness(config: "[default]\nopen = \"twice.desktop\"\n", name: "codes")
        _ = try harness.desktop.writeDesktopEntry(id: "twice.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Twice", exec: "\(harness.browser.executable) \(codes)", mimeTypes: ["x-scheme-handler/https"]))
        let result = try harness.run([harness.openurl, "https://example.org/once"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = harness.browser.waitForRecords(1)
        #expect(records.count == 1)
        let argv = records.first ?? []
        #expect(argv.filter { $0.contains("https://example.org/once") }.count == 1, "\(argv)")
        let check = try harness.run([harness.openurl, "check"])
        #expect(check.stderr.contains("twice.desktop") && check.stderr.contains("URL field codes") && check.stderr.contains("allows one"), "\(check.stderr)")
    }
}

/// A click is carried out at most once, whoever times out.
@Suite(.serialized) struct AtMostOnceTests {
    /// A 50 MB line in `recent.tsv` once made the first click's record take 2.4 s: `openurl`
    /// gave up at 2 s and opened the link itself, and the daemon opened it too. The rewrite of
    /// a file that is due now waits until the click is answered, and a line that is not ours is
    /// skipped unread.
    @Test func aHugeHistoryLineDoesNotMakeTheFirstClickOpenTwice() throws {
        let harness = try DaemonHarness(config: "[default]\nopen = \"browser.desktop\"\n", name: "hugeline")
        let directory = harness.desktop.stateHome + "/openurld"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var text = "1\t1764000000.0\thttps://old.example/\thttps://old.example/\topen\tbrowser.desktop\t\t\tdone\n"
        text += String(repeating: "x", count: 50 << 20) + "\n"
        try text.write(toFile: directory + "/recent.tsv", atomically: false, encoding: .utf8)
        try harness.warmUp()
        let started = Date()
        let result = try harness.run([harness.openurl, "-v", "https://example.org/once"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("did not answer"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 1.5, "the click took \(Date().timeIntervalSince(started)) s")
        #expect(harness.browser.waitForRecords(1).count == 1)
        var outcomes: [String] = []
        let settled = eventually(timeout: 10) {
            outcomes = (try? harness.outcomes(of: "https://example.org/once")) ?? []
            return !outcomes.isEmpty
        }
        #expect(settled && outcomes == ["done"], "\(outcomes)")
        // The rewrite comes a second after the click, the line that is not ours left out of it.
        var size = -1
        let rewritten = eventually(timeout: 10) {
            size = ((try? FileManager.default.attributesOfItem(atPath: directory + "/recent.tsv")[.size]) as? Int) ?? -1
            return size >= 0 && size < 1 << 20
        }
        #expect(rewritten, "recent.tsv was not rewritten: \(size) bytes")
        #expect(harness.browser.records().count == 1)
    }
}

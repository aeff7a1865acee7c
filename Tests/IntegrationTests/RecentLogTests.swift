import Foundation
import TestSupport
import Testing
import DBus

/// What a person reads: `openurl recent` (time, rule, target, opener) and the daemon's log file.
@Suite struct RecentLogTests {
    static let config = TestConfig.browserWithZoomRule

    @Test func recentShowsTimeRuleTargetAndOpener() throws {
        let harness = try DaemonHarness(config: Self.config, name: "recent")
        _ = try harness.call("Open", [.string("https://zoom.us/j/1"), .vardict(["opener": .string("slack")])])
        _ = try harness.call("Open", [.string("https://example.org/"), .vardict([:])])
        let table = try harness.run([harness.openurl, "recent"])
        #expect(table.status == 0, "\(table)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(table.stdout)")
        #expect(lines.first?.hasPrefix("ID") == true && lines.first?.contains("OPENER") == true, "\(table.stdout)")
        // Newest first: the default decision, then the rule from slack.
        #expect(lines[1].contains("open → browser.desktop") && lines[1].contains("(default)"), "\(lines[1])")
        #expect(lines[2].contains("open → work.desktop") && lines[2].contains("zoom") && lines[2].contains("slack"), "\(lines[2])")
        #expect(lines[2].range(of: #"\b\d\d:\d\d:\d\d\b"#, options: .regularExpression) != nil, "no time in \(lines[2])")

        let json = try harness.run([harness.openurl, "recent", "--json", "1"])
        #expect(json.status == 0, "\(json)")
        let objects = json.stdout.split(separator: "\n")
        #expect(objects.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data((objects.first ?? "").utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["id", "time", "unix_time", "url", "final_url", "decision", "target", "rule", "opener", "outcome"])
        #expect(object["target"] as? String == "browser.desktop")
        #expect(object["rule"] is NSNull)
        #expect((object["time"] as? String)?.hasSuffix("Z") == true, "\(object)")
    }

    @Test func theDaemonLogsToAFileWhenStderrIsNotTheJournal() throws {
        let harness = try DaemonHarness(config: Self.config, name: "log")
        try harness.warmUp()
        let log = harness.desktop.stateHome + "/openurld/log"
        #expect(eventually { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("serving io.github.openurld") }, "no \(log)")
        var info = stat()
        #expect(stat(log, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func logWritesToTheFileGiven() throws {
        let harness = try DaemonHarness(config: Self.config, name: "logfile")
        let file = harness.desktop.root + "/custom.log"
        let daemon = try ChildProcess([harness.openurld, "--log", file], environment: harness.environment)
        defer { _ = daemon.terminate(grace: 2) }
        try harness.waitUntilServing()
        #expect(eventually { ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("serving io.github.openurld") })
        #expect(!FileManager.default.fileExists(atPath: harness.desktop.stateHome + "/openurld/log"), "--log FILE replaces the default file")
    }
}

import DBus
import Foundation
import TestSupport
import Testing

/// Issue 10, the daemon's side: blocked links say so, `--replace` takes over, toggles follow
/// rules, hot reload survives symlinks and recreated directories, and `recent` is private and bounded.
@Suite(.serialized) struct DaemonLifecycleTests {
    static let config = """
        [default]
        open = "browser.desktop"

        [[rules]]
        match.domain = "a.example"
        open = "work.desktop"

        [[rules]]
        match.domain = "b.example"
        open = "work.desktop"
        """

    func target(_ harness: DaemonHarness, _ url: String) throws -> String? {
        try harness.call("Explain", [.string(url), .vardict([:])]).first?.dictionary?["target"]?.string
    }

    /// Case 8: a ClearURLs `completeProvider` block is a notification naming the rule, and its
    /// "Open anyway" opens the link as clicked.
    @Test func aBlockedLinkNotifiesAndCanBeOpenedAnyway() throws {
        let harness = try DaemonHarness(name: "blocked", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let rules = harness.desktop.root + "/clearurls.json"
        try #"{"providers": {"ads": {"urlPattern": "^https?://ads\\.example", "completeProvider": true}}}"#
            .write(toFile: rules, atomically: true, encoding: .utf8)
        try harness.writeConfig("[settings]\nclearurls = \"\(rules)\"\n\n[default]\nopen = \"browser.desktop\"\n")
        let url = "https://ads.example/click?id=1"
        let reply = try harness.call("Open", [.string(url), .vardict([:])])
        #expect(reply.first?.dictionary?["outcome"]?.string == "blocked by ads")
        var chosen = false
        #expect(eventually(timeout: 5) {
            if !chosen, (try? server.chooseAction(key: "open-anyway")) != nil { chosen = server.lastMenu.contains { $0.contains("Open anyway") } }
            return chosen
        }, "menu: \(server.lastMenu)")
        #expect(harness.browser.waitForRecords(1) == [[url]])
        // dunst's menu line names the notification's summary beside the action.
        #expect(server.lastMenu.contains { $0.contains("Open anyway") && $0.contains("Link blocked by ads") }, "\(server.lastMenu)")
        let recent = try harness.call("Recent", [.uint32(0)]).first?.array?.compactMap(\.dictionary) ?? []
        #expect(recent.contains { $0["url"]?.string == url && $0["outcome"]?.string == "blocked by ads" })
    }

    /// Case 10: `openurld --replace` takes the name from a running daemon, which exits.
    @Test func replaceTakesOverFromTheRunningDaemon() throws {
        let harness = try DaemonHarness(config: Self.config, name: "replace")
        _ = try target(harness, "https://example.org/")
        let old = try harness.daemonPID()
        let replacement = try ChildProcess([harness.openurld, "--replace"], environment: harness.environment, captureOutput: false,
                                           logPath: harness.desktop.root + "/replacement.log")
        defer { _ = replacement.terminate() }
        let connection = try harness.connect()
        #expect(eventually(timeout: 10) { (try? connection.processID(of: DaemonHarness.busName)) == UInt32(replacement.pid) },
                "\((try? String(contentsOfFile: harness.desktop.root + "/replacement.log", encoding: .utf8)) ?? "")")
        #expect(eventually(timeout: 10) { Self.gone(pid_t(old)) }, "the old daemon kept running")
        #expect(try target(harness, "https://a.example/") == "work.desktop")
    }

    /// Gone or a zombie.
    static func gone(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    /// Case 11: a toggled unnamed rule stays the one toggled when an edit moves it.
    @Test func togglesFollowTheRuleNotItsPosition() throws {
        let harness = try DaemonHarness(config: Self.config, name: "toggles")
        #expect(try harness.run([harness.openurl, "rules", "disable", "#2"]).status == 0)
        #expect(try harness.run([harness.openurl, "rules", "disable", "#1"]).status == 0)
        #expect(try harness.run([harness.openurl, "rules", "enable", "#1"]).status == 0)
        #expect(try target(harness, "https://b.example/") == "browser.desktop")
        // A new first rule: b.example's rule is now #3, and a.example's #2.
        try harness.writeConfig(Self.config.replacingOccurrences(of: "[[rules]]\nmatch.domain = \"a.example\"",
                                                                 with: "[[rules]]\nmatch.domain = \"new.example\"\ndiscard = true\n\n[[rules]]\nmatch.domain = \"a.example\""))
        _ = try harness.call("Reload")
        #expect(try target(harness, "https://b.example/") == "browser.desktop", "the b.example rule lost its toggle")
        #expect(try target(harness, "https://a.example/") == "work.desktop", "the toggle moved to another rule, or the last toggle did not win")
        let rules = try harness.run([harness.openurl, "rules"]).stdout
        #expect(rules.contains("3\toff"), "\(rules)")
    }

    /// Case 12: a config that is a symlink reloads when its target changes, and a deleted and
    /// recreated config directory is watched again.
    @Test func hotReloadFollowsSymlinksAndRecreatedDirectories() throws {
        let harness = try DaemonHarness(name: "symlink")
        let dotfiles = harness.desktop.root + "/dotfiles"
        try FileManager.default.createDirectory(atPath: dotfiles, withIntermediateDirectories: true)
        try TestConfig().text.write(toFile: dotfiles + "/config.toml", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: harness.desktop.configHome + "/openurld", withIntermediateDirectories: true)
        #expect(symlink(dotfiles + "/config.toml", harness.configPath) == 0)
        #expect(try target(harness, "https://example.org/") == "browser.desktop")
        // An editor saving the target: write beside it and rename over it.
        try "[default]\nopen = \"work.desktop\"\n".write(toFile: dotfiles + "/config.toml", atomically: true, encoding: .utf8)
        #expect(try eventually(timeout: 5) { try target(harness, "https://example.org/") == "work.desktop" }, "the symlink's target was not watched")

        try FileManager.default.removeItem(atPath: harness.desktop.configHome + "/openurld")
        #expect(try eventually(timeout: 5) { try target(harness, "https://example.org/") == nil }, "deleting the config did not reload")
        try harness.writeConfig("[default]\nopen = \"work.desktop\"\n")
        #expect(try eventually(timeout: 5) { try target(harness, "https://example.org/") == "work.desktop" }, "the recreated directory was not watched")
    }

    /// Recent: 0600, appended (not rewritten) per click, cleared by `openurl recent --clear`,
    /// and off with `[settings] recent = 0`.
    @Test func recentIsPrivateIncrementalClearableAndCanBeOff() throws {
        let harness = try DaemonHarness(config: Self.config, name: "recent")
        let file = harness.desktop.stateHome + "/openurld/recent.tsv"
        _ = try harness.call("Open", [.string("https://example.org/r1"), .vardict([:])])
        #expect(eventually(timeout: 5) { FileManager.default.fileExists(atPath: file) })
        var stats = stat()
        #expect(stat(file, &stats) == 0 && stats.st_mode & 0o777 == 0o600)
        let inode = stats.st_ino
        _ = try harness.call("Open", [.string("https://example.org/r2"), .vardict([:])])
        #expect(eventually(timeout: 5) { ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("r2") })
        #expect(stat(file, &stats) == 0 && stats.st_ino == inode, "the file was rewritten, not appended to")

        let cleared = try harness.run([harness.openurl, "recent", "--clear"])
        #expect(cleared.status == 0, "\(cleared)")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try harness.call("Recent", [.uint32(0)]).first?.array?.isEmpty == true)

        try harness.writeConfig("[settings]\nrecent = 0\n\n" + Self.config)
        _ = try harness.call("Reload")
        // `settle` records the outcome before it signals `Routed`: once r3's signal is here, a
        // line for it would be on disk. (recent.tsv used to be written in batches, 1.3 s later.)
        let routed = try SettleSignalTests.RoutedWatcher(harness)
        _ = try harness.call("Open", [.string("https://example.org/r3"), .vardict([:])])
        #expect(harness.browser.waitForRecords(3).count == 3)
        #expect(routed.waitFor { $0.contains { $0.first == "https://example.org/r3" } }, "\(routed.received)")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try harness.call("Recent", [.uint32(0)]).first?.array?.isEmpty == true)
    }

    /// Recent survives a restart, read on first use, with huge URLs cut to a bounded size.
    @Test func recentIsBoundedInBytesAndSurvivesARestart() throws {
        let harness = try DaemonHarness(config: Self.config, name: "recentbound")
        let huge = "https://example.org/" + String(repeating: "a", count: 100_000)
        _ = try harness.call("Open", [.string(huge), .vardict(["dry-run": .bool(false)])])
        _ = try harness.call("Open", [.string("https://example.org/small"), .vardict([:])])
        let pid = try harness.daemonPID()
        #expect(kill(pid_t(pid), SIGTERM) == 0)
        let connection = try harness.connect()
        #expect(try eventually { try !connection.nameHasOwner(DaemonHarness.busName) })
        let file = harness.desktop.stateHome + "/openurld/recent.tsv"
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        #expect(size > 0 && size < 40_000, "recent.tsv is \(size) bytes")
        let entries = try harness.call("Recent", [.uint32(0)]).first?.array?.compactMap(\.dictionary) ?? []
        #expect(entries.first?["final_url"]?.string == "https://example.org/small")
        #expect(entries.count == 2)
        let id = try #require(entries.last?["id"]?.uint32)
        #expect(throws: DBusError.self) { try harness.call("Reopen", [.uint32(id), .string("")]) }
    }

    /// A file past twice the bound (an older openurld's) is compacted at the next write, and new
    /// ids continue after the file's last one without the whole file being needed for a click.
    @Test func recentIsCompactedAndIDsContinue() throws {
        let harness = try DaemonHarness(config: Self.config, name: "recentcompact")
        let file = harness.desktop.stateHome + "/openurld/recent.tsv"
        try FileManager.default.createDirectory(atPath: harness.desktop.stateHome + "/openurld", withIntermediateDirectories: true)
        let padding = String(repeating: "p", count: 900)
        let lines = (1...700).map { "\($0)\t1700000000.0\thttps://old.example/\($0)/\(padding)\thttps://old.example/\($0)/\(padding)\topen\tbrowser.desktop\t\t\tdone\n" }
        try lines.joined().write(toFile: file, atomically: true, encoding: .utf8)
        let reply = try harness.call("Open", [.string("https://example.org/new"), .vardict([:])])
        #expect(reply.first?.dictionary?["id"]?.uint32 == 701)
        #expect(eventually(timeout: 5) {
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            return size > 0 && size <= 300 * 1024
        }, "recent.tsv was not compacted")
        let entries = try harness.call("Recent", [.uint32(0)]).first?.array?.compactMap(\.dictionary) ?? []
        #expect(entries.first?["final_url"]?.string == "https://example.org/new")
        #expect(entries.contains { $0["id"]?.uint32 == 700 })
        #expect(!entries.contains { $0["id"]?.uint32 == 1 }, "the oldest entries are beyond the byte bound")
        var stats = stat()
        #expect(stat(file, &stats) == 0 && stats.st_mode & 0o777 == 0o600)
    }
}

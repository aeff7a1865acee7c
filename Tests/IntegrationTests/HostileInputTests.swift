import DBus
import Foundation
import TestSupport
import Testing

/// Issue 14's findings against the real daemon, the recording browser and real files.
@Suite(.serialized) struct HostileInputTests {
    /// Config A of the issue: one trusted domain, everything else discarded.
    static let configA = """
        [[rules]]
        name = "trusted"
        match.domain = "example.org"
        open = "browser.desktop"

        [[rules]]
        name = "loopback"
        match.host = "127.0.0.1"
        open = "work.desktop"

        [default]
        discard = true
        """

    /// The browser receives exactly the host the rule matched, or nothing at all.
    @Test func theBrowserGetsTheHostTheRuleMatched() throws {
        let harness = try DaemonHarness(config: Self.configA)
        for hostile in ["https://evil.com%00.example.org/", "https://facebook.com%00.example/", "https://evil.com%0A.example.org/"] {
            do {
                let reply = try harness.call("Open", [.string(hostile), .vardict([:])])
                Issue.record("\(hostile) was routed: \(reply)")
            } catch {
                #expect("\(error)".contains("InvalidArgs") && "\(error)".contains("invalid host"), "\(error)")
            }
        }
        // The backslash bypass: a browser opens evil.com, so the trusted rule must not match.
        let backslash = try harness.call("Open", [.string("https://evil.com\\@example.org/p"), .vardict([:])])
        #expect(backslash.first?.dictionary?["decision"]?.string == "discard")
        for (input, expected) in [("https://example\u{3002}org/a", "https://example.org/a"),
                                  ("https://\u{FF45}\u{FF58}\u{FF41}\u{FF4D}\u{FF50}\u{FF4C}\u{FF45}.org/b", "https://example.org/b"),
                                  ("https://0x7f.1/c", "https://127.0.0.1/c")] {
            let reply = try harness.call("Open", [.string(input), .vardict([:])])
            #expect(reply.first?.dictionary?["final_url"]?.string == expected)
            #expect(reply.first?.dictionary?["outcome"]?.string == "done")
        }
        let records = harness.browser.waitForRecords(3)
        #expect(records.map { $0.last ?? "" }.sorted() == ["https://127.0.0.1/c", "https://example.org/a", "https://example.org/b"], "\(records)")
        // And recent stays readable for every caller (a NUL once broke it for everyone).
        let recent = try harness.call("Recent", [.uint32(0)])
        #expect(recent.first?.array?.count == 4)
    }

    @Test func openurlRefusesAHostileHostWithAClearMessage() throws {
        let harness = try DaemonHarness(config: Self.configA)
        let result = try harness.run([harness.openurl, "https://evil.com%00.example.org/"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("invalid host") && result.stderr.contains("U+0000"), "\(result.stderr)")
        #expect(harness.browser.records().isEmpty)
    }

    @Test func losingTheBusIsAFailureExit() throws {
        let harness = try DaemonHarness(config: Self.configA)
        let daemon = try ChildProcess([harness.openurld], environment: harness.environment, captureOutput: false)
        let connection = try harness.connect()
        #expect(try eventually { try connection.nameHasOwner(DaemonHarness.busName) })
        harness.bus.stop()
        let status = daemon.waitForExit(timeout: 10)
        #expect(status == 1, "openurld exited with \(String(describing: status)) after losing the bus")
    }

    @Test func aDanglingOrLoopingConfigLinkKeepsTheRulesInUse() throws {
        let harness = try DaemonHarness(config: Self.configA)
        let before = try harness.call("Explain", [.string("https://example.org/"), .vardict([:])])
        #expect(before.first?.dictionary?["rule"]?.string == "trusted")
        let path = harness.configPath
        for makeLink in [{ symlink(path + ".missing", path) }, { symlink(path, path) }] {
            unlink(path)
            #expect(makeLink() == 0)
            do {
                _ = try harness.call("Reload")
                Issue.record("Reload accepted a broken link")
            } catch {
                #expect("\(error)".contains("symbolic link"), "\(error)")
            }
            let after = try harness.call("Explain", [.string("https://example.org/"), .vardict([:])])
            #expect(after.first?.dictionary?["rule"]?.string == "trusted")
        }
    }

    /// A reload racing an in-place rewrite (truncate, then write) never loads the empty file.
    @Test func reloadsRacingInPlaceRewritesNeverLoadAnEmptyConfig() throws {
        let harness = try DaemonHarness(config: Self.configA)
        _ = try harness.call("Explain", [.string("https://example.org/"), .vardict([:])])
        let path = harness.configPath
        let stop = ManagedAtomicFlag()
        let writer = Thread {
            let bytes = Array(Self.configA.utf8)
            while !stop.isSet {
                let fd = open(path, O_WRONLY | O_TRUNC)
                if fd >= 0 {
                    // The input under test: an editor that truncates, then writes 3 ms later.
                    usleep(3_000)
                    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    close(fd)
                }
                usleep(2_000)  // and saves again 2 ms after that

            }
        }
        writer.start()
        defer { stop.set() }
        var defaults: [String] = []
        for _ in 0..<20 {
            _ = try? harness.call("Reload")
            let reply = try harness.call("Explain", [.string("https://example.org/"), .vardict([:])])
            let result = reply.first?.dictionary
            if result?["rule"]?.string != "trusted" { defaults.append("\(result?["decision"]?.string ?? "?") by \(result?["rule"]?.string ?? "?")") }
        }
        stop.set()
        #expect(defaults.isEmpty, "\(defaults.count) of 20 decisions after a racing reload used another config: \(Set(defaults))")
    }

    @Test func recentRepliesStayWithinTheBusLimits() throws {
        let harness = try DaemonHarness(config: "[settings]\ndedupe_ms = 0\n[default]\ndiscard = true\n")
        let connection = try harness.connect()
        // 70 links of ~128 KiB each, with their final URLs ~18 MB: more than one reply carries.
        let path = String(repeating: "a", count: 128 * 1024 - 40)
        for i in 0..<70 {
            _ = try connection.call(destination: DaemonHarness.busName, path: DaemonHarness.path, interface: DaemonHarness.interface,
                                    method: "Open", arguments: [.string("https://example.org/\(i)/\(path)"), .vardict([:])],
                                    timeout: 60)
        }
        let reply = try harness.call("Recent", [.uint32(0)])
        let count = reply.first?.array?.count ?? 0
        #expect(count > 0 && count < 70, "Recent(0) returned \(count) links")
        // Newest first.
        #expect(reply.first?.array?.first?.dictionary?["url"]?.string?.hasPrefix("https://example.org/69/") == true)
        let alive = try harness.call("Explain", [.string("https://x.org/"), .vardict([:])])
        #expect(alive.first?.dictionary?["decision"]?.string == "discard")
    }
}

extension HostileInputTests {
    @Test func openTextRefusesFloodsBeforeOpeningAny() throws {
        let harness = try DaemonHarness(config: "[default]\ndiscard = true\n")
        let many = (0..<51).map { "https://example.org/\($0)" }.joined(separator: " ")
        let huge = String(repeating: "x ", count: 600_000)
        for (text, expected) in [(many, "51 links"), (huge, "the limit is 1048576")] {
            do {
                _ = try harness.call("OpenText", [.string(text), .vardict([:])])
                Issue.record("OpenText accepted \(expected)")
            } catch {
                #expect("\(error)".contains("InvalidArgs") && "\(error)".contains(expected), "\(error)")
            }
        }
        #expect(try harness.call("Recent", [.uint32(0)]).first?.array?.isEmpty == true)
        let fifty = (0..<50).map { "https://example.org/\($0)" }.joined(separator: " ")
        #expect(try harness.call("OpenText", [.string(fifty), .vardict([:])]).first?.array?.count == 50)
    }
}

extension HostileInputTests {
    /// An emptied config is suspect for a second (an editor may be mid-write), then loads.
    @Test func anEmptiedConfigLoadsOnceItHasSettled() throws {
        let harness = try DaemonHarness(config: Self.configA)
        #expect(try harness.call("Explain", [.string("https://example.org/"), .vardict([:])]).first?.dictionary?["rule"]?.string == "trusted")
        let fd = open(harness.configPath, O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        close(fd)
        do {
            _ = try harness.call("Reload")
            Issue.record("a config emptied a moment ago was loaded at once")
        } catch {
            #expect("\(error)".contains("empty and changed"), "\(error)")
        }
        #expect(try harness.call("Explain", [.string("https://example.org/"), .vardict([:])]).first?.dictionary?["rule"]?.string == "trusted")
        // The daemon tries again by itself once the file has settled: built-in defaults then.
        #expect(try eventually(timeout: 10) {
            try harness.call("Explain", [.string("https://example.org/"), .vardict([:])]).first?.dictionary?["decision"]?.string == "system"
        })
    }
}

/// A flag two threads share.
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}

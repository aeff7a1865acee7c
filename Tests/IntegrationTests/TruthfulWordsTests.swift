import DBus
import Foundation
import TestSupport
import Testing

/// Issue 31's wrong words: each message says what is in force, and bad input gets a short,
/// precise error, against the real daemon and tools.
@Suite(.serialized) struct TruthfulWordsTests {
    static let config = "[[rules]]\nname = \"work\"\nmatch.domain = \"work.example\"\nopen = \"work.desktop\"\n\n[default]\nopen = \"browser.desktop\"\n"

    /// Only remembered.toml broken: config.toml is in force (its rule routes), and every word
    /// says so; it was "using built-in defaults".
    @Test func aBrokenRememberedFileLeavesTheConfigInForceAndSaysSo() throws {
        let harness = try DaemonHarness(config: Self.config, name: "remembered", withDesktopSession: true)
        let server = try #require(harness.notifications)
        try "[[rules]\nbroken".write(toFile: harness.desktop.configHome + "/openurld/remembered.toml", atomically: true, encoding: .utf8)
        let explained = try harness.call("Explain", [.string("https://work.example/"), .vardict([:])]).first?.dictionary
        #expect(explained?["rule"]?.string == "work" && explained?["target"]?.string == "work.desktop", "\(String(describing: explained))")
        try server.closeAll()
        let history = try server.waitForHistory { $0.contains { $0.summary.contains("remembered answers not loaded") } }
        #expect(history.contains { $0.summary == "openurld: remembered answers not loaded" }, "\(history.map(\.summary))")
        #expect(!history.contains { $0.summary.contains("built-in defaults") }, "\(history.map(\.summary))")
        // Embedded mode too: the config's rule opens the link, and stderr says what is in force.
        let embedded = try harness.run([try BuiltProduct.path("openurl-tool"), "--no-daemon", "https://work.example/embedded"])
        #expect(embedded.stderr.contains("remembered answers not loaded") && !embedded.stderr.contains("built-in defaults"), "\(embedded.stderr)")
        #expect(harness.browser.waitForRecords(1) == [["--work", "https://work.example/embedded"]])
    }

    /// A bad byte on line 2 is reported on line 2, not at 1:1.
    @Test func badUTF8IsReportedWhereItIs() throws {
        let harness = try DaemonHarness(name: "utf8")
        try FileManager.default.createDirectory(atPath: harness.desktop.configHome + "/openurld", withIntermediateDirectories: true)
        let bytes = Array("[default]\nopen = \"br".utf8) + [0xFF] + Array("owser.desktop\"\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: harness.configPath))
        let check = try harness.run([harness.openurl, "check"])
        #expect(check.status == 3)
        #expect(check.stderr.contains("config.toml:2:11: the file is not valid UTF-8 text (byte 0xFF here)"), "\(check.stderr)")
    }

    /// A 10 MB URL once came back as a 10 MB InvalidArgs message; now the message is cut.
    @Test func aHugeURLGetsAShortError() throws {
        let harness = try DaemonHarness(config: Self.config, name: "hugeurl")
        let url = "https://example.org/" + String(repeating: "a", count: 10 << 20)
        do {
            _ = try harness.call("Open", [.string(url), .vardict([:])])
            Issue.record("a 10 MB URL was accepted")
        } catch {
            let message = "\(error)"
            #expect(message.contains("InvalidArgs") && message.contains("the limit is"), "\(message.prefix(300))")
            #expect(message.utf8.count < 8192, "the error is \(message.utf8.count) bytes")
        }
        #expect(try harness.call("Explain", [.string("https://work.example/"), .vardict([:])]).first?.dictionary?["rule"]?.string == "work")
    }

    /// An activation token over 128 KiB made the launch fail (E2BIG); now the token is dropped
    /// and the link opens.
    @Test func aHugeActivationTokenIsDroppedAndTheLinkOpens() throws {
        let harness = try DaemonHarness(config: Self.config, name: "hugetoken")
        let token = String(repeating: "t", count: 200 << 10)
        let reply = try harness.call("Open", [.string("https://example.org/token"), .vardict(["activation-token": .string(token)])]).first?.dictionary
        #expect(reply?["outcome"]?.string == "done", "\(String(describing: reply?["outcome"]))")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/token"]])
        #expect(harness.browser.activationTokens().allSatisfy { $0.activation.count < 4096 })
    }

    /// Under libfaketime's LD_PRELOAD, Swift saw no argv and the binary said it was run as "".
    @Test func theBinaryKnowsItsNameUnderLDPreload() throws {
        let library = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
        guard FileManager.default.fileExists(atPath: library) else {
            Issue.record("\(library) is missing: apt-get install libfaketime")
            return
        }
        let openurld = try BuiltProduct.path("openurld")
        for (program, expected) in [(openurld, "openurld "), (openurld.replacingOccurrences(of: "/openurld", with: "/openurl-tool"), "openurl ")] {
            let result = try Command.run([program, "--version"], environment: ["LD_PRELOAD": library, "FAKETIME": "-1h", "PATH": "/usr/bin:/bin"])
            #expect(result.status == 0 && result.stdout.hasPrefix(expected), "\(program): \(result.stdout) \(result.stderr)")
        }
    }
}

extension TruthfulWordsTests {
    /// A pending question whose line has one bad byte was dropped without a word; now the log
    /// names the line (a question on it cannot be asked again: its link may be wrong).
    @Test func anUnreadablePendingLineIsReported() throws {
        let harness = try DaemonHarness(config: Self.config, name: "badpending")
        let directory = harness.desktop.stateHome + "/openurld"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let good = #"{"done":7}"#
        let bad = Array(#"{"ask":8,"time":1764000000.5,"url":"https://e.org/"#.utf8) + [0xFF] + Array(#"","final_url":"https://e.org/","choices":[],"environment":{}}"#.utf8)
        try Data(Array(good.utf8) + [0x0A] + bad + [0x0A]).write(to: URL(fileURLWithPath: directory + "/pending-asks.jsonl"))
        try harness.warmUp()
        let said = eventually(timeout: 10) { Fault.log(harness).contains("pending-asks.jsonl: 1 line could not be read and is dropped (line 2)") }
        #expect(said, "\(Fault.log(harness).suffix(2000))")
    }
}

import Foundation
import TestSupport
import Testing

/// The `openurl` commands that work without the daemon, run as a user would.
@Suite struct CLITests {
    static let config = TestConfig.browserWithZoomRule

    @Test func testPrintsTheDesignJSONKeys() throws {
        let harness = try DaemonHarness(config: Self.config, name: "clitest")
        let result = try harness.run([harness.openurl, "test", "--json", "https://us04web.zoom.us/j/1?utm_source=x"])
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["url", "final_url", "decision", "target", "rule", "copy_text", "choices", "safety", "trace", "rule_source", "argv"])
        #expect(object["decision"] as? String == "open")
        #expect(object["target"] as? String == "work.desktop")
        #expect(object["rule"] as? String == "zoom")
        #expect(object["final_url"] as? String == "https://us04web.zoom.us/j/1")
    }

    @Test(arguments: [
        // "1 rule", not "1 rules" (issue 21, case 10).
        (["check"], 0, "OK, 1 rule, 0 rewrites"),
        (["check", "--config", "/nonexistent.toml"], 3, "/nonexistent.toml: no such file"),
        (["test"], 2, "usage: openurl test"),
        (["test", "not a url"], 2, "no scheme"),
        (["test", "--bogus", "https://x.org/"], 2, "unknown option --bogus"),
        (["frobnicate"], 2, "frobnicate: not a URL: it has no scheme"),
    ])
    func exitCodes(arguments: [String], status: Int32, message: String) throws {
        let harness = try DaemonHarness(config: Self.config, name: "cliexit")
        let result = try harness.run([harness.openurl] + arguments, extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"])
        #expect(result.status == status, "\(result)")
        #expect((result.stdout + result.stderr).contains(message), "\(result)")
    }

    @Test func checkReportsBrokenConfigsWithPositions() throws {
        let harness = try DaemonHarness(config: "[[rules]]\nopne = \"x\"\nmatch.domain = 3\n", name: "clicheck")
        let result = try harness.run([harness.openurl, "check"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("config.toml:2:1: unknown key \"opne\" in [[rules]]; did you mean \"open\"?"), "\(result)")
        #expect(result.stderr.contains("config.toml:3:16: match.domain: expected a string or a list of strings, found an integer"), "\(result)")
    }

    @Test func extractListsLinksFromStdinAndFiles() throws {
        let harness = try DaemonHarness(config: Self.config, name: "extract")
        let text = "Meeting: https://zoom.us/j/123. Docs at (example.com/a_(b)) or mail bob@example.org!"
        let fromStdin = try Command.run([harness.openurl, "extract"], environment: harness.environment, stdin: text)
        #expect(fromStdin.stdout == "https://zoom.us/j/123\nhttp://example.com/a_(b)\nmailto:bob@example.org\n", "\(fromStdin)")
        let file = harness.desktop.root + "/text.txt"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let json = try harness.run([harness.openurl, "extract", "--json", file])
        let first = try #require(json.stdout.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(object["url"] as? String == "https://zoom.us/j/123")
        #expect(object["start"] as? Int == 9)
        #expect(object["end"] as? Int == 30)
    }

    @Test func extractOpenRoutesEachLinkAndGuardsFloods() throws {
        let harness = try DaemonHarness(config: Self.config, name: "extractopen")
        let result = try Command.run([harness.openurl, "extract", "--open"], environment: harness.environment,
                                     stdin: "a https://zoom.us/j/9 b https://example.org/x")
        #expect(result.status == 0, "\(result)")
        #expect(Set(harness.browser.waitForRecords(2)) == [["--work", "https://zoom.us/j/9"], ["https://example.org/x"]])
        let many = (0..<11).map { "https://example.org/\($0)" }.joined(separator: " ")
        let refused = try Command.run([harness.openurl, "extract", "--open"], environment: harness.environment, stdin: many)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("pass --all"), "\(refused)")
    }

    @Test func extractReadsThePrimarySelection() throws {
        let display = try VirtualDisplay()
        defer { display.stop() }
        let harness = try DaemonHarness(config: Self.config, name: "selection")
        let env = display.environment(harness.environment)
        let set = try Command.run(["xclip", "-i", "-selection", "primary"], environment: env, stdin: "look: https://example.org/selected")
        #expect(set.status == 0, "\(set)")
        var result = try Command.run([harness.openurl, "extract", "--selection"], environment: env)
        _ = eventually {
            result = (try? Command.run([harness.openurl, "extract", "--selection"], environment: env)) ?? result
            return result.stdout == "https://example.org/selected\n"
        }
        #expect(result.stdout == "https://example.org/selected\n", "\(result)")
    }
}

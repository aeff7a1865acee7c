import ConfigLanguage
import DBus
import Foundation
import TestSupport
import Testing

/// What the settings window (issue 35) asks of the daemon over Router1, on a private bus with the
/// real daemon: forgetting a remembered answer, what each rule matches and where it sends links,
/// and trying a link in a moment other than now.
@Suite(.serialized) struct SettingsContractTests {
    static let config = """
        [[rules]]
        name = "work"
        match.host = "work.example"
        match.path = "/x/*"
        open = "work.desktop"

        [[rules]]
        name = "ask"
        match.domain = "ask.example"
        ask = ["browser.desktop", "work.desktop"]

        [[rules]]
        name = "rest"
        discard = true
        """

    static func answer(_ domain: String, _ choice: String) throws -> String {
        try RememberedRules.ruleText(scope: "domain", value: domain, choice: choice)
    }

    static func explain(_ harness: DaemonHarness, _ url: String, _ options: [(String, DBusValue)] = []) throws -> [String: DBusValue] {
        try harness.call("Explain", [.string(url), .vardict(pairs: options)]).first?.dictionary ?? [:]
    }

    /// The DBusError a call answers with, nil when it succeeded.
    static func refusal(_ body: () throws -> Any) -> DBusError? {
        do { _ = try body() } catch let error as DBusError { return error } catch { Issue.record("\(error)") }
        return nil
    }

    @Test func forgetRememberedCutsTheAnswerOutAndTheNextClickAsks() throws {
        let harness = try DaemonHarness(config: Self.config, name: "forget")
        let path = harness.desktop.configHome + "/openurld/remembered.toml"
        let mine = try Self.answer("ask.example", "work.desktop"), other = try Self.answer("other.example", "copy")
        let text = RememberedRules.adding(other, named: "Remembered: other.example",
                                          to: RememberedRules.adding(mine, named: "Remembered: ask.example", to: nil))
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        _ = try harness.call("Reload")
        #expect(try Self.explain(harness, "https://ask.example/")["rule"]?.string == "Remembered: ask.example")

        _ = try harness.call("ForgetRemembered", [.string("Remembered: ask.example")])
        // In force when the call returns: no waiting for a reload.
        let after = try Self.explain(harness, "https://ask.example/")
        #expect(after["decision"]?.string == "ask" && after["rule"]?.string == "ask", "\(after)")
        // The file is as if the answer had never been given, and still private.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == RememberedRules.adding(other, named: "Remembered: other.example", to: nil))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let names = try harness.call("DescribeRules").first?.array?.compactMap { $0.dictionary?["name"]?.string } ?? []
        #expect(names == ["Remembered: other.example", "work", "ask", "rest"])

        let unknown = Self.refusal { try harness.call("ForgetRemembered", [.string("nope")]) }
        #expect(unknown?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(unknown?.message == "no remembered answer named \"nope\" (remembered: \"Remembered: other.example\")")
        let rule = Self.refusal { try harness.call("ForgetRemembered", [.string("work")]) }
        #expect(rule?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(rule?.message.contains("\"work\" is a rule of your configuration (\(harness.configPath):1), not a remembered answer") == true, "\(String(describing: rule))")

        // The command line: forget, then an unknown name is a usage error (exit 2), as rules disable's.
        let forget = try harness.run([harness.openurl, "rules", "forget", "Remembered: other.example"])
        #expect(forget.status == 0 && forget.stdout.contains("forgot \"Remembered: other.example\""), "\(forget)")
        #expect(try Self.explain(harness, "https://other.example/")["decision"]?.string == "discard")
        let again = try harness.run([harness.openurl, "rules", "forget", "Remembered: other.example"])
        #expect(again.status == 2 && again.stderr.contains("(remembered: none)"), "\(again)")
    }

    @Test func forgetRememberedReplacesALinkAndNeverWritesThroughIt() throws {
        let harness = try DaemonHarness(config: Self.config, name: "forgetlink")
        let path = harness.desktop.configHome + "/openurld/remembered.toml"
        let elsewhere = harness.desktop.root + "/dotfiles-remembered.toml"
        let text = RememberedRules.adding(try Self.answer("ask.example", "work.desktop"), named: "Remembered: ask.example", to: nil)
        try text.write(toFile: elsewhere, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: elsewhere)
        _ = try harness.call("Reload")
        _ = try harness.call("ForgetRemembered", [.string("Remembered: ask.example")])
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == text)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == RememberedRules.header)
    }

    @Test func describeRulesSaysWhatEachRuleMatchesAndWhereItSends() throws {
        let harness = try DaemonHarness(config: Self.config, name: "describematch")
        let rules = try #require(try harness.call("DescribeRules").first?.array?.compactMap(\.dictionary))
        let shown = rules.map { [$0["name"]?.string ?? "?", $0["match"]?.string ?? "?", $0["target"]?.string ?? "?"] }
        #expect(shown == [
            ["work", "host = \"work.example\", path = \"/x/*\"", "work.desktop"],
            ["ask", "domain = \"ask.example\"", ""],
            ["rest", "", ""],
        ])
    }

    static let momentConfig = """
        [[rules]]
        name = "corp"
        match.network = "CorpWiFi"
        open = "work.desktop"

        [[rules]]
        name = "slack"
        match.domain = "chat.example"
        match.opener = "slack"
        discard = true

        [default]
        open = "browser.desktop"
        """

    @Test func explainTakesTheMomentAsOpenurlTestDoes() throws {
        // No NetworkManager: the daemon sees no network, so only the given moment can match.
        let system = try PrivateBus()
        let harness = try DaemonHarness(config: Self.momentConfig, name: "explainmoment", session: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        let url = "https://intranet.example/"
        let test = try harness.run([harness.openurl, "test", "--network", "CorpWiFi", "--json", url])
        #expect(test.status == 0, "\(test)")
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(test.stdout.utf8)) as? [String: Any])
        let given = try Self.explain(harness, url, [("moment", .vardict(pairs: [("network", .string("CorpWiFi"))]))])
        #expect(given["decision"]?.string == printed["decision"] as? String)
        #expect(given["target"]?.string == printed["target"] as? String)
        #expect(given["rule"]?.string == printed["rule"] as? String)
        #expect(given["rule"]?.string == "corp" && given["target"]?.string == "work.desktop", "\(given)")

        let seen = try Self.explain(harness, url)
        #expect(seen["rule"] == nil && seen["target"]?.string == "browser.desktop", "\(seen)")

        let bad = Self.refusal { try Self.explain(harness, url, [("moment", .vardict(pairs: [("at", .string("x"))]))]) }
        #expect(bad?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(bad?.message == "Explain: moment at \"x\": expected a local date and time like \"2026-12-01 18:30\"")
        let testBad = try harness.run([harness.openurl, "test", "--at", "x", url])
        #expect(testBad.stderr.contains("test: --at \"x\": expected a local date and time like \"2026-12-01 18:30\""), "\(testBad)")

        // A click is never carried out in a made-up moment; a dry run may be.
        let open = Self.refusal { try harness.call("Open", [.string(url), .vardict(pairs: [("moment", .vardict(pairs: [("network", .string("CorpWiFi"))]))])]) }
        #expect(open?.name == "org.freedesktop.DBus.Error.InvalidArgs", "\(String(describing: open))")
        let dry = try harness.call("Open", [.string(url), .vardict(pairs: [("dry-run", .bool(true)), ("moment", .vardict(pairs: [("network", .string("CorpWiFi"))]))])])
        #expect(dry.first?.dictionary?["rule"]?.string == "corp")

        // Explain honours the opener it is given.
        #expect(try Self.explain(harness, "https://chat.example/", [("opener", .string("slack"))])["rule"]?.string == "slack")
        #expect(try Self.explain(harness, "https://chat.example/")["rule"] == nil)
    }
}

import DBus
import Foundation
import TestSupport
import Testing

/// Issue 36 through the real daemon and embedded mode: link text read as a person reads it
/// (invisible characters, other full stops, a scheme it names), a trusted domain in front of
/// another, and `openurl extract` giving one link per Markdown or HTML link, with its text as
/// context and its verdict.
@Suite(.serialized) struct TrustWhatIsSeenTests {
    static func config(_ settings: String = "") -> String { SafetyIntegrationTests.config(settings) }

    func open(_ harness: DaemonHarness, _ url: String, linkText: String? = nil) throws -> [String: DBusValue] {
        let options: [(String, DBusValue)] = linkText.map { [("context", .vardict(pairs: [("link-text", .string($0))]))] } ?? []
        return try harness.call("Open", [.string(url), .vardict(pairs: options)]).first?.dictionary ?? [:]
    }

    func recent(_ harness: DaemonHarness) throws -> [[String: DBusValue]] {
        try harness.call("Recent", [.uint32(0)]).first?.array?.compactMap(\.dictionary) ?? []
    }

    /// Embedded mode (`openurl test`) reads the text as the reader sees it.
    @Test(arguments: ["paypal\u{200B}.com", "paypal\u{200C}.com", "paypal\u{200D}.com", "paypal\u{3002}com", "paypal\u{FF0E}com",
                      "https://www.paypal\u{FF61}com/", "http://paypal .com"])
    func invisibleCharactersDoNotHideTheDomain(_ text: String) throws {
        let harness = try DaemonHarness(config: Self.config(), name: "seentext")
        let tested = try harness.run([harness.openurl, "test", "--json", "--link-text", text, "https://evil.example/"])
        #expect(tested.stdout.contains("\"kind\":\"link-text-mismatch\""), "\(tested)")
        #expect(tested.stdout.contains("but goes to evil.example"), "\(tested)")
    }

    /// Text naming https for an http link of the same site is only ever a notification, even
    /// with `safety = "block"`; another site named is held.
    @Test func aSchemeMismatchOnlyNotifies() throws {
        let harness = try DaemonHarness(config: Self.config("safety = \"block\""), name: "seenscheme", withDesktopSession: true)
        let server = try #require(harness.notifications)
        let reply = try open(harness, "http://www.paypal.com/login", linkText: "https://www.paypal.com/login")
        #expect(reply["decision"]?.string == "open", "\(reply)")
        let safety = reply["safety"]?.dictionary ?? [:]
        #expect(safety["verdict"]?.string == "warn" && safety["action"]?.string == "notify", "\(safety)")
        #expect(safety["reasons"]?.array?.first?.dictionary?["kind"]?.string == "link-text-scheme")
        #expect(harness.browser.waitForRecords(1) == [["--work", "http://www.paypal.com/login"]])
        let notes = try SafetyIntegrationTests().shown(server, count: 1)
        #expect(notes.contains { $0.body.contains("the link says https:// but goes to http://www.paypal.com") }, "\(notes.map(\.body))")
        let held = try open(harness, "http://evil.example/", linkText: "https://paypal.com")
        #expect(held["decision"]?.string == "held", "\(held)")
    }

    /// `www.paypal.com.evil.example`: the rule's domain in front of another one is held under
    /// `safety = "block"`, a top site's warns by default; the real site opens as ever.
    @Test func aTrustedDomainInFrontOfAnotherIsNamed() throws {
        let harness = try DaemonHarness(config: Self.config("safety = \"block\""), name: "seenembed")
        let held = try open(harness, "https://www.paypal.com.evil.example/signin")
        #expect(held["decision"]?.string == "held", "\(held)")
        #expect(held["outcome"]?.string == "held: www.paypal.com.evil.example: starts with paypal.com, which your rule 'Pay' opens in work.desktop, but the site is evil.example", "\(held)")
        let top = try harness.run([harness.openurl, "test", "--json", "https://google-com.login.evil.example/"])
        #expect(top.stdout.contains("\"kind\":\"target-embedding\"") && top.stdout.contains("starts with google.com, but the site is evil.example"), "\(top)")
        #expect(try open(harness, "https://www.paypal.com/signin")["decision"]?.string == "open")
        #expect(harness.browser.waitForRecords(1) == [["--work", "https://www.paypal.com/signin"]])
        #expect(try harness.outcomes(of: "https://www.paypal.com.evil.example/signin").allSatisfy { $0.hasPrefix("held: ") })
    }

    /// One link per Markdown or HTML link, carrying its text and verdict.
    @Test func extractGivesOneLinkPerMarkupLinkWithItsVerdict() throws {
        let harness = try DaemonHarness(config: Self.config(), name: "seenextract")
        let file = harness.desktop.root + "/mail.txt"
        try "Pay: [paypal.com](https://evil.example/pay) or <a href=\"https://www.paypal.com/\">https://www.paypal.com/</a>; docs at debian.org"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let listed = try harness.run([harness.openurl, "extract", file])
        #expect(listed.stdout.split(separator: "\n") == ["https://evil.example/pay", "https://www.paypal.com/", "http://debian.org"], "\(listed)")
        let result = try harness.run([harness.openurl, "extract", "--json", file])
        let objects = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 3, "\(result)")
        let verdicts = objects.map { (($0["safety"] as? [String: Any])?["verdict"] as? String) ?? "none" }
        #expect(verdicts == ["warn", "safe", "safe"], "\(result.stdout)")
        let reasons = (objects.first?["safety"] as? [String: Any])?["reasons"] as? [[String: Any]]
        #expect(reasons?.first?["kind"] as? String == "link-text-mismatch", "\(objects.first ?? [:])")
    }

    /// `extract --open` passes each link's text as context: under `safety = "block"` the
    /// Markdown link's target is held, the link text is not opened as a link of its own, and
    /// the plain link opens. The daemon, then embedded mode with no session bus.
    @Test func extractOpenCarriesTheLinkText() throws {
        let harness = try DaemonHarness(config: Self.config("safety = \"block\""), name: "seenopen")
        let file = harness.desktop.root + "/mail.txt"
        try "[paypal.com](https://evil.example/pay) and https://docs.example/".write(toFile: file, atomically: true, encoding: .utf8)
        let opened = try harness.run([harness.openurl, "extract", "--open", file])
        #expect(opened.status == 0, "\(opened)")
        #expect(harness.browser.waitForRecords(1) == [["https://docs.example/"]])
        #expect(try harness.outcomes(of: "https://evil.example/pay").first?.hasPrefix("held: evil.example: the link says paypal.com") == true,
                "\((try? recent(harness)) ?? [])")
        #expect(try harness.outcomes(of: "http://paypal.com").isEmpty)

        let embedded = try harness.run([harness.openurl, "extract", "--open", file], extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        #expect(harness.browser.waitForRecords(2) == [["https://docs.example/"], ["https://docs.example/"]], "\(embedded)")
        #expect(!harness.browser.records().contains(["https://evil.example/pay"]) && !harness.browser.records().contains(["http://paypal.com"]),
                "\(harness.browser.records())")
    }
}

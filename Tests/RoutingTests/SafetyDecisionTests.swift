import LinkSafety
import Testing
import URLModel
@testable import RoutingCore
@testable import TOML
@testable import ConfigLanguage
@testable import Routing
@testable import JSON

/// Issue 23: the safety verdict in every decision, and what the policy makes of it.
@Suite struct SafetyDecisionTests {
    static let baseConfig = """
        [default]
        open = "firefox.desktop"

        [[rules]]
        name = "Pay"
        match.domain = "paypal.com"
        open = "chromium.desktop"

        [[rules]]
        match.host = "*.bank.example"
        copy = true

        [[rules]]
        name = "careful"
        match.domain = "careful.example"
        open = "firefox.desktop"
        safety = "block"

        [[rules]]
        name = "relaxed"
        match.domain = "relaxed.example"
        open = "firefox.desktop"
        safety = "off"

        [[rules]]
        name = "chooser"
        match.domain = "choose.example"
        ask = ["firefox.desktop", "copy"]

        [[rules]]
        name = "mail"
        match.scheme = "mailto"
        match.to = "*@corp.example"
        open = "gmail"
        """

    /// An engine over `baseConfig` with `settings` in front, and a small block list.
    static func engine(settings: String = "") throws -> RuleEngine {
        var config = try ConfigLoader.load(text: settings + "\n" + baseConfig, path: "config.toml")
        // As ConfigFile attaches lists for "auto" (the default); `blocklists = []` attaches none.
        if config.settings.blocklists == .auto {
            config.blockLists = [BlockList(name: "test list", text: "||malware.example^\n||careful.example/bad^\n")]
        }
        return RuleEngine(config: config)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var url: String
        var linkText: String? = nil
        var verdict: String
        var action: SafetyAction
        var decision: Decision.Kind
        var settings = ""
        var testDescription: String { "\(url)\(linkText.map { " shown as \($0)" } ?? "")\(settings.isEmpty ? "" : " [\(settings)]")" }
    }

    /// The verdict each decision carries, and what the policy did with it.
    @Test(arguments: [
        Case(url: "https://example.org/", verdict: "safe", action: .none, decision: .open),
        Case(url: "https://www.paypal.com/", verdict: "safe", action: .none, decision: .open),
        Case(url: "https://b\u{FC}cher.de/", verdict: "safe", action: .none, decision: .open),
        // Look-alikes of the rules' domains, an IDN spoof, link text naming another domain: warn.
        Case(url: "https://paypa1.com/login", verdict: "warn", action: .notify, decision: .open),
        Case(url: "https://xn--pypal-4ve.com/", verdict: "warn", action: .notify, decision: .open),
        Case(url: "https://evil.example/", linkText: "paypal.com", verdict: "warn", action: .notify, decision: .open),
        Case(url: "https://www.paypal.com/", linkText: "paypal.com", verdict: "safe", action: .none, decision: .open),
        Case(url: "https://paypal.com@evil.example/", verdict: "warn", action: .notify, decision: .open),
        // A copy rule's link is a look-alike of the copy rule's own domain: copied, with a warning.
        Case(url: "https://www.bank.example/", linkText: "paypal.com", verdict: "warn", action: .notify, decision: .copy),
        // A block list names it: held under every policy but off.
        Case(url: "https://malware.example/x", verdict: "block", action: .hold, decision: .held),
        Case(url: "https://sub.malware.example/x", verdict: "block", action: .hold, decision: .held, settings: "[settings]\nsafety = \"ask\""),
        Case(url: "https://malware.example/x", verdict: "safe", action: .none, decision: .open, settings: "[settings]\nsafety = \"off\""),
        Case(url: "https://malware.example/x", verdict: "safe", action: .none, decision: .open, settings: "[settings]\nblocklists = []"),
        Case(url: "https://malware.example/x", verdict: "safe", action: .none, decision: .open,
             settings: "[settings]\nsafety_checks = [\"idn\", \"lookalikes\", \"link_text\"]"),
        // The policy: ask turns a warned open into an ask, block holds it, off runs nothing.
        Case(url: "https://paypa1.com/", verdict: "warn", action: .ask, decision: .ask, settings: "[settings]\nsafety = \"ask\""),
        Case(url: "https://paypa1.com/", verdict: "warn", action: .hold, decision: .held, settings: "[settings]\nsafety = \"block\""),
        Case(url: "https://paypa1.com/", verdict: "safe", action: .none, decision: .open, settings: "[settings]\nsafety = \"off\""),
        Case(url: "https://paypa1.com/", verdict: "safe", action: .none, decision: .open, settings: "[settings]\nsafety_checks = [\"idn\"]"),
        // A rule's own safety overrides the settings.
        Case(url: "https://careful.example/", linkText: "paypal.com", verdict: "warn", action: .hold, decision: .held),
        Case(url: "https://careful.example/bad", verdict: "block", action: .hold, decision: .held),
        Case(url: "https://relaxed.example/", linkText: "paypal.com", verdict: "warn", action: .none, decision: .open),
        // An ask already asks: the chooser shows the verdict, the policy changes nothing.
        Case(url: "https://choose.example/", linkText: "paypal.com", verdict: "warn", action: .none, decision: .ask),
        // A mailto is judged by its recipients' domains (the webmail compose URL is not).
        Case(url: "mailto:boss@corp.example", verdict: "safe", action: .none, decision: .open),
        Case(url: "mailto:someone@paypa1.com", verdict: "warn", action: .notify, decision: .open),
    ])
    func verdictsInDecisions(_ test: Case) throws {
        let engine = try Self.engine(settings: test.settings)
        let decision = try engine.decide(test.url, context: test.linkText.map { LinkContext(linkText: $0) })
        #expect(decision.safety.verdict.name == test.verdict, "\(decision.safety.json.text)")
        #expect(decision.safety.action == test.action, "\(decision.safety.json.text)")
        #expect(decision.kind == test.decision, "\(decision.effect)")
        // The explained decision (no index) carries the same verdict.
        let explained = try engine.decide(test.url, explain: true, context: test.linkText.map { LinkContext(linkText: $0) })
        #expect(explained.safety == decision.safety)
    }

    @Test func aHeldLinkKeepsWhatOpenAnywayDoes() throws {
        let engine = try Self.engine(settings: "[settings]\nsafety = \"block\"")
        let decision = try engine.decide("https://paypa1.com/x")
        guard case .held(.open(let target, let launch)) = decision.effect else { Issue.record("\(decision.effect)"); return }
        #expect(target.description == "firefox.desktop")
        #expect(launch == .desktopEntry(id: "firefox.desktop", action: nil, url: "https://paypa1.com/x"))
        #expect(decision.target?.description == "firefox.desktop")
        #expect(decision.launch == nil, "nothing is launched until Open anyway")
        let released = decision.releasingHold()
        #expect(released.kind == .open)
        #expect(released.launch == launch)
        // A held copy keeps its text.
        let copy = try engine.decide("https://www.bank.example/", context: LinkContext(linkText: "paypal.com"))
        #expect(copy.kind == .held)
        #expect(copy.copyText == "https://www.bank.example/")
        #expect(copy.releasingHold().kind == .copy)
    }

    /// Issue 26's pending questions keep no verdict: one asked again after a restart is judged
    /// again with the checks in force, so its window still warns about a look-alike.
    @Test func aQuestionAskedAgainIsJudgedAgain() throws {
        let engine = try Self.engine(settings: "[settings]\nsafety = \"ask\"")
        let again = engine.judgedAgain("https://xn--pypal-4ve.com/")
        #expect(again.verdict.name == "warn", "\(again)")
        #expect(again.shownHost == "xn--pypal-4ve.com")
        #expect(engine.judgedAgain("https://example.org/").verdict == .safe)
        #expect(engine.judgedAgain("not a url") == .unchecked)
    }

    @Test func askingInsteadOffersTheDecidedTargetFirst() throws {
        let engine = try Self.engine(settings: "[settings]\nsafety = \"ask\"")
        let open = try engine.decide("https://paypa1.com/")
        #expect(open.choices.first?.key == "firefox.desktop", "\(open.choices.map(\.key))")
        #expect(open.choices.contains { $0.key == "copy" })
        let copy = try engine.decide("https://www.bank.example/", context: LinkContext(linkText: "paypal.com"))
        #expect(copy.choices.first?.key == "copy", "\(copy.choices.map(\.key))")
        // Not a forced ask: dedupe still applies and the rule that decided is kept.
        guard case .ask(_, let forced) = open.effect else { Issue.record("\(open.effect)"); return }
        #expect(!forced)
    }

    @Test(arguments: [
        ("https://paypa1.com/", "paypa1.com", false),
        ("https://xn--pypal-4ve.com/", "xn--pypal-4ve.com", false),
        ("https://b\u{FC}cher.de/", "b\u{FC}cher.de", true),
        ("https://example.org/", "example.org", true),
        ("mailto:a@b\u{FC}cher.de", nil, true),
    ] as [(String, String?, Bool)])
    func theShownHostCannotMislead(url: String, shown: String?, unicode: Bool) throws {
        let decision = try Self.engine().decide(url)
        #expect(decision.safety.shownHost == shown)
        #expect(decision.safety.showsUnicode == unicode)
    }

    @Test func withTheIDNCheckOffHostsAreShownInASCII() throws {
        let engine = try Self.engine(settings: "[settings]\nsafety_checks = [\"lookalikes\", \"link_text\", \"blocklists\"]")
        let decision = try engine.decide("https://b\u{FC}cher.de/")
        #expect(decision.safety.verdict == .safe)
        #expect(decision.safety.shownHost == "xn--bcher-kva.de")
        #expect(!decision.safety.showsUnicode)
        let off = try Self.engine(settings: "[settings]\nsafety = \"off\"").decide("https://b\u{FC}cher.de/")
        #expect(off.safety.shownHost == "xn--bcher-kva.de")
        #expect(!off.trace.contains { if case .safety = $0 { return true } else { return false } }, "off: no safety step")
    }

    @Test func theTraceSaysWhatWasFoundWhereTheRuleDecided() throws {
        let decision = try Self.engine(settings: "[settings]\nsafety = \"block\"").decide("https://paypa1.com/", explain: true)
        let lines = decision.trace.map(\.text)
        let step = try #require(lines.firstIndex { $0.hasPrefix("safety: warn") }, "\(lines)")
        #expect(lines[step - 1] == "no rule matched: [default]")
        #expect(lines[step].contains("paypa1.com: looks like paypal.com, which your rule 'Pay' opens in chromium.desktop"), "\(lines[step])")
        #expect(lines[step].contains("held, with Open anyway"))
        let safe = try Self.engine().decide("https://example.org/", explain: true)
        #expect(safe.trace.last?.text == "safety: safe")
    }

    @Test func theSafetyObjectNamesVerdictPolicyAndAction() throws {
        let decision = try Self.engine().decide("https://evil.example/", context: LinkContext(linkText: "paypal.com", originURL: "https://mail.example/inbox"))
        let json = decision.safety.json
        #expect(json["verdict"]?.string == "warn")
        #expect(json["shown_host"]?.string == "evil.example")
        #expect(json["policy"]?.string == "warn")
        #expect(json["action"]?.string == "notify")
        #expect(json["link_text"]?.string == "paypal.com")
        #expect(json["origin_url"]?.string == "https://mail.example/inbox")
        #expect(json["reasons"]?.items?.first?["kind"]?.string == "link-text-mismatch")
        #expect(json["summary"]?.string == "evil.example: the link says paypal.com but goes to evil.example")
        let blocked = try Self.engine().decide("https://malware.example/").safety.json
        #expect(blocked["block"]?["list"]?.string == "test list")
        #expect(blocked["block"]?["entry"]?.string == "||malware.example^")
    }

    @Test func answersAreJudgedButNotHeld() throws {
        let engine = try Self.engine(settings: "[settings]\nsafety = \"block\"")
        let chosen = try engine.decide(choice: .open(.system), for: "https://malware.example/")
        #expect(chosen.kind == .system)
        #expect(chosen.safety.verdict.name == "block")
        #expect(chosen.safety.action == .none)
        #expect(chosen.safety.shownHost == "malware.example")
    }

    @Test func aForcedAskCarriesTheVerdict() throws {
        let decision = try Self.engine().decide("https://paypa1.com/", forceAsk: true)
        #expect(decision.kind == .ask)
        #expect(decision.safety.verdict.name == "warn")
        #expect(decision.safety.action == .none)
    }

    @Test func aClearURLsBlockAndARefusedSchemeAreJudgedToo() throws {
        let refused = try Self.engine().decide("gopher://paypa1.com/")
        #expect(refused.error != nil)
        #expect(refused.safety.verdict.name == "warn")
        #expect(refused.safety.action == .none)
    }
}

/// The domains that matter to the user: from the rules (with what each rule does), remembered
/// answers, and sites visited.
@Suite struct KnownDomainsFromConfigTests {
    @Test func theRulesDomainsAreKnownWithWhatTheirRuleDoes() throws {
        var config = try ConfigLoader.load(text: SafetyDecisionTests.baseConfig + """

            [[rules]]
            match.host = ["exact.example.net", "*.wild*.example", "shop.example.?"]
            discard = true
            """, path: "config.toml")
        config = try ConfigLoader.loadRemembered(text: """
            [[rules]]
            name = "Remembered: google.com"
            match.domain = "google.com"
            open = "work.desktop"
            """, path: "remembered.toml", into: config)
        let known = config.knownDomains
        #expect(known.map(\.domain) == ["google.com", "paypal.com", "bank.example", "careful.example", "relaxed.example", "choose.example",
                                        "corp.example", "exact.example.net"])
        let describe = Dictionary(known.map { ($0.domain, $0.description) }, uniquingKeysWith: { a, _ in a })
        #expect(describe["google.com"] == "your remembered choice opens in work.desktop")
        #expect(describe["paypal.com"] == "your rule 'Pay' opens in chromium.desktop")
        #expect(describe["bank.example"] == "your rule #2 copies")
        #expect(describe["choose.example"] == "your rule 'chooser' asks about")
        #expect(describe["corp.example"] == "your rule 'mail' opens in gmail")
        #expect(describe["exact.example.net"] == "your rule #7 discards")
        let verdict = RuleEngine(config: config).decide(choiceURL: "https://goog1e.com/")
        #expect(verdict.summary?.contains("looks like google.com, which your remembered choice opens in work.desktop") == true, "\(verdict)")
    }

    @Test func visitedSitesJoinButLookAlikesDoNot() throws {
        var engine = try SafetyDecisionTests.engine()
        let added = engine.addVisited(hosts: ["www.google.com", "mail.google.com", "xn--pypal-4ve.com", "paypa1.com", "news.ycombinator.com", "localhost"])
        #expect(added == ["google.com", "ycombinator.com"], "\(added)")
        let decision = try engine.decide("https://goog1e.com/")
        #expect(decision.safety.verdict.name == "warn")
        #expect(decision.safety.summary?.contains("looks like google.com, which you opened recently") == true, "\(decision.safety.summary ?? "")")
        #expect(try engine.decide("https://google.com/").safety.isSafe)
        #expect(try engine.decide("https://news.ycornbinator.com/").safety.verdict.name == "warn")
        // A toggle keeps the sites visited.
        let toggled = engine.applyingToggles([(identity: "name:Pay", enabled: false)]).engine
        #expect(try toggled.decide("https://goog1e.com/").safety.verdict.name == "warn")
        // With the look-alike check off nothing is learnt.
        var off = try SafetyDecisionTests.engine(settings: "[settings]\nsafety_checks = [\"idn\"]")
        #expect(off.addVisited(hosts: ["google.com"]).isEmpty)
    }
}

/// The safety keys in the config: values, errors at their line and column, suggestions.
@Suite struct SafetyConfigTests {
    @Test func theDefaultsAreWarnAllChecksAndAutoLists() throws {
        let settings = try ConfigLoader.load(text: "", path: "c.toml").settings
        #expect(settings.safety == .warn)
        #expect(settings.safetyChecks == .all)
        #expect(settings.blocklists == .auto)
    }

    @Test func valuesAreRead() throws {
        let config = try ConfigLoader.load(text: """
            [settings]
            safety = "ask"
            safety_checks = ["idn", "link_text"]
            blocklists = ["~/lists/a.txt", "/etc/hosts.block"]

            [[rules]]
            match.domain = "x.example"
            open = "system"
            safety = "off"
            """, path: "c.toml")
        #expect(config.settings.safety == .ask)
        #expect(config.settings.safetyChecks == SafetyChecks(idn: true, lookalikes: false, linkText: true, blocklists: false))
        #expect(config.settings.blocklists == .files([BlockListFile(path: "~/lists/a.txt", position: SourcePosition(line: 4, column: 15)),
                                                      BlockListFile(path: "/etc/hosts.block", position: SourcePosition(line: 4, column: 32))]))
        #expect(config.rules.first?.safety == SafetyPolicy.off)
    }

    @Test(arguments: [
        ("[settings]\nsafety = \"wran\"", "c.toml:2:10: settings.safety: unknown safety policy \"wran\" (expected one of warn, ask, block, off); did you mean \"warn\"?"),
        ("[settings]\nsafety = true", "c.toml:2:10: settings.safety: expected a string"),
        ("[settings]\nsafety_checks = [\"idn\", \"lookalike\"]", "c.toml:2:25: settings.safety_checks: unknown check \"lookalike\" (known: idn, lookalikes, link_text, blocklists); did you mean \"lookalikes\"?"),
        ("[settings]\nblocklists = \"everything\"", "c.toml:2:14: settings.blocklists: expected \"auto\" or a list of files (uBlock filter lists or hosts files), found \"everything\""),
        ("[settings]\nblocklists = [\"\"]", "c.toml:2:15: settings.blocklists: an empty path; give a file, or remove the entry"),
        ("[settings]\nsafty = \"warn\"", "did you mean \"safety\"?"),
        ("[[rules]]\nopen = \"system\"\nsafety = \"maybe\"", "c.toml:3:10: rules.safety: unknown safety policy \"maybe\""),
    ])
    func errorsNameTheLineAndTheKey(text: String, expected: String) {
        do {
            _ = try ConfigLoader.load(text: text, path: "c.toml")
            Issue.record("loaded")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }
}

extension RuleEngine {
    /// The verdict on `url` alone (the link as clicked, no rules).
    func decide(choiceURL url: String) -> DecisionSafety {
        (try? decide(choice: .copy, for: url).safety) ?? .unchecked
    }
}

extension SafetyDecisionTests {
    /// A mail warning names the address it is about (it said only "looks like paypal.com").
    @Test(arguments: [
        ("mailto:billing@paypa1.com", "billing@paypa1.com: looks like paypal.com"),
        ("mailto:ok@example.org?cc=billing@paypa1.com", "billing@paypa1.com: looks like paypal.com"),
        ("mailto:a@paypa1.com,b@paypa1.com", "a@paypa1.com, b@paypa1.com: looks like paypal.com"),
    ])
    func aMailWarningNamesTheAddress(url: String, summary: String) throws {
        let decision = try Self.engine().decide(url)
        #expect(decision.safety.summary?.hasPrefix(summary) == true, "\(decision.safety.summary ?? "safe")")
    }
}

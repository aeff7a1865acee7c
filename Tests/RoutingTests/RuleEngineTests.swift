import Testing
@testable import RoutingCore
@testable import ConfigLanguage
@testable import Routing
@testable import URLModel

@Suite struct RuleEngineTests {
    static let engine: RuleEngine = {
        do { return try RuleEngine.reading(designConfig) } catch {
            fatalError("design config failed: \(error)")
        }
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        var url: String
        var opener: String? = nil
        var decision: Decision.Kind
        var target: String? = nil
        var rule: String? = nil
        var finalURL: String? = nil
        var copyText: String? = nil
        var testDescription: String { url + (opener.map { " from \($0)" } ?? "") }
    }

    /// The design's example config, decided exactly as its comments describe.
    @Test(arguments: [
        Case(url: "mailto:boss@corp.example.com?subject=Q3", decision: .open, target: "firefox.desktop",
             rule: "Work mail in Outlook on the web",
             finalURL: "https://outlook.live.com/mail/0/deeplink/compose?to=boss%40corp.example.com&subject=Q3"),
        Case(url: "mailto:friend@example.net?subject=Hi", decision: .copy, rule: "Other mail: copy the address", copyText: "friend@example.net"),
        Case(url: "mailto:a@x.org,b@y.org", decision: .copy, rule: "Other mail: copy the address", copyText: "a@x.org, b@y.org"),
        Case(url: "https://zoom.us/j/123456?pwd=abc", decision: .open, target: "Zoom.desktop", rule: "Zoom meetings in the app"),
        Case(url: "https://us04web.zoom.us/j/987", decision: .open, target: "Zoom.desktop", rule: "Zoom meetings in the app"),
        Case(url: "https://notzoom.us/j/987", decision: .open, target: "firefox.desktop"),
        Case(url: "https://zoom.us/pricing", decision: .open, target: "firefox.desktop"),
        Case(url: "https://github.com/", opener: "slack", decision: .open, target: "work", rule: "Links from Slack at work"),
        Case(url: "https://github.com/", opener: "com.slack.Slack.desktop", decision: .open, target: "firefox.desktop"),
        Case(url: "https://www.facebook.com/x", decision: .discard, rule: "#5"),
        Case(url: "https://fb.com/", decision: .discard, rule: "#5"),
        Case(url: "https://example.org/page", decision: .ask, rule: "#6"),
        Case(url: "https://twitter.com/jack", decision: .open, target: "firefox.desktop", finalURL: "https://x.com/jack"),
        Case(url: "https://www.twitter.com/jack", decision: .open, target: "firefox.desktop", finalURL: "https://x.com/jack"),
        Case(url: "file:///etc/passwd", decision: .discard),
        Case(url: "javascript:alert(1)", decision: .discard),
        Case(url: "data:text/html,hi", decision: .discard),
        Case(url: "gopher://x.org/", decision: .discard),
    ])
    func decidesTheDesignExample(testCase: Case) throws {
        let opener = testCase.opener.map { Opener(processName: $0) }
        for explain in [false, true] {
            let decision = try Self.engine.decide(testCase.url, opener: opener, explain: explain)
            #expect(decision.kind == testCase.decision)
            #expect(decision.target?.description == testCase.target)
            #expect(decision.rule?.description == testCase.rule)
            if let finalURL = testCase.finalURL { #expect(decision.finalURL == finalURL) }
            #expect(decision.copyText == testCase.copyText)
        }
    }

    @Test func refusedSchemesSayHowToAllowThem() throws {
        let decision = try Self.engine.decide("file:///etc/passwd")
        #expect(decision.error == "scheme \"file\" is not routed; to allow it, add a rule with match.scheme = \"file\"")
        let allowing = try ConfigLoader.load(text: "[[rules]]\nmatch.scheme = \"file\"\nopen = \"files.desktop\"\n", path: "c")
        #expect(try RuleEngine(config: allowing).decide("file:///etc/passwd").kind == .open)
    }

    @Test func noConfigMeansSystem() throws {
        let decision = try RuleEngine(config: Config()).decide("https://example.org/")
        #expect(decision.kind == .system)
        #expect(decision.launch == .system(url: "https://example.org/"))
        #expect(decision.rule == nil)
    }

    @Test func namedAppsSubstituteTheURLAsOneArgument() throws {
        let decision = try Self.engine.decide("https://github.com/a b$(x)", opener: Opener(processName: "slack"))
        #expect(decision.launch == .desktopEntryWithArguments(id: "google-chrome.desktop", arguments: ["--profile-directory=Profile 1", "https://github.com/a%20b$(x)"]))
    }

    @Test func desktopActionsAreKept() throws {
        let config = try ConfigLoader.load(text: "[[rules]]\nmatch.domain = \"x.org\"\nopen = \"firefox.desktop:new-private-window\"\n", path: "c")
        let decision = try RuleEngine(config: config).decide("https://x.org/")
        #expect(decision.launch == .desktopEntry(id: "firefox.desktop", action: "new-private-window", url: "https://x.org/"))
    }

    @Test(arguments: [
        ("gmail", "https://mail.google.com/mail/?view=cm&fs=1&to=a%40x.org%2Cb%40y.org&cc=c%40x.org&su=Hi%20%26%20bye&body=L1%0AL2"),
        ("outlook", "https://outlook.live.com/mail/0/deeplink/compose?to=a%40x.org%2Cb%40y.org&cc=c%40x.org&subject=Hi%20%26%20bye&body=L1%0AL2"),
        ("office365", "https://outlook.office.com/mail/deeplink/compose?to=a%40x.org%2Cb%40y.org&cc=c%40x.org&subject=Hi%20%26%20bye&body=L1%0AL2"),
        ("fastmail", "https://app.fastmail.com/mail/compose?to=a%40x.org%2Cb%40y.org&cc=c%40x.org&subject=Hi%20%26%20bye&body=L1%0AL2"),
        ("yahoo", "https://compose.mail.yahoo.com/?to=a%40x.org%2Cb%40y.org&cc=c%40x.org&subject=Hi%20%26%20bye&body=L1%0AL2"),
        ("proton", "https://mail.proton.me/u/0/inbox#mailto=mailto%3Aa%40x.org%2Cb%40y.org%3Fcc%3Dc%40x.org%26subject%3DHi%2520%2526%2520bye%26body%3DL1%250AL2"),
        ("corp", "https://mail.corp.example/compose?rcpt=a%40x.org%2Cb%40y.org&s=Hi%20%26%20bye"),
    ])
    func webmailComposeURLs(name: String, expected: String) throws {
        let text = "[webmail.corp]\ncompose = \"https://mail.corp.example/compose?rcpt={to}&s={subject}\"\n[[rules]]\nmatch.scheme = \"mailto\"\nopen = \"\(name)\"\n"
        let engine = try RuleEngine.reading(text, path: "c")
        let decision = try engine.decide("mailto:a@x.org,b@y.org?cc=c@x.org&subject=Hi%20%26%20bye&body=L1%0AL2")
        #expect(decision.finalURL == expected)
        #expect(decision.kind == .system)
    }

    @Test func webmailResultIsRoutedAgain() throws {
        let text = "[[rules]]\nmatch.scheme = \"mailto\"\nopen = \"gmail\"\n[[rules]]\nmatch.domain = \"mail.google.com\"\nopen = \"chrome.desktop\"\n"
        let decision = try RuleEngine.reading(text, path: "c").decide("mailto:a@x.org")
        #expect(decision.target == .desktopEntry(id: "chrome.desktop", action: nil))
        #expect(decision.finalURL.hasPrefix("https://mail.google.com/"))
    }

    @Test func webmailLoopsStopAtTheDepthLimit() throws {
        // A compose template that yields another mailto: would loop forever without the limit.
        let text = "[webmail.loop]\ncompose = \"mailto:{to}\"\n[[rules]]\nmatch.scheme = \"mailto\"\nopen = \"loop\"\n"
        let decision = try RuleEngine.reading(text, path: "c").decide("mailto:a@x.org")
        #expect(decision.kind == .discard)
        #expect(decision.error?.contains("routing loop") == true)
    }

    @Test(arguments: [
        ("{url}", "mailto:a@x.org?subject=S%20T"), ("{to}", "a@x.org"), ("{subject}", "S T"),
        ("{scheme}:{host}", "mailto:"), ("to: {to}, cc: {cc}", "to: a@x.org, cc: "),
    ])
    func copyTemplates(template: String, expected: String) throws {
        let text = "[[rules]]\nmatch.scheme = \"mailto\"\ncopy = \"\(template)\"\n"
        let decision = try RuleEngine.reading(text, path: "c").decide("mailto:a@x.org?subject=S%20T")
        #expect(decision.copyText == expected)
        #expect(decision.notify)
    }

    @Test(arguments: [
        ("match.host = \"*.example.com\"", "https://a.example.com/", true),
        ("match.host = \"*.example.com\"", "https://example.com/", false),
        ("match.host = \"bücher.de\"", "https://xn--bcher-kva.de/", true),
        ("match.domain = \"bücher.de\"", "https://shop.bücher.de/", true),
        ("match.path = \"/docs/**\"", "https://x.org/docs/a/b", true),
        ("match.query = { v = \"*\" }", "https://youtube.com/watch?v=abc", true),
        ("match.query = { v = \"*\" }", "https://youtube.com/watch?list=abc", false),
        ("match.query = { q = \"a b\" }", "https://x.org/?q=a+b", true),
        ("match.url = \"https://x.org/*\"", "https://x.org/a", true),
        ("match.url = \"https://x.org/*\"", "https://x.org/a/b", false),
        ("match.regex = \"/issues/[0-9]+$\"", "https://github.com/a/b/issues/42", true),
        ("match.regex = [\"^ftp:\", \"/pull/\"]", "https://github.com/a/b/pull/1", true),
        ("match.to = \"*@corp.example.com\"", "mailto:x@y.org?cc=boss@corp.example.com", true),
        ("match.to = \"*@corp.example.com\"", "https://corp.example.com/", false),
        ("match.opener = \"org.mozilla.Thunderbird\"", "https://x.org/", false),
        ("match.scheme = [\"http\", \"https\"]", "http://x.org/", true),
    ])
    func everyMatcher(matcher: String, url: String, expected: Bool) throws {
        let config = try ConfigLoader.load(text: "[[rules]]\n\(matcher)\ndiscard = true\n", path: "c")
        #expect(try RuleEngine(config: config).decide(url).kind == (expected ? .discard : .system))
    }

    @Test(arguments: [
        (Opener(desktopID: "org.gnome.Evolution"), true), (Opener(desktopID: "org.gnome.Evolution.desktop"), true),
        (Opener(flatpakID: "org.gnome.Evolution"), true), (Opener(processName: "evolution"), false),
    ])
    func openerMatchesDesktopIDsWithOrWithoutSuffix(opener: Opener, expected: Bool) throws {
        for pattern in ["org.gnome.Evolution", "org.gnome.Evolution.desktop"] where !(pattern.hasSuffix(".desktop") && opener.flatpakID != nil) {
            let config = try ConfigLoader.load(text: "[[rules]]\nmatch.opener = \"\(pattern)\"\ndiscard = true\n", path: "c")
            #expect(try RuleEngine(config: config).decide("https://x.org/", opener: opener).kind == (expected ? .discard : .system), "\(pattern)")
        }
    }

    /// Hygiene runs before the rules, so a wrapped, tracked Zoom link still reaches the Zoom rule.
    @Test(arguments: [
        ("", "https://us04web.zoom.us/j/5?pwd=x", "Zoom.desktop"),
        ("[settings]\nclean = false\n", "https://us04web.zoom.us/j/5?utm_source=mail&pwd=x", "Zoom.desktop"),
        ("[settings]\nunwrap = false\n", "https://www.google.com/url?q=https%3A%2F%2Fus04web.zoom.us%2Fj%2F5%3Futm_source%3Dmail%26pwd%3Dx", "firefox.desktop"),
    ])
    func hygieneRunsBeforeTheRules(settings: String, finalURL: String, target: String) throws {
        let text = settings + "[default]\nopen = \"firefox.desktop\"\n[[rules]]\nmatch.domain = \"zoom.us\"\nmatch.path = \"/j/*\"\nopen = \"Zoom.desktop\"\n"
        let engine = try RuleEngine.reading(text, path: "c")
        let wrapped = "https://www.google.com/url?q=https%3A%2F%2Fus04web.zoom.us%2Fj%2F5%3Futm_source%3Dmail%26pwd%3Dx"
        let decision = try engine.decide(wrapped, explain: true)
        #expect(decision.finalURL == finalURL)
        #expect(decision.target?.description == target)
    }

    @Test func aRuleCanKeepTrackingParameters() throws {
        let text = "[[rules]]\nname = \"keep\"\nmatch.domain = \"shop.example\"\nclean = false\nopen = \"b.desktop\"\n"
        let engine = try RuleEngine.reading(text, path: "c")
        let kept = try engine.decide("https://shop.example/p?utm_source=x&id=1", explain: true)
        #expect(kept.finalURL == "https://shop.example/p?utm_source=x&id=1")
        #expect(kept.trace.contains { $0.text.contains("keeps tracking parameters") })
        let other = try engine.decide("https://other.example/p?utm_source=x&id=1")
        #expect(other.finalURL == "https://other.example/p?id=1")
    }

    @Test func traceShowsEveryHygieneAndRewriteStep() throws {
        let text = "[[rewrite]]\nmatch.domain = \"twitter.com\"\nreplace = { from = \"^https://twitter\\\\.com/\", to = \"https://x.com/\" }\n"
        let engine = try RuleEngine.reading(text, path: "c")
        let decision = try engine.decide("https://l.facebook.com/l.php?u=https%3A%2F%2Ftwitter.com%2Fa%3Ffbclid%3D1", explain: true)
        let steps = decision.trace.map(\.text)
        #expect(steps.contains { $0.hasPrefix("unwrapped (via facebook)") }, "\(steps)")
        #expect(steps.contains { $0.hasPrefix("cleaned [fbclid]") }, "\(steps)")
        #expect(steps.contains("rewritten by rewrite #1: https://x.com/a"), "\(steps)")
        #expect(decision.finalURL == "https://x.com/a")
    }

    @Test func disabledRulesAreSkippedAndToggleable() throws {
        let config = try ConfigLoader.load(text: "[[rules]]\nname = \"drop\"\nenabled = false\nmatch.domain = \"x.org\"\ndiscard = true\n", path: "c")
        let engine = RuleEngine(config: config)
        #expect(try engine.decide("https://x.org/").kind == .system)
        let enabled = try #require(engine.settingRule("drop", enabled: true))
        #expect(try enabled.decide("https://x.org/").kind == .discard)
        #expect(engine.settingRule("nope", enabled: true) == nil)
    }

    /// Toggles follow a rule's identity: an unnamed rule is its text however laid out, without `enabled`.
    @Test func ruleIdentityIgnoresLayoutPositionAndEnabled() throws {
        let first = try ConfigLoader.load(text: "[[rules]]\nmatch.domain = \"x.org\"\ndiscard = true\n", path: "c")
        let moved = try ConfigLoader.load(text: """
            [[rules]]
            name = "new"
            match.host = "y.org"
            open = "a.desktop"

            [[rules]]
            discard = true
            enabled = false
            match = { domain = "x.org" }
            """, path: "c")
        #expect(first.rules[0].identity == moved.rules[1].identity)
        #expect(moved.rules[0].identity == "name:new")
        let (engine, missing) = RuleEngine(config: moved).applyingToggles([
            (first.rules[0].identity, false), ("rule:gone", false), (first.rules[0].identity, true),
        ])
        #expect(missing == ["rule:gone"])
        #expect(engine.config.rules[1].enabled, "the last toggle of a rule wins")
        #expect(engine.config.rules[0].enabled)
    }

    @Test func forcedAskOffersTheDecidedTargetFirst() throws {
        let decision = try Self.engine.decide("https://zoom.us/j/1", forceAsk: true)
        #expect(decision.kind == .ask)
        #expect(decision.choices.first?.action == .open(.desktopEntry(id: "Zoom.desktop", action: nil)))
        #expect(decision.choices.contains { $0.action == .copy })
    }

    @Test func chosenAskChoicesAreCarriedOut() throws {
        let decision = try Self.engine.decide(choice: .open(.app("private")), for: "https://example.org/")
        #expect(decision.launch == .argv(["firefox", "--private-window", "https://example.org/"]))
        #expect(try Self.engine.decide(choice: .copy, for: "mailto:a@x.org").copyText == "a@x.org")
    }

    /// The domain index must never change a decision: compare with trying every rule in order.
    @Test func indexedDecisionsEqualLinearOnes() throws {
        var text = ""
        for i in 0..<300 {
            switch i % 5 {
            case 0: text += "[[rules]]\nmatch.domain = \"d\(i % 40).example\"\nmatch.path = \"/p\(i % 3)/*\"\nopen = \"a\(i).desktop\"\n"
            case 1: text += "[[rules]]\nmatch.path = \"/q\(i % 7)\"\nopen = \"b\(i).desktop\"\n"
            case 2: text += "[[rules]]\nmatch.domain = [\"s\(i % 11).d\(i % 40).example\", \"other\(i).org\"]\ndiscard = true\n"
            case 3: text += "[[rules]]\nmatch.regex = \"/r\(i % 13)$\"\ncopy = true\n"
            default: text += "[[rules]]\nmatch.domain = \"example\"\nmatch.query = { k = \"v\(i % 9)\" }\nsystem = true\n"
            }
        }
        let engine = try RuleEngine.reading(text, path: "c")
        var checked = 0
        for d in 0..<45 {
            for path in ["/p0/x", "/p1/y", "/q3", "/r5", "/?k=v4", "/none"] {
                for host in ["d\(d).example", "s\(d % 11).d\(d).example", "www.d\(d).example", "other\(d * 5 + 2).org"] {
                    let url = "https://\(host)\(path)"
                    let fast = try engine.decide(url)
                    let slow = try engine.decide(url, explain: true)
                    #expect(fast.rule == slow.rule, "\(url)")
                    #expect(fast.kind == slow.kind, "\(url)")
                    checked += 1
                }
            }
        }
        #expect(checked == 45 * 6 * 4)
    }

    @Test(arguments: [
        "https://example.org/\u{0}", "https://example.org/a\nb", "$(touch x)", "`id`", "\"quoted\"",
        "https://exa mple.org/", "%", "https://%zz/", "mailto:", "https://example.org/" + String(repeating: "(", count: 100_000),
    ])
    func hostileInputGetsADecisionOrAnError(url: String) {
        do {
            let decision = try Self.engine.decide(url, explain: true)
            #expect(Decision.Kind.allCases.contains(decision.kind))
        } catch {
            #expect(!error.message.isEmpty)
        }
    }
}

import Foundation
import Testing
import URLModel
import Hygiene

@Suite struct ClearURLsRulesTests {
    @Test func loadsTheFullRuleFile() throws {
        let rules = try HygieneFixtures.fullRules()
        #expect(rules.providers.count > 150)
        #expect(rules.providers.first?.name == "amazon")
        // Most providers need a literal host word: the prefilter must cover them.
        #expect(rules.indexedProviderCount > rules.providers.count * 9 / 10)
    }

    /// Loading checks every pattern but JIT-compiles none: a provider's patterns are compiled to
    /// machine code when a URL first reaches it, so the daemon starts without paying for 200.
    @Test func loadingCompilesNoMachineCode() throws {
        let rules = try HygieneFixtures.fullRules()
        #expect(rules.jitCompiledPatternCount == 0)
        let outcome = rules.apply(to: "https://www.amazon.com/dp/B0?qid=1&keep=a")
        #expect(outcome.url == "https://www.amazon.com/dp/B0?keep=a")
        let compiled = rules.jitCompiledPatternCount
        #expect(compiled > 0)
        #expect(compiled < 20)
    }

    @Test(arguments: [
        // Parameter rules, query and fragment, case-insensitive, kept bytes untouched.
        ("https://www.amazon.com/dp/B0?qid=1&keep=a%20b&SPIA=2", "https://www.amazon.com/dp/B0?keep=a%20b", false),
        ("https://www.youtube.com/watch?v=abc&si=XYZ&feature=share", "https://www.youtube.com/watch?v=abc", false),
        ("https://example.com/?utm_source=a#x=1&utm_medium=b", "https://example.com/#x=1", false),
        // rawRules: /ref=... is cut out of an Amazon path.
        ("https://www.amazon.de/gp/product/B0/ref=as_li_ss_tl?ie=UTF8&tag=abc", "https://www.amazon.de/gp/product/B0", false),
        // Exceptions: the amazon provider skips search URLs (its own "amazon search" provider
        // then removes only its rules), facebook skips share dialogs.
        ("https://www.amazon.com/s?k=tea&qid=1", "https://www.amazon.com/s?k=tea", false),
        ("https://www.facebook.com/dialog/share?app=1&href=x", "https://www.facebook.com/dialog/share?app=1&href=x", false),
        ("https://www.facebook.com/page?app=1&id=x", "https://www.facebook.com/page?id=x", false),
        ("https://mail.google.com/mail/u/0/?ved=1", "https://mail.google.com/mail/u/0/?ved=1", false),
        // Redirections: first group, percent-decoded, then cleaned in turn.
        ("https://www.google.com/url?sa=t&url=https%3A%2F%2Fexample.com%2Fa%3Futm_source%3Dx%26id%3D2", "https://example.com/a?id=2", false),
        ("https://kevinroebert.gitlab.io/ClearUrls/void/index.html?url=https%3A%2F%2Fexample.com%2F", "https://example.com/", false),
        ("https://kevinroebert.gitlab.io/ClearUrls/void/index.html?test=1&keep=2", "https://kevinroebert.gitlab.io/ClearUrls/void/index.html?keep=2", false),
        // A redirection target that is not an absolute http(s) URL is not followed.
        ("https://kevinroebert.gitlab.io/ClearUrls/void/index.html?url=javascript%3Aalert(1)", "https://kevinroebert.gitlab.io/ClearUrls/void/index.html?url=javascript%3Aalert(1)", false),
        // completeProvider blocks.
        ("https://kevinroebert.gitlab.io/ClearUrls/void/block.svg", "https://kevinroebert.gitlab.io/ClearUrls/void/block.svg", true),
        ("https://pagead2.googlesyndication.com/pagead/show_ads.js", "https://pagead2.googlesyndication.com/pagead/show_ads.js", true),
        // Untouched.
        ("https://example.org/plain?a=1&a=2#frag", "https://example.org/plain?a=1&a=2#frag", false),
    ])
    func appliesTheFullRuleFile(_ url: String, _ expected: String, _ blocked: Bool) throws {
        let outcome = try HygieneFixtures.fullRules().apply(to: url)
        #expect(outcome.url == expected)
        #expect((outcome.blockedBy != nil) == blocked)
    }

    static let small = """
    {"providers": {
      "shop": {"urlPattern": "^https?://(?:[a-z0-9-]+\\\\.)*?shop\\\\.example", "completeProvider": false,
               "rules": ["track", "ref_[a-z]+"], "referralMarketing": ["aff"],
               "rawRules": ["/promo-[0-9]+"], "exceptions": ["^https?://shop\\\\.example/keep"],
               "redirections": ["^https?://shop\\\\.example/out\\\\?to=([^&]*)"]},
      "ads": {"urlPattern": "^https?://ads\\\\.example", "completeProvider": true}
    }}
    """

    @Test(arguments: [
        ("https://shop.example/p?track=1&id=2&REF_x=3", "https://shop.example/p?id=2", nil as String?),
        ("https://shop.example/p?aff=me&id=2", "https://shop.example/p?id=2", nil),
        ("https://shop.example/a/promo-12/b?id=1", "https://shop.example/a/b?id=1", nil),
        ("https://shop.example/keep?track=1", "https://shop.example/keep?track=1", nil),
        ("https://shop.example/out?to=https%253A%252F%252Fother.example%252Fx&track=1", "https://other.example/x", nil),
        ("https://ads.example/x", "https://ads.example/x", "ads"),
        ("https://ads.example.shop.example/?track=1", "https://ads.example.shop.example/", "ads"),
    ])
    func smallFileSemantics(_ url: String, _ expected: String, _ blockedBy: String?) throws {
        let rules = try ClearURLsRules(jsonText: Self.small)
        let outcome = rules.apply(to: url)
        #expect(outcome.url == expected)
        #expect(outcome.blockedBy == blockedBy)
    }

    @Test func referralMarketingCanBeAllowed() throws {
        let rules = try ClearURLsRules(jsonText: Self.small, allowReferralMarketing: true)
        #expect(rules.apply(to: "https://shop.example/p?aff=me&track=1").url == "https://shop.example/p?aff=me")
    }

    @Test(arguments: [
        ("{\"providers\": {\"amazon\": {\"urlPattern\": \"^https?://(amazon\"}}}", "provider \"amazon\": urlPattern: missing closing parenthesis at offset 17"),
        ("{\"providers\": {\"shop\": {\"urlPattern\": \"x\", \"rules\": [\"ok\", \"b[ad\"]}}}", "provider \"shop\": rules[1]: missing terminating ] for character class at offset 10"),
        ("{\"providers\": {\"shop\": {\"urlPattern\": \"x\", \"exceptions\": [\"(\"]}}}", "provider \"shop\": exceptions[0]: missing closing parenthesis at offset 1"),
        ("{\"providers\": {\"shop\": {\"urlPattern\": \"x\", \"redirections\": [7]}}}", "provider \"shop\": redirections[0]: must be a string"),
        ("{\"providers\": {\"shop\": {\"urlPattern\": \"x\", \"rawRules\": \"a\"}}}", "provider \"shop\": rawRules: must be a list of strings"),
        ("{\"providers\": {\"shop\": {\"rules\": []}}}", "provider \"shop\": urlPattern: missing or not a string"),
        ("{\"providers\": {\"shop\": {\"urlPattern\": \"x\", \"completeProvider\": \"yes\"}}}", "provider \"shop\": completeProvider: must be true or false"),
        ("{\"providers\": {\"shop\": []}}", "provider \"shop\": must be an object"),
        ("{\"providers\": []}", "providers: missing or not an object"),
        ("[]", "the top level must be an object with \"providers\""),
    ])
    func badFilesNameProviderAndField(_ json: String, _ message: String) {
        #expect(throws: ClearURLsRules.LoadError.self) { try ClearURLsRules(jsonText: json) }
        do {
            _ = try ClearURLsRules(jsonText: json)
        } catch {
            #expect(error.description == message)
        }
    }

    /// A provider named twice takes its last body, at its first place (before "b" here).
    @Test func aProviderGivenTwiceTakesItsLastBodyAtItsFirstPlace() throws {
        let json = """
        {"providers": {
          "a": {"urlPattern": "^https?://a\\\\.example", "rules": ["first"]},
          "b": {"urlPattern": "^https?://b\\\\.example", "rules": ["first"]},
          "a": {"urlPattern": "^https?://a\\\\.example", "rules": ["second"]}
        }}
        """
        let rules = try ClearURLsRules(jsonText: json)
        #expect(rules.providers.map(\.name) == ["a", "b"])
        let outcome = rules.apply(to: "https://a.example/?first=1&second=2")
        #expect(outcome.url == "https://a.example/?first=1")
        #expect(rules.apply(to: "https://b.example/?first=1").url == "https://b.example/")
    }

    @Test func notJSONIsAnError() {
        do {
            _ = try ClearURLsRules(jsonText: "{\"providers\": ")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("not valid JSON"))
        }
    }

    @Test func hygieneBlocksAndReportsSteps() throws {
        let hygiene = URLHygiene(unwrap: true, clean: true, clearURLs: try HygieneFixtures.fullRules())
        let blocked = hygiene.apply(to: "https://test.clearurls.xyz/void/block.svg")
        #expect(blocked.blocked)
        #expect(blocked.steps == [.blocked(provider: "ClearURLsTestBlock2")])
        let target = "https://www.amazon.com/dp/B0?th=1&keep=1"
        let wrapped = "https://www.google.com/url?q=" + PercentEncoding.encode(target)
        let result = hygiene.apply(to: wrapped)
        #expect(result.url == "https://www.amazon.com/dp/B0?keep=1")
        #expect(result.steps == [
            .unwrapped(from: wrapped, to: target, via: "google"),
            .clearURLs(provider: "amazon", removed: ["th"]),
        ])
    }
}

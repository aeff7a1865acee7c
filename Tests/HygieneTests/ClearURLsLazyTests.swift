import Foundation
import Testing
import Hygiene

/// Patterns compiled on first use (the daemon's start): nothing is compiled at load, a provider
/// is compiled when a URL first reaches it, results equal the eager load's, and a bad pattern
/// skips its provider and is reported once instead of crashing or passing silently.
@Suite struct ClearURLsLazyTests {
    @Test func loadingCompilesNoProvider() throws {
        let rules = try ClearURLsRules(json: HygieneFixtures.clearURLsBytes(), compiling: .onFirstUse)
        #expect(rules.compiledProviderCount == 0)
        let outcome = rules.apply(to: "https://www.amazon.com/dp/B0?qid=1&keep=a")
        #expect(outcome.url == "https://www.amazon.com/dp/B0?keep=a")
        // amazon, globalRules and the few the index could not rule out; not 200.
        #expect(rules.compiledProviderCount > 0)
        #expect(rules.compiledProviderCount < 10, "\(rules.compiledProviderCount) providers compiled for one URL")
        #expect(rules.compileFailures.isEmpty)
        // The eager load compiles them all.
        #expect(try HygieneFixtures.fullRules().compiledProviderCount == rules.providers.count)
    }

    @Test(arguments: [
        "https://www.amazon.de/gp/product/B0/ref=as_li_ss_tl?ie=UTF8&tag=abc",
        "https://www.google.com/url?sa=t&url=https%3A%2F%2Fexample.com%2Fa%3Futm_source%3Dx%26id%3D2",
        "https://www.facebook.com/dialog/share?app=1&href=x",
        "https://kevinroebert.gitlab.io/ClearUrls/void/block.svg",
        "https://example.com/?utm_source=a#x=1&utm_medium=b",
    ])
    func sameOutcomeAsTheEagerLoad(_ url: String) throws {
        let lazy = try ClearURLsRules(json: HygieneFixtures.clearURLsBytes(), compiling: .onFirstUse)
        #expect(lazy.apply(to: url) == (try HygieneFixtures.fullRules()).apply(to: url))
    }

    /// Many threads reaching the same uncompiled providers at once all get the same result.
    @Test func concurrentFirstUseIsSafe() async throws {
        let rules = try ClearURLsRules(json: HygieneFixtures.clearURLsBytes(), compiling: .onFirstUse)
        let url = "https://www.youtube.com/watch?v=abc&si=XYZ&feature=share&utm_source=x"
        let results = await withTaskGroup(of: String.self) { group in
            for _ in 0..<16 { group.addTask { rules.apply(to: url).url } }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: "https://www.youtube.com/watch?v=abc", count: 16))
    }

    static let badRules = """
    {"providers": {
      "good": {"urlPattern": "^https?://shop\\\\.example", "rules": ["track"]},
      "bad": {"urlPattern": "^https?://shop\\\\.example", "rules": ["ok", "b[ad"]},
      "later": {"urlPattern": "^https?://other\\\\.example", "exceptions": ["("]}
    }}
    """

    @Test func aBadPatternSkipsItsProviderAndIsReportedOnce() throws {
        let rules = try ClearURLsRules(jsonText: Self.badRules, compiling: .onFirstUse)
        #expect(rules.compileFailures.isEmpty)
        let first = rules.apply(to: "https://shop.example/p?track=1&ok=2")
        // "good" still cleans; "bad" is skipped (its `ok` rule would have removed ok=2).
        #expect(first.url == "https://shop.example/p?ok=2")
        _ = rules.apply(to: "https://shop.example/q?track=1")
        #expect(rules.compileFailures.map(\.description) == ["provider \"bad\": rules[1]: missing terminating ] for character class at offset 10"])
        // The eager check names the first bad provider and field, as loading `.atLoad` does.
        let eager = #expect(throws: ClearURLsRules.LoadError.self) { try rules.compileEveryPattern() }
        #expect(eager?.description == "provider \"bad\": rules[1]: missing terminating ] for character class at offset 10")
        #expect(throws: ClearURLsRules.LoadError.self) { try ClearURLsRules(jsonText: Self.badRules) }
        #expect(rules.compileFailures.count == 1)
        // The next bad provider is found when a URL reaches it, and listed once.
        #expect(rules.apply(to: "https://other.example/x?a=1").url == "https://other.example/x?a=1")
        _ = rules.apply(to: "https://other.example/y")
        #expect(rules.compileFailures.map(\.provider) == ["bad", "later"])
    }

    @Test func structuralErrorsAreStillFoundAtLoad() {
        let error = #expect(throws: ClearURLsRules.LoadError.self) {
            try ClearURLsRules(jsonText: "{\"providers\": {\"shop\": {\"urlPattern\": \"(\", \"rawRules\": \"a\"}}}", compiling: .onFirstUse)
        }
        #expect(error?.description == "provider \"shop\": rawRules: must be a list of strings")
    }
}

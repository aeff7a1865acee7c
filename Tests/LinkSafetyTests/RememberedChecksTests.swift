import LinkSafety
import Synchronization
import Testing
import URLModel

/// What a checker remembers between clicks (each host's reasons, link text against its target)
/// and the known domains it builds on first use: the same answers as computed afresh, and none
/// kept once the known domains change.
@Suite struct RememberedChecksTests {
    static let lookalikes = SafetyChecks(idn: true, lookalikes: true, linkText: true, blocklists: false)

    static func reasons(_ checker: SafetyChecker, _ url: String, linkText: String? = nil) throws -> [SafetyReason.Kind] {
        try checker.verdict(for: ParsedURL(url), linkText: linkText).reasons.map(\.kind)
    }

    @Test("a host asked again gets the same reasons", arguments: [
        ("https://paypa1.com/login", [SafetyReason.Kind.lookalikeDomain]),
        ("https://www.paypal.com/", []),
        ("https://xn--pypal-4ve.com/", [.lookalikeDomain]),  // a Cyrillic а: an IDN reason too
    ])
    func sameAnswerTwice(_ url: String, _ included: [SafetyReason.Kind]) throws {
        let checker = SafetyChecker(checks: Self.lookalikes, knownDomains: KnownDomains([KnownDomain(domain: "paypal.com")]))
        let first = try Self.reasons(checker, url)
        #expect(Set(included).isSubset(of: Set(first)), "\(url): \(first)")
        #expect(included.isEmpty == first.isEmpty, "\(url): \(first)")
        #expect(try Self.reasons(checker, url) == first)
    }

    @Test func aDomainAddedAfterAHostWasCheckedChangesItsAnswer() throws {
        var checker = SafetyChecker(checks: Self.lookalikes, knownDomains: KnownDomains([KnownDomain(domain: "example.org")]))
        #expect(try Self.reasons(checker, "https://paypa1.com/") == [])
        let before = checker.knownDomains.version
        let added = checker.knownDomains.add(KnownDomain(domain: "paypal.com"))
        #expect(added)
        #expect(checker.knownDomains.version != before)
        #expect(try Self.reasons(checker, "https://paypa1.com/") == [.lookalikeDomain])
        // A domain already held changes nothing, and keeps what was remembered.
        let after = checker.knownDomains.version
        let again = checker.knownDomains.add(KnownDomain(domain: "paypal.com"))
        #expect(!again)
        #expect(checker.knownDomains.version == after)
    }

    @Test func aCopyThatGainsADomainDoesNotChangeTheOriginal() throws {
        let original = SafetyChecker(checks: Self.lookalikes, knownDomains: KnownDomains([KnownDomain(domain: "example.org")]))
        var copy = original
        copy.knownDomains.add(KnownDomain(domain: "paypal.com"))
        #expect(try Self.reasons(copy, "https://paypa1.com/") == [.lookalikeDomain])
        #expect(try Self.reasons(original, "https://paypa1.com/") == [])
    }

    /// Found by the `safety` fuzz target: `http` decodes an `xn--` host and `httpq` keeps it as
    /// written, so one ASCII host has two Unicode forms, and the answer for one was given for the other.
    @Test("a host's answer is remembered with its Unicode form", arguments: [
        ["http://xn--hello-world.com/", "httpq://xn--hello-world.com/"],
        ["httpq://xn--hello-world.com/", "http://xn--hello-world.com/"],
        ["https://xn--pypal-4ve.com/", "foo://xn--pypal-4ve.com/", "https://xn--pypal-4ve.com/"],
    ])
    func sameHostOtherScheme(_ urls: [String]) throws {
        let known = KnownDomains([KnownDomain(domain: "paypal.com"), KnownDomain(domain: "bücher.de")])
        let remembering = SafetyChecker(knownDomains: known)
        for url in urls {
            let parsed = try ParsedURL(url)
            #expect(remembering.verdict(for: parsed) == SafetyChecker(knownDomains: known).verdict(for: parsed), "\(url)")
        }
    }

    @Test func linkTextIsJudgedAgainstEachTarget() throws {
        let checker = SafetyChecker(checks: Self.lookalikes)
        #expect(try Self.reasons(checker, "https://evil.example/", linkText: "paypal.com") == [.linkTextMismatch])
        #expect(try Self.reasons(checker, "https://www.paypal.com/", linkText: "paypal.com") == [])
        #expect(try Self.reasons(checker, "https://evil.example/", linkText: "paypal.com") == [.linkTextMismatch])
    }

    @Test func knownDomainsOnFirstUseAreBuiltOnceWhenFirstAsked() async throws {
        let builds = Atomic<Int>(0)
        let checker = SafetyChecker(checks: Self.lookalikes, knownDomainsOnFirstUse: {
            builds.add(1, ordering: .relaxed)
            return KnownDomains([KnownDomain(domain: "paypal.com")])
        })
        #expect(builds.load(ordering: .relaxed) == 0, "made with the checker")
        await withTaskGroup(of: [SafetyReason.Kind].self) { group in
            for _ in 0..<8 { group.addTask { (try? Self.reasons(checker, "https://paypa1.com/")) ?? [] } }
            for await kinds in group { #expect(kinds == [.lookalikeDomain]) }
        }
        #expect(builds.load(ordering: .relaxed) == 1)
        checker.prepare()
        #expect(builds.load(ordering: .relaxed) == 1)
        #expect(checker.knownDomains.count == 1)
    }

    @Test func prepareBuildsTheKnownDomains() {
        let builds = Atomic<Int>(0)
        let checker = SafetyChecker(checks: Self.lookalikes, knownDomainsOnFirstUse: {
            builds.add(1, ordering: .relaxed)
            return .none
        })
        checker.prepare()
        #expect(builds.load(ordering: .relaxed) == 1)
    }
}

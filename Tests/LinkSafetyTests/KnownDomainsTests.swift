import Foundation
import LinkSafety
import Testing
import URLModel

/// Look-alikes of the domains in a test config: the user's rules name paypal.com, google.com,
/// a bank and an intranet; hosts that imitate them are a warn naming the rule.
@Suite struct KnownDomainsTests {
    static let known = KnownDomains([
        KnownDomain(domain: "paypal.com", description: "your rule 'Pay' opens in firefox:Banking"),
        KnownDomain(domain: "google.com", description: "your rule 'Search' opens in chromium"),
        KnownDomain(domain: "*.mybank.co.uk", description: "your rule 'Bank' opens in firefox:Banking"),
        KnownDomain(domain: "wiki.intranet.example", description: "you chose to open in firefox:Work"),
        KnownDomain(domain: "bücher.de"),
    ])
    static let checker = SafetyChecker(checks: SafetyChecks(idn: false, lookalikes: true, linkText: false, blocklists: false), knownDomains: known)

    static func imitated(_ host: String) throws -> String? {
        let url = try ParsedURL("https://\(host)/")
        return known.lookalike(host: url.matchingHost, unicodeHost: url.matchingUnicodeHost)?.domain
    }

    @Test("look-alikes, and what they imitate", arguments: [
        ("pаypal.com", "paypal.com"),          // Cyrillic а
        ("pаypаl.com", "paypal.com"),
        ("paypa1.com", "paypal.com"),          // ASCII: 1 for l
        ("www.paypa1.com", "paypal.com"),
        ("login.paypa1.com", "paypal.com"),
        ("g00gle.com", "google.com"),          // 0 for o
        ("goog1e.com", "google.com"),
        ("ɡoogle.com", "google.com"),          // Latin script g
        ("gооgle.com", "google.com"),          // Cyrillic о
        ("googlé.com", "google.com"),          // an accent
        ("rnybank.co.uk", "mybank.co.uk"),     // rn for m
        ("online.rnybank.co.uk", "mybank.co.uk"),
        ("wiki.intranet.examp1e", "wiki.intranet.example"),
        ("bucher.de", "bücher.de"),            // without the accent
    ])
    func lookalikes(_ host: String, _ domain: String) throws {
        #expect(try Self.imitated(host) == domain, "\(host)")
    }

    @Test("the domains themselves, their subdomains and strangers", arguments: [
        "paypal.com", "www.paypal.com", "api.paypal.com", "google.com", "mail.google.com", "mybank.co.uk",
        "online.mybank.co.uk", "wiki.intranet.example", "bücher.de", "example.org", "paypal.com.evil.example",
        "paypal.co", "google.com.br", "intranet.example", "localhost", "192.168.1.1", "[::1]",
    ])
    func notLookalikes(_ host: String) throws {
        #expect(try Self.imitated(host) == nil, "\(host)")
    }

    @Test func theWarningNamesTheRule() throws {
        let verdict = Self.checker.verdict(for: try ParsedURL("https://pаypal.com/login"))
        let reason = try #require(verdict.reasons.first)
        #expect(reason.kind == .lookalikeDomain)
        #expect(reason.message == "looks like paypal.com, which your rule 'Pay' opens in firefox:Banking")
        #expect(reason.domain == "paypal.com")
        let plain = Self.checker.verdict(for: try ParsedURL("https://bucher.de/"))
        #expect(plain.summary == "looks like bücher.de")
    }

    @Test func mailRecipientsAreCheckedToo() throws {
        let verdict = Self.checker.verdict(for: try ParsedURL("mailto:billing@paypa1.com?subject=Invoice"))
        #expect(verdict.reasons.map(\.domain) == ["paypal.com"])
        #expect(Self.checker.verdict(for: try ParsedURL("mailto:billing@paypal.com")) == .safe)
    }

    @Test func unusableDomainsAreLeftOut() {
        let table = KnownDomains([KnownDomain(domain: ""), KnownDomain(domain: "localhost"), KnownDomain(domain: "a b.com"),
                                  KnownDomain(domain: "x@y.com"), KnownDomain(domain: "PayPal.COM."), KnownDomain(domain: "paypal.com")])
        #expect(table.count == 1)
        #expect(table.lookalike(host: "paypa1.com", unicodeHost: "paypa1.com")?.domain == "paypal.com")
    }

    /// `(given, ASCII form held, domain kept)`: case, `*.`, a leading or trailing dot and IDN are
    /// normalised whichever path (the plain-ASCII shortcut or not) a name takes.
    @Test(arguments: [
        ("PayPal.COM.", "paypal.com", "paypal.com"),
        ("*.Bank.example", "bank.example", "bank.example"),
        (".x.example", "x.example", "x.example"),
        ("plain.example", "plain.example", "plain.example"),
        ("Bücher.example", "xn--bcher-kva.example", "bücher.example"),
        ("XN--BCHER-KVA.example", "xn--bcher-kva.example", "xn--bcher-kva.example"),
    ])
    func namesAreNormalised(given: String, ascii: String, domain: String) {
        let table = KnownDomains([KnownDomain(domain: given, description: "d")])
        #expect(table.contains(ascii))
        #expect(table.known(ascii: ascii)?.domain == domain)
        #expect(table.known(ascii: ascii)?.description == "d")
    }

    /// A description given as a closure is written only when read, and reads as the text would.
    @Test func aDescriptionIsWrittenWhenRead() {
        final class Calls: @unchecked Sendable { var count = 0 }  // one thread: the test's
        let calls = Calls()
        let known = KnownDomain(domain: "paypal.com", describedBy: { calls.count += 1; return "your rule 'Pay' opens in firefox" })
        let table = KnownDomains([known])
        #expect(calls.count == 0)
        #expect(table.lookalike(host: "paypa1.com", unicodeHost: "paypa1.com")?.description == "your rule 'Pay' opens in firefox")
        #expect(calls.count == 1)
        #expect(known == KnownDomain(domain: "paypal.com", description: "your rule 'Pay' opens in firefox"))
    }

    @Test func hostileHostsCostNothing() {
        let long = String(repeating: "a.", count: 2000) + "com"
        #expect(Self.known.lookalike(host: long, unicodeHost: long) == nil)
        let labels = String(repeating: "xn--80ak6aa92e.", count: 15) + "com"
        #expect(Self.known.lookalike(host: labels, unicodeHost: Punycode.toUnicode(host: labels)) == nil)
    }

    /// A check is a skeleton and a few look-ups: thousands of known domains change nothing.
    @Test func manyKnownDomainsStayFast() {
        var domains = (0..<5000).map { KnownDomain(domain: "site\($0).example") }
        domains.append(KnownDomain(domain: "paypal.com"))
        let table = KnownDomains(domains)
        let start = Date()
        var found = 0
        for index in 0..<10_000 {
            if table.lookalike(host: "host\(index).paypa1.com", unicodeHost: "host\(index).paypa1.com") != nil { found += 1 }
        }
        let perCheck = Date().timeIntervalSince(start) / 10_000
        #expect(found == 10_000)
        #expect(perCheck < 0.000_1, "\(perCheck * 1e6) µs a check (debug build)")
    }
}

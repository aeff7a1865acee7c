import Foundation
import LinkSafety
import Testing
import URLModel

/// A trusted domain in front of another registrable domain (Chromium's "target embedding"):
/// `www.google.com.evil.example` warns, `google.com` and its subdomains do not.
@Suite struct TargetEmbeddingTests {
    static let suffixes: [UInt8]? = FileManager.default.contents(atPath: PublicSuffixList.debianPath).map { [UInt8]($0) }
    static let checks = SafetyChecks(idn: false, lookalikes: true, linkText: false, blocklists: false)
    static let known = KnownDomains([KnownDomain(domain: "bank.example", description: "your rule 'Bank' opens in firefox:Banking"),
                                     KnownDomain(domain: "intranet.corp.example")])
    static let checker = SafetyChecker(checks: checks, knownDomains: known, publicSuffixes: SuffixIndex(text: suffixes))

    static func reason(_ url: String) throws -> SafetyReason? {
        #expect(suffixes != nil, "the Public Suffix List is missing: apt-get install -y publicsuffix")
        return checker.verdict(for: try ParsedURL(url)).reasons.first { $0.kind == .targetEmbedding }
    }

    @Test("a trusted domain in front of another", arguments: [
        ("https://www.google.com.evil.example/", "google.com", "starts with google.com, but the site is evil.example"),
        ("https://google.com.evil.example/login", "google.com", "starts with google.com, but the site is evil.example"),
        ("https://google-com.evil.example/", "google.com", "starts with google.com, but the site is evil.example"),
        ("https://google.com-login.evil.example/", "google.com", "starts with google.com, but the site is evil.example"),
        ("https://accounts.google.com.secure-login.evil.co.uk/", "google.com", "starts with google.com, but the site is evil.co.uk"),
        ("https://paypal.com.com/", "paypal.com", "starts with paypal.com, but the site is com.com"),
        ("https://www.paypal-com.example/", "paypal.com", "starts with paypal.com, but the site is paypal-com.example"),
        ("https://hsbc.co.uk.evil.example/", "hsbc.co.uk", "starts with hsbc.co.uk, but the site is evil.example"),
        ("https://t-mobile.com.evil.example/", nil, nil),
        ("https://bank.example.evil.example/", "bank.example", "starts with bank.example, which your rule 'Bank' opens in firefox:Banking, but the site is evil.example"),
        ("https://intranet.corp.example.evil.example/", "intranet.corp.example", "starts with intranet.corp.example, but the site is evil.example"),
        ("http://amazon.co.uk-orders.evil.example/", "amazon.co.uk", "starts with amazon.co.uk, but the site is evil.example"),
    ] as [(String, String?, String?)])
    func embedded(_ url: String, _ domain: String?, _ message: String?) throws {
        let reason = try Self.reason(url)
        #expect(reason?.domain == domain, "\(url)")
        #expect(reason?.message == message, "\(url)")
    }

    @Test("the real site, its subdomains and names that only share a word", arguments: [
        "https://google.com/", "https://www.google.com/", "https://mail.google.com/", "https://google.com.au/",
        "https://www.google.co.uk/", "https://google.com.google.com/", "https://www.amazon.co.uk/", "https://paypal.com/",
        "https://google-analytics.com/", "https://googleusercontent.com/", "https://www.bank.example/", "https://bank.example/",
        "https://x.com.evil.example/", "https://hp.com.evil.example/", "https://example.com/", "https://com.evil.example/",
        "https://www.paypal.com./", "mailto:someone@google.com", "https://192.168.1.1/", "https://[::1]/",
        "https://a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h.i.j.k.example/",
    ])
    func notEmbedded(_ url: String) throws {
        #expect(try Self.reason(url) == nil, "\(url)")
    }

    @Test func aMailAddressAtAnEmbeddingDomainWarns() throws {
        let verdict = Self.checker.verdict(for: try ParsedURL("mailto:billing@paypal.com.evil.example"))
        #expect(verdict.reasons.map(\.kind) == [.targetEmbedding])
    }

    @Test func itRunsWithTheLookalikeCheck() throws {
        let off = SafetyChecker(checks: SafetyChecks(idn: true, lookalikes: false, linkText: true, blocklists: false), publicSuffixes: SuffixIndex(text: Self.suffixes))
        #expect(off.verdict(for: try ParsedURL("https://www.google.com.evil.example/")) == .safe)
    }

    /// False warnings, measured: every top site of Chromium's test list and of our own, with
    /// `www.` and a subdomain in front, and every host the Debian block lists name (real hosts,
    /// most of them malicious: the count says how many embed a top site).
    @Test func falseWarningsOnRealHosts() throws {
        let data = try #require(FileManager.default.contents(atPath: ChromiumCasesTests.dataFolder.appendingPathComponent("chromium-top-domains.txt").path))
        let tops = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
        var tried = 0, warned: [String] = []
        for top in tops + TargetEmbeddingTests.someTopSites {
            for host in [top, "www." + top, "login.secure." + top] {
                tried += 1
                if try Self.reason("https://\(host)/") != nil { warned.append(host) }
            }
        }
        print("target embedding: \(warned.count) of \(tried) top-site hosts warned")
        #expect(warned.isEmpty, "\(warned.prefix(10))")

        var listed = 0, embedding: [String] = []
        for location in DebianListsTests.locations() {
            let text = try String(contentsOfFile: location.path, encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let url = DebianListsTests.link(from: String(line)) else { continue }
                listed += 1
                if try Self.reason(url) != nil { embedding.append(url) }
            }
        }
        print("target embedding: \(embedding.count) of \(listed) block-listed hosts embed a trusted domain, e.g. \(embedding.prefix(5))")
        #expect(listed > 1000, Comment(rawValue: DebianListsTests.missing))
        #expect(embedding.count < listed / 20, "\(embedding.prefix(20))")
    }

    static let someTopSites = [
        "google.com", "youtube.com", "facebook.com", "amazon.co.uk", "paypal.com", "microsoft.com", "apple.com",
        "hsbc.co.uk", "commbank.com.au", "t-online.de", "deutsche-bank.de", "github.com", "wikipedia.org",
    ]
}

import Foundation
import JSON
@testable import LinkSafety
import Testing
import URLModel

/// The single entry point: what each kind of link gets, the JSON a caller maps to `safety`,
/// the checks turned off, and hostile input.
@Suite struct SafetyCheckerTests {
    static let checker = SafetyChecker(
        knownDomains: KnownDomains([KnownDomain(domain: "paypal.com", description: "your rule 'Pay' opens in firefox:Banking")]),
        blocklists: [BlockList(name: "test list", text: "||malware.example^\n")])

    @Test("verdicts", arguments: [
        ("https://example.org/", nil, "safe"),
        ("https://bücher.de/", nil, "safe"),
        ("https://malware.example/x", nil, "block"),
        ("https://xn--pypal-4ve.com/", nil, "warn"),
        ("https://paypa1.com/", nil, "warn"),
        ("https://evil.example/", "paypal.com", "warn"),
        ("https://www.paypal.com/", "paypal.com", "safe"),
        ("mailto:someone@example.org", nil, "safe"),
        ("mailto:someone@paypa1.com", nil, "warn"),
        ("zoommtg://zoom.us/join?confno=1", nil, "safe"),
        ("file:///etc/passwd", nil, "safe"),
    ] as [(String, String?, String)])
    func verdicts(_ url: String, _ text: String?, _ expected: String) throws {
        #expect(Self.checker.verdict(for: try ParsedURL(url), linkText: text).name == expected, "\(url)")
    }

    @Test func jsonForEachVerdict() throws {
        #expect(SafetyVerdict.safe.json().text == #"{"verdict":"safe"}"#)
        let safe = try ParsedURL("https://bücher.de/")
        #expect(Self.checker.verdict(for: safe).json(for: safe).text == #"{"verdict":"safe","shown_host":"bücher.de"}"#)
        let spoof = try ParsedURL("https://xn--pypal-4ve.com/")
        let verdict = Self.checker.verdict(for: spoof)
        #expect(verdict.json(for: spoof).text == """
            {"verdict":"warn","shown_host":"xn--pypal-4ve.com","reasons":[\
            {"kind":"idn-mixed-script","message":"its name mixes Latin and Cyrillic letters","label":"xn--pypal-4ve"},\
            {"kind":"lookalike-domain","message":"looks like paypal.com, which your rule 'Pay' opens in firefox:Banking","domain":"paypal.com"}]}
            """)
        // The JSON is JSON.
        #expect(try JSONSerialization.jsonObject(with: Data(verdict.json(for: spoof).text.utf8)) is [String: Any])
    }

    @Test func everyReasonKindHasAStableName() {
        #expect(SafetyReason.Kind.allCases.map(\.rawValue) == [
            "idn-mixed-script", "idn-whole-script", "idn-digit-lookalike", "idn-disallowed-character", "idn-invisible",
            "idn-dangerous-pattern", "idn-tld-character", "idn-mixed-digits", "idn-invalid", "lookalike-domain",
            "link-text-mismatch", "misleading-userinfo", "link-text-scheme", "target-embedding",
        ])
    }

    @Test func checksTurnOffOneByOne() throws {
        let spoof = try ParsedURL("https://xn--pypal-4ve.com/")
        let off = SafetyChecker(checks: .none, knownDomains: Self.checker.knownDomains, blocklists: Self.checker.blocklists)
        #expect(off.verdict(for: spoof, linkText: "example.org") == .safe)
        #expect(off.verdict(for: try ParsedURL("https://malware.example/")) == .safe)
        var noIDN = Self.checker
        noIDN.checks.idn = false
        #expect(noIDN.verdict(for: spoof).reasons.map(\.kind) == [.lookalikeDomain])
        var noLookalikes = Self.checker
        noLookalikes.checks.lookalikes = false
        #expect(noLookalikes.verdict(for: spoof).reasons.map(\.kind) == [.idnMixedScript])
    }

    /// The common case does no ICU work and reads no list: with neither known domains nor lists
    /// it is a scan of the host for `xn--`.
    @Test func asciiHostsTakeTheFastPath() throws {
        let plain = SafetyChecker()
        let url = try ParsedURL("https://www.example.org/path?q=1")
        let start = Date()
        for _ in 0..<100_000 { _ = plain.verdict(for: url) }
        let perVerdict = Date().timeIntervalSince(start) / 100_000
        #expect(plain.verdict(for: url) == .safe)
        #expect(perVerdict < 0.000_05, "\(perVerdict * 1e9) ns a verdict (debug build)")
    }

    @Test func hostileURLsAndTextNeverTrapTheChecker() throws {
        let labels = (0..<60).map { _ in "xn--80ak6aa92e" }.joined(separator: ".")
        for text in ["https://\(labels).com/", "https://" + String(repeating: "a", count: 60) + ".xn--p1ai/",
                     "https://xn--" + String(repeating: "a", count: 58) + ".com/", "mailto:" + (0..<200).map { "a\($0)@x\($0).example" }.joined(separator: ","),
                     "https://\u{338}.com/", "https://a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z/"] {
            guard let url = try? ParsedURL(text) else { continue }
            _ = Self.checker.verdict(for: url, linkText: String(repeating: "\u{FFFD}.", count: 5000))
            _ = Self.checker.verdict(for: url, linkText: text)
        }
    }
}

/// Link text compares registrable domains from `SuffixIndex`, which must decide exactly as
/// URLModel's `PublicSuffixList` does: the Public Suffix List project's own tests, and more hosts.
@Suite struct SuffixIndexTests {
    @Test func agreesWithURLModelOnThePSLTests() throws {
        let list = try #require(FileManager.default.contents(atPath: PublicSuffixList.debianPath).map { [UInt8]($0) },
                                "needs Debian's publicsuffix package")
        let tests = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../shared/conformance/psl/test_psl.txt").standardized.path, encoding: .utf8)
        var hosts = ["www.example.co.uk", "a.b.c.kawasaki.jp", "city.kawasaki.jp", "www.city.kawasaki.jp", "github.io",
                     "evil.github.io", "a.b.blogspot.com", "xn--85x722f.xn--55qx5d.cn", "example.xn--p1ai", "192.168.1.1",
                     "localhost", "com", "a..b.com", "example.com.", "test.ck", "www.ck", "www.www.ck"]
        for line in tests.split(separator: "\n") where line.hasPrefix("checkPublicSuffix('") {
            let name = line.dropFirst("checkPublicSuffix('".count).prefix { $0 != "'" }
            if let ascii = Punycode.toASCII(host: name.lowercased()) { hosts.append(ascii) }
        }
        let index = SuffixIndex(text: list)
        var checked = 0
        for host in hosts {
            #expect(index.registrableDomain(of: host) == PublicSuffixList.registrableDomain(of: host, listText: list), "\(host)")
            checked += 1
        }
        #expect(checked > 60)
    }

    /// Hosts at, under and two under every 40th rule of Debian's list (wildcards and exceptions
    /// all), rules in Unicode in their `xn--` form: the same answers as URLModel's, from an index
    /// that meets an `xn--` host first and from one that meets it after plain hosts (the rules
    /// written in Unicode are converted at the first `xn--` host).
    @Test func agreesWithURLModelUnderRulesOfEveryKind() throws {
        let list = try #require(FileManager.default.contents(atPath: PublicSuffixList.debianPath).map { [UInt8]($0) },
                                "needs Debian's publicsuffix package")
        var hosts: [String] = []
        for (number, line) in String(decoding: list, as: UTF8.self).split(separator: "\n").enumerated() where !line.hasPrefix("//") {
            var rule = String(line.prefix { $0 != " " && $0 != "\t" && $0 != "\r" })
            let special = rule.hasPrefix("!") || rule.hasPrefix("*.")
            guard !rule.isEmpty, special || !rule.utf8.allSatisfy({ $0 < 0x80 }) && number % 5 == 0 || number % 40 == 0 else { continue }
            rule = String(rule.drop { $0 == "!" || $0 == "*" || $0 == "." })
            guard let ascii = Punycode.toASCII(host: rule.lowercased()) else { continue }
            hosts += [ascii, "a." + ascii, "b.a." + ascii]
        }
        #expect(hosts.count > 300)
        let idnFirst = SuffixIndex(text: list), plainFirst = SuffixIndex(text: list)
        #expect(idnFirst.holdsText && plainFirst.holdsText)
        _ = idnFirst.registrableDomain(of: "a.xn--55qx5d.cn")
        _ = plainFirst.registrableDomain(of: "www.example.com")
        #expect(!idnFirst.holdsText && !plainFirst.holdsText, "the list's text is kept once the index is built")
        for host in hosts {
            let expected = PublicSuffixList.registrableDomain(of: host, listText: list)
            #expect(idnFirst.registrableDomain(of: host) == expected, "\(host)")
            #expect(plainFirst.registrableDomain(of: host) == expected, "\(host)")
        }
    }
}

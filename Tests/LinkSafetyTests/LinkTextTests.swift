import LinkSafety
import Testing
import URLModel

/// Link text that names another domain (Thunderbird's phishing check), and domains before `@`.
@Suite struct LinkTextTests {
    static let checker = SafetyChecker(checks: SafetyChecks(idn: false, lookalikes: false, linkText: true, blocklists: false))

    static func message(_ text: String?, _ url: String) throws -> String? {
        checker.verdict(for: try ParsedURL(url), linkText: text).summary
    }

    @Test("text naming another site", arguments: [
        ("paypal.com", "https://evil.example/", "the link says paypal.com but goes to evil.example"),
        ("https://www.paypal.com/signin", "https://evil.example/x", "the link says www.paypal.com but goes to evil.example"),
        ("www.paypal.com", "https://paypal.com.evil.example/", "the link says www.paypal.com but goes to evil.example"),
        ("PayPal.com", "https://login.evil.co.uk/", "the link says paypal.com but goes to evil.co.uk"),
        ("<paypal.com>", "https://evil.example/", "the link says paypal.com but goes to evil.example"),
        ("\"paypal.com\".", "https://evil.example/", "the link says paypal.com but goes to evil.example"),
        ("support@paypal.com", "mailto:support@evil.example", "the link says paypal.com but goes to evil.example"),
        ("bücher.de", "https://evil.example/", "the link says bücher.de but goes to evil.example"),
        ("paypal.com", "https://xn--pypal-4ve.com/", "the link says paypal.com but goes to xn--pypal-4ve.com"),
    ])
    func mismatch(_ text: String, _ url: String, _ expected: String) throws {
        #expect(try Self.message(text, url) == expected)
    }

    @Test("text that is the same site, or not a domain at all", arguments: [
        ("paypal.com", "https://www.paypal.com/"),
        ("www.paypal.com", "https://paypal.com/"),
        ("https://paypal.com/a", "https://paypal.com/b?c"),
        ("accounts.google.com", "https://mail.google.com/"),
        ("bücher.de", "https://xn--bcher-kva.de/"),
        ("Click here", "https://evil.example/"),
        ("PayPal", "https://evil.example/"),
        ("Sign in to paypal.com", "https://evil.example/"),
        ("index.html", "https://evil.example/"),
        ("node.js", "https://evil.example/"),
        ("v1.2.3", "https://evil.example/"),
        ("", "https://evil.example/"),
        ("   ", "https://evil.example/"),
        ("support@evil.example", "mailto:support@evil.example"),
    ])
    func noMismatch(_ text: String, _ url: String) throws {
        #expect(try Self.message(text, url) == nil, "\(text) → \(url)")
    }

    /// What the reader sees: characters no one sees are not there, the other full stops are
    /// dots, and the spaces a text gathering inserts are not words (Thunderbird's cases).
    @Test("text read as a person reads it", arguments: [
        ("paypal\u{200B}.com", "https://evil.example/"),
        ("paypal\u{200C}.com", "https://evil.example/"),
        ("paypal\u{200D}.com", "https://evil.example/"),
        ("pay\u{00AD}pal.com", "https://evil.example/"),
        ("paypal\u{2060}.com", "https://evil.example/"),
        ("\u{FEFF}paypal.com", "https://evil.example/"),
        ("paypal.com\u{FE0F}", "https://evil.example/"),
        ("paypal\u{3002}com", "https://evil.example/"),
        ("paypal\u{FF0E}com", "https://evil.example/"),
        ("paypal\u{FF61}com", "https://evil.example/"),
        ("https://paypal\u{200B}.com/", "https://evil.example/"),
        ("https://www.paypal\u{3002}com/signin", "https://evil.example/"),
        ("www.paypal\u{FF0E}com", "https://evil.example/"),
        ("http://paypal .com", "https://evil.example/"),
        ("http://pay pal.com/", "https://evil.example/"),
        ("https:// paypal.com", "https://evil.example/"),
        ("paypal .com", "https://evil.example/"),
        ("paypal. com", "https://evil.example/"),
        ("www .paypal .com", "https://evil.example/"),
    ])
    func readAsSeen(_ text: String, _ url: String) throws {
        let message = try Self.message(text, url)
        #expect(message?.hasPrefix("the link says ") == true && message?.contains("paypal.com") == true && message?.hasSuffix(" but goes to evil.example") == true,
                "\(text.unicodeScalars.map { $0.isASCII ? String($0) : "U+" + String($0.value, radix: 16, uppercase: true) }.joined()) → \(message ?? "nil")")
    }

    @Test("the same text for the real site is fine", arguments: [
        ("paypal\u{200B}.com", "https://www.paypal.com/"),
        ("paypal\u{3002}com", "https://paypal.com/"),
        ("http://mozilla .org", "http://www.mozilla.org/"),
        ("https://www.mozilla.org/ ", "https://www.mozilla.org/"),
        ("<http://mozilla.org>", "http://mozilla.org/"),
        ("\"http://mozilla.org\"", "http://mozilla.org/"),
        ("Hello. World", "https://evil.example/"),
        ("Sign in. Click here", "https://evil.example/"),
        ("Click\u{200B}here", "https://evil.example/"),
        ("Visit paypal .com today", "https://evil.example/"),
    ])
    func readAsSeenButFine(_ text: String, _ url: String) throws {
        #expect(try Self.message(text, url) == nil, "\(text) → \(url)")
    }

    /// Text that spells out https for an http link of the same site: a lesser reason.
    @Test("scheme named in the text", arguments: [
        ("https://paypal.com", "http://paypal.com/", true),
        ("https://www.paypal.com/signin", "http://paypal.com/login", true),
        ("HTTPS://PayPal.com", "http://www.paypal.com/", true),
        ("https://paypal.com", "https://paypal.com/", false),
        ("http://paypal.com", "https://paypal.com/", false),
        ("paypal.com", "http://paypal.com/", false),
        ("www.paypal.com", "http://paypal.com/", false),
    ])
    func schemeNamedInTheText(_ text: String, _ url: String, _ warns: Bool) throws {
        let verdict = Self.checker.verdict(for: try ParsedURL(url), linkText: text)
        #expect(verdict.reasons.map(\.kind) == (warns ? [.linkTextScheme] : []), "\(text) → \(url)")
        #expect(verdict.isLesser == warns)
        if warns { #expect(verdict.summary?.hasPrefix("the link says https:// but goes to http://") == true) }
    }

    @Test func anotherSiteIsNeverLesser() throws {
        let verdict = Self.checker.verdict(for: try ParsedURL("http://evil.example/"), linkText: "https://paypal.com")
        #expect(verdict.reasons.map(\.kind) == [.linkTextMismatch])
        #expect(!verdict.isLesser)
    }

    @Test func noTextNoCheck() throws {
        #expect(try Self.message(nil, "https://evil.example/") == nil)
    }

    @Test func aDomainBeforeTheAtSign() throws {
        #expect(try Self.message(nil, "https://paypal.com@evil.example/login") == "the address starts with paypal.com@, but the site is evil.example")
        #expect(try Self.message(nil, "https://www.paypal.com%2Fsignin@evil.example/") == "the address starts with www.paypal.com@, but the site is evil.example")
        #expect(try Self.message(nil, "https://user:secret@evil.example/") == nil)
        #expect(try Self.message(nil, "ftp://anonymous@ftp.example.org/") == nil)
    }

    @Test func theReasonNamesTheShownDomain() throws {
        let verdict = Self.checker.verdict(for: try ParsedURL("https://evil.example/"), linkText: "https://www.paypal.com/")
        let reason = try #require(verdict.reasons.first)
        #expect(reason.kind == .linkTextMismatch)
        #expect(reason.domain == "paypal.com")
    }

    @Test func hostileTextIsNotADomain() throws {
        let long = String(repeating: "paypal.com ", count: 10_000)
        #expect(try Self.message(long, "https://evil.example/") == nil)
        let invalid = String(decoding: [0x70, 0xFF, 0xFE, 0x2E, 0x63, 0x6F, 0x6D], as: UTF8.self) // p\u{FFFD}\u{FFFD}.com
        _ = try Self.message(invalid, "https://evil.example/")
        #expect(try Self.message(String(repeating: "a", count: 100_000) + ".com", "https://evil.example/") == nil)
    }
}

import Testing
@testable import URLModel
@testable import ConfigLanguage
@testable import Routing
@testable import RoutingCore

/// Hosts read as browsers read them (WHATWG URL Standard), and the bypasses of issue 14.
@Suite struct WHATWGHostTests {
    @Test(arguments: [
        // UTS 46: fullwidth letters and dots, ideographic full stop, case folding, punycode.
        ("https://example\u{3002}org/", "example.org"),
        ("https://example\u{FF0E}org/", "example.org"),
        ("https://\u{FF45}\u{FF58}\u{FF41}\u{FF4D}\u{FF50}\u{FF4C}\u{FF45}.org/", "example.org"),
        ("https://EXAMPLE.ORG/", "example.org"),
        ("https://b\u{FC}cher.de/", "xn--bcher-kva.de"),
        ("https://XN--BCHER-KVA.de/", "xn--bcher-kva.de"),
        ("https://fa\u{DF}.de/", "xn--fa-hia.de"),
        ("https://\u{1E9E}.de/", "xn--zca.de"),
        ("https://ex\u{AD}ample.org/", "example.org"),
        ("https://%65xample.org/", "example.org"),
        ("https://%C3%BC.de/", "xn--tda.de"),
        // IPv4 in every form a browser accepts.
        ("https://0x7f.1/", "127.0.0.1"),
        ("https://2130706433/", "127.0.0.1"),
        ("https://127.1/", "127.0.0.1"),
        ("https://0177.0.0.1/", "127.0.0.1"),
        ("https://0x7F000001/", "127.0.0.1"),
        ("https://127.0.0.1./", "127.0.0.1"),
        ("https://\u{FF11}\u{FF12}\u{FF17}\u{FF0E}\u{FF10}\u{FF0E}\u{FF10}\u{FF0E}\u{FF11}/", "127.0.0.1"),
        ("https://0/", "0.0.0.0"),
        ("https://1.0x7f/", "1.0.0.127"),
        ("https://1.0X/", "1.0.0.0"),
        ("https://a-1.b2/", "a-1.b2"),
        // IPv6, compressed.
        ("https://[0:0:0:0:0:0:0:1]/", "[::1]"),
        ("https://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"),
        ("https://[1:0:0:2:0:0:0:3]/", "[1:0:0:2::3]"),
        // Backslashes are slashes; userinfo ends at the last @ of the authority.
        ("https://evil.com\\@example.org/p", "evil.com"),
        ("https:\\\\example.org\\p", "example.org"),
        ("https:example.org", "example.org"),
        ("https://a@b@example.org/", "example.org"),
        // A trailing dot stays (as in browsers); rules see the name without it.
        ("https://example.org./", "example.org."),
        // An ASCII host is taken as it is, lowercased, as the URL Standard's "domain to ASCII"
        // does: `xn--` labels are not checked (ICU refused these before issue 22).
        ("https://xn--a.org/", "xn--a.org"),
        ("https://XN--1UG.example/", "xn--1ug.example"),
        ("https://xn--/", "xn--"),
        // Forbidden code points are checked after mapping: `<` + U+0338 is NFC `≮`.
        ("https://<\u{338}.com/", "xn--gdh.com"),
        ("https://%3C%CC%B8.com/", "xn--gdh.com"),
        // DNS length limits are not applied, as in the URL Standard (refused before issue 22).
        ("https://" + String(repeating: "a", count: 64) + ".org/", String(repeating: "a", count: 64) + ".org"),
        ("https://" + Array(repeating: String(repeating: "a", count: 50), count: 5).joined(separator: ".") + "/",
         Array(repeating: String(repeating: "a", count: 50), count: 5).joined(separator: ".")),
        // Leading and trailing C0 controls and spaces are trimmed.
        ("\u{01}https://example.org/\u{1F} ", "example.org"),
    ])
    func readsTheHostABrowserReads(input: String, host: String) throws {
        let url = try ParsedURL(input)
        #expect(url.host == host)
        // The normal form re-parses to itself, with the same host.
        let again = try ParsedURL(url.string)
        #expect(again.string == url.string)
        #expect(again.host == host)
    }

    @Test(arguments: [
        ("https://evil.com%00.example.org/", "U+0000"),
        ("https://facebook.com%00.example/", "U+0000"),
        ("https://evil.com%0A.example.org/", "U+000A"),
        ("https://evil.com%1F.example.org/", "U+001F"),
        ("https://exa%09mple.org/", "U+0009"),
        ("https://evil.com%2F.example.org/", "\"/\""),
        ("https://a%25b.org/", "\"%\""),
        ("https://a\u{FF0F}b.org/", "maps to"),
        ("https://%FF.org/", "not UTF-8"),
        // An `xn--` label is checked when the host has non-ASCII code points (UTS 46 runs on all of it).
        ("https://xn--a.b\u{FC}cher.de/", "international domain name"),
        ("https://1.2.3.4.5/", "IPv4"),
        ("https://256.1.1.1/", "IPv4"),
        ("https://1.2.3.09/", "IPv4"),
        ("https://[::1:2::]/", "IPv6"),
        ("https://" + String(repeating: "\u{FC}", count: 2000) + ".de/", "the limit is 1024"),
        // 682 bytes, and 2,722 once each `ü` label is `xn--tda`.
        ("https://" + String(repeating: "\u{FC}.", count: 340) + "de/", "in ASCII form; the limit is 1024"),
        ("https://u:te:", "invalid port"),
        // Found by Fuzz/Targets/url: the generic reading split at the last colon.
        ("ht4ps://u:te:", "invalid port"),
        ("foo://a:b:c/", "invalid port"),
        ("hhhttps://[A:1\u{FD}::]/tt", "IPv6"),
        ("foo://a%3Ab\u{E9}.org/", "\":\""),
        ("httpr://www.google.https%3A?x", "\":\""),
        ("https://[%0A]:443/", "IPv6"),
        ("https://exa\u{01}mple.org/", "U+0001"),
        ("https://exa%7Fmple.org/", "U+007F"),
        // Forbidden code points are found after UTS 46 mapping too.
        ("https://a\u{FF1C}b.org/", "maps to"),
    ])
    func refusesWithAClearMessage(input: String, fragment: String) {
        do {
            let url = try ParsedURL(input)
            Issue.record("accepted \(input.debugDescription) as \(url.string.debugDescription)")
        } catch {
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    @Test func anXNLabelOfAMegabyteIsRefusedBeforeDecoding() {
        let url = "https://xn--" + String(repeating: "a", count: 100_000) + ".org/"
        #expect(throws: URLParseError.self) { try ParsedURL(url) }
    }

    @Test func urlsLongerThanAnArgumentAreRefused() {
        let url = "https://example.org/" + String(repeating: "a", count: 200 * 1024)
        do {
            _ = try ParsedURL(url)
            Issue.record("accepted a 200 KiB URL")
        } catch {
            #expect(error.message.contains("128 KiB"), "\(error.message)")
        }
    }

    static let bypassConfig = """
        [[rules]]
        name = "trusted"
        match.domain = "example.org"
        open = "fakebrowser.desktop"

        [[rules]]
        name = "no facebook"
        match.domain = "facebook.com"
        discard = true

        [[rules]]
        name = "loopback"
        match.host = "127.0.0.1"
        discard = true

        [default]
        open = "other.desktop"
        """

    struct Bypass: Sendable, CustomTestStringConvertible {
        var url: String
        /// nil: refused as not a URL.
        var rule: String?
        var finalURL: String? = nil
        var testDescription: String { url }
    }

    /// The bypasses found by the differential run: each is refused, or the rule that matched is
    /// the one for the host the browser will open, and the URL it gets names that host.
    @Test(arguments: [
        Bypass(url: "https://evil.com%00.example.org/", rule: nil),
        Bypass(url: "https://facebook.com%00.example/", rule: nil),
        Bypass(url: "https://evil.com%0A.example.org/", rule: nil),
        Bypass(url: "https://evil.com\\@example.org/p", rule: "default", finalURL: "https://evil.com/@example.org/p"),
        Bypass(url: "https://example\u{3002}org/", rule: "trusted", finalURL: "https://example.org/"),
        Bypass(url: "https://example\u{FF0E}org/x", rule: "trusted", finalURL: "https://example.org/x"),
        Bypass(url: "https://\u{FF45}\u{FF58}\u{FF41}\u{FF4D}\u{FF50}\u{FF4C}\u{FF45}.org/", rule: "trusted", finalURL: "https://example.org/"),
        Bypass(url: "https://www.facebook.com./", rule: "no facebook"),
        Bypass(url: "https://FACEBOOK.COM/", rule: "no facebook"),
        Bypass(url: "https://0x7f.1/", rule: "loopback"),
        Bypass(url: "https://2130706433/", rule: "loopback"),
        Bypass(url: "https://127.1/", rule: "loopback"),
        Bypass(url: "https://0177.0.0.1/", rule: "loopback"),
        Bypass(url: "https://127.0.0.1./", rule: "loopback"),
        // The URL Standard removes tabs and line breaks anywhere, and so do browsers (refused before issue 22).
        Bypass(url: "https://ex\tample.org/", rule: "trusted", finalURL: "https://example.org/"),
        Bypass(url: "https://exa\nmple.org/", rule: "trusted", finalURL: "https://example.org/"),
    ])
    func bypassConfigsAreClosed(bypass: Bypass) throws {
        let engine = try RuleEngine.reading(Self.bypassConfig)
        for explain in [false, true] {
            do {
                let decision = try engine.decide(bypass.url, explain: explain)
                guard let rule = bypass.rule else {
                    Issue.record("\(bypass.url.debugDescription) was decided (\(decision.kind)) instead of refused")
                    continue
                }
                let label: String
                switch decision.rule {
                case .named(let name)?: label = name
                case .index(let index)?: label = "#\(index)"
                case nil: label = "default"
                }
                #expect(label == rule)
                if let finalURL = bypass.finalURL { #expect(decision.finalURL == finalURL) }
                // Whatever was decided, the URL handed on has the host the rules saw.
                let handed = try ParsedURL(decision.finalURL)
                #expect(handed.string == decision.finalURL)
            } catch {
                #expect(bypass.rule == nil, "refused \(bypass.url.debugDescription): \(error.message)")
            }
        }
    }
}

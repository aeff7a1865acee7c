import Testing
@testable import URLModel
@testable import Patterns
@testable import Hygiene
@testable import ConfigLanguage
@testable import Routing
@testable import RoutingCore

/// Regression tests for issue 14's config findings: every one an error with a position, never
/// a crash.
@Suite struct HostileConfigTests {
    /// What loading `text` reports: its errors, or the targets that name nothing installed.
    static func error(_ text: String) -> String? {
        do {
            return try ConfigLoader.load(text: text, path: "config.toml").missingAppsError?.description
        } catch {
            return error.description
        }
    }

    @Test(arguments: [
        "a" + String(repeating: ".a", count: 50_000) + " = 1\n",
        "[" + String(repeating: "a.", count: 50_000) + "a]\n",
        "[[" + String(repeating: "a.", count: 30_000) + "a]]\n",
        "x = { " + String(repeating: "a.", count: 30_000) + "a = 1 }\n",
        "\"a\"" + String(repeating: ".\"a\"", count: 30_000) + " = 1\n",
    ])
    func deepDottedKeysAreAnErrorNotACrash(text: String) {
        let message = Self.error(text)
        #expect(message?.contains("more than \(Self.ctomlMaxKeyParts) dotted parts") == true, "\(message ?? "loaded")")
        #expect(message?.hasPrefix("config.toml:1:") == true, "\(message ?? "loaded")")
    }

    static let ctomlMaxKeyParts = 64

    @Test func sixtyFourPartsAreFineAndDotsInStringsDoNotCount() {
        // 64 parts: toml++ reads it (the key is unknown, which is a different error).
        let parts = Array(repeating: "a", count: 64).joined(separator: ".")
        #expect(Self.error("\(parts) = 1\n")?.contains("dotted parts") == false)
        #expect(Self.error("\(parts).a = 1\n")?.contains("dotted parts") == true)
        let dotty = String(repeating: "a.", count: 500)
        #expect(Self.error("[[rules]]\nname = \"\(dotty)\"\nmatch.url = '\(dotty)'\nopen = \"\"\"\n\(dotty)\n\"\"\"\n# \(dotty)\n")?
            .contains("dotted parts") == false)
    }

    @Test func deepInlineNestingIsAnError() {
        #expect(Self.error("x = " + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000))?.contains("nested") == true)
        #expect(Self.error("x = " + String(repeating: "{a=", count: 50_000) + "1" + String(repeating: "}", count: 50_000))?.contains("nested") == true)
    }

    @Test(arguments: [
        ("[[rules]]\nname = \"a\\u0000b\"\nmatch.domain = \"x.org\"\nopen = \"b.desktop\"\n", "config.toml:2:8: a string contains a NUL"),
        ("[[rules]]\nmatch.domain = \"x.org\"\nopen = \"b\\u0000.desktop\"\n", "config.toml:3:8: a string contains a NUL"),
        ("\"a\\u0000\" = 1\n", "config.toml:1:1: a key contains a NUL"),
    ])
    func nulInStringsIsRefusedWithItsPosition(text: String, expected: String) {
        let message = Self.error(text)
        #expect(message?.hasPrefix(expected) == true, "\(message ?? "loaded")")
    }

    @Test func configsOverOneMebibyteAreRefused() {
        let text = "# " + String(repeating: "x", count: ConfigLoader.maximumBytes) + "\n"
        let message = Self.error(text)
        #expect(message?.contains("the limit is \(ConfigLoader.maximumBytes)") == true, "\(message ?? "loaded")")
    }

    @Test func tooManyRulesAreRefused() {
        let rule = "[[rules]]\nmatch.domain = \"x.org\"\ndiscard = true\n"
        let text = String(repeating: rule, count: ConfigLoader.maximumRules + 1)
        let message = Self.error(text)
        #expect(message?.contains("the limit is \(ConfigLoader.maximumRules)") == true, "\(message ?? "loaded")")
        #expect(Self.error(String(repeating: rule, count: 100)) == nil)
    }

    @Test func emptyConfigLoadsAsDefaults() throws {
        let config = try ConfigLoader.load(text: "", path: "config.toml")
        #expect(config.rules.isEmpty)
    }

    /// Finding 4: `$` let a glob match before a final newline while the index compared exactly,
    /// so `Open` and `Explain` decided differently.
    @Test(arguments: [
        "mailto:a@gmail.com%0A",
        "mailto:a@gmail.com%0a?subject=x",
        "mailto:a%0A@gmail.com",
        "https://zoom.us/j/1%0A",
        "https://zoom.us/j/%0A",
    ])
    func globsAnchorAtTheVeryEnd(url: String) throws {
        let config = try ConfigLoader.load(text: """
            [[rules]]
            name = "gmail"
            match.to = "*@gmail.com"
            copy = "{to}"

            [[rules]]
            name = "zoom"
            match.path = "/j/*"
            match.domain = "zoom.us"
            open = "Zoom.desktop"

            [[rules]]
            name = "other mail"
            match.scheme = "mailto"
            discard = true
            """, path: "config.toml")
        let engine = RuleEngine(config: config)
        let indexed = try engine.decide(url)
        let scanned = try engine.decide(url, explain: true)
        #expect(indexed.rule == scanned.rule, "index \(String(describing: indexed.rule)) vs scan \(String(describing: scanned.rule))")
        #expect(indexed.kind == scanned.kind)
    }

    @Test(arguments: [("a*", "ab\n", true), ("a*", "ab", true), ("*@gmail.com", "x@gmail.com\n", false), ("a?c", "a\nc", true)])
    func globMatchesTheWholeTextOnly(pattern: String, text: String, expected: Bool) throws {
        #expect(try Glob(pattern, separator: nil).matches(text) == expected)
    }

    /// Domains in the config are read as URL hosts are, so a rule names what a browser opens.
    @Test(arguments: [
        ("\u{FF45}\u{FF58}\u{FF41}\u{FF4D}\u{FF50}\u{FF4C}\u{FF45}.org", "https://example.org/"),
        ("EXAMPLE.ORG.", "https://www.example.org./"),
        ("0x7f.1", "https://127.0.0.1/"),
        ("b\u{FC}cher.de", "https://xn--bcher-kva.de/"),
    ])
    func configDomainsAreNormalisedLikeHosts(domain: String, url: String) throws {
        let config = try ConfigLoader.load(text: "[[rules]]\nmatch.domain = \"\(domain)\"\ndiscard = true\n[default]\nopen = \"b.desktop\"\n", path: "c.toml")
        #expect(try RuleEngine(config: config).decide(url).kind == .discard)
    }

    /// Finding 8: a redirect wrapper whose target does not parse stays, but is still cleaned,
    /// and what hygiene hands on always parses.
    @Test(arguments: [
        "https://www.google.com/url?q=https%3A%2F%2Fevil.com%2500.example.org%2F&utm_source=x",
        "https://www.google.com/url?q=https%3A%2F%2F0x7f.1.2.3.4%2F&utm_source=x",
        "https://www.google.com/url?q=https%3A%2F%2Fa%3Ab%3Ac%2F&utm_source=x",
        "https://l.facebook.com/l.php?u=https%3A%2F%2F%5B%3A%3A1%3A2%3A%3A%5D%2F&fbclid=1&utm_medium=y",
    ])
    func unparsableRedirectTargetsLeaveACleanedWrapper(url: String) throws {
        let decision = try RuleEngine(config: Config()).decide(url)
        #expect(!decision.finalURL.contains("utm_"), "\(decision.finalURL)")
        #expect(!decision.finalURL.contains("fbclid"), "\(decision.finalURL)")
        #expect(throws: Never.self) { try ParsedURL(decision.finalURL) }
        let hygiene = URLHygiene()
        #expect(throws: Never.self) { try ParsedURL(hygiene.apply(to: url).url) }
    }
}

/// Finding 3: Punycode on megabyte labels took minutes; now bounded, and it round-trips.
@Suite struct PunycodeBoundsTests {
    @Test func hugeLabelsAreRefusedNotChewedOn() {
        #expect(Punycode.decode(String(repeating: "a", count: 1 << 20) + "-9") == nil)
        let distinct = String(String.UnicodeScalarView((0x100..<0x10100).compactMap(Unicode.Scalar.init)))
        #expect(Punycode.encode(distinct) == nil)
        #expect(throws: URLParseError.self) { try ParsedURL("https://xn--" + String(repeating: "a", count: 1 << 16) + "/") }
        #expect(throws: URLParseError.self) { try ParsedURL("foo://xn--" + String(repeating: "a", count: 1 << 16) + "/") }
    }

    @Test(arguments: ["bücher", "münchen-ost", "☃", "例え", "ü" + String(repeating: "ä", count: 40), "ab"])
    func roundTrips(label: String) throws {
        let encoded = try #require(Punycode.encode(label))
        #expect(Punycode.decode(encoded) == label)
    }

    /// Found by Fuzz/Targets/punycode: a label at the bound encoded to more bytes than decode took.
    @Test func theLongestLabelEncodeTakesDecodesAgain() throws {
        let label = String(String.UnicodeScalarView((0..<Punycode.maximumInput).compactMap { Unicode.Scalar(0x4E00 + ($0 * 7919) % 20000) }))
        let encoded = try #require(Punycode.encode(label))
        #expect(encoded.utf8.count > Punycode.maximumInput)
        #expect(Punycode.decode(encoded) == label)
    }

    @Test func knownVectors() {
        #expect(Punycode.encode("bücher") == "bcher-kva")
        #expect(Punycode.decode("bcher-kva") == "bücher")
        #expect(Punycode.toASCII(host: "bücher.de") == "xn--bcher-kva.de")
    }
}

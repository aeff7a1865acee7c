import Testing
@testable import URLModel
@testable import ConfigLanguage
@testable import Routing
import Foundation
@testable import RoutingCore

/// Issue 22: matchers see what the URL Standard hands on. `match.to` matches a recipient in its
/// display and its ASCII (`xn--`) form, through the index and the scan alike; `match.path` and
/// `match.url` globs written with spaces or non-ASCII are encoded at load as the URL is.
@Suite struct MatcherFormsTests {
    static func decideBothWays(_ config: String, _ url: String) throws -> [String?] {
        let engine = try RuleEngine.reading(config, path: "m.toml")
        return try [false, true].map { explain in try engine.decide(url, explain: explain).rule?.description }
    }

    @Test(arguments: [
        ("*@bücher.de", "mailto:a@bücher.de"), ("*@bücher.de", "mailto:a@xn--bcher-kva.de"),
        ("*@xn--bcher-kva.de", "mailto:a@bücher.de"), ("*@xn--bcher-kva.de", "mailto:a@xn--bcher-kva.de"),
        ("*@BÜCHER.de", "mailto:a@b%C3%BCcher.de"), ("*@xn--bcher-kva.de", "mailto:x@y.org?cc=a@b%C3%BCcher.de"),
        ("a@*.xn--bcher-kva.de", "mailto:a@mail.bücher.de"), ("a@mail.bücher.*", "mailto:a@mail.xn--bcher-kva.de"),
    ])
    func toMatchesBothFormsOfAnAddress(glob: String, url: String) throws {
        let config = "[[rules]]\nname = \"idn\"\nmatch.to = \"\(glob)\"\ndiscard = true\n[default]\nsystem = true\n"
        #expect(try Self.decideBothWays(config, url) == ["idn", "idn"], "\(glob) vs \(url)")
    }

    /// Links often carry `Name <addr>` (RFC 6068 has only the address, mail programs write both).
    @Test(arguments: [
        ("*@corp.example", "mailto:Jane%20Doe%20%3Cjane@corp.example%3E", "to"),
        ("jane@corp.example", "mailto:%22Doe,%20Jane%22%20%3Cjane@corp.example%3E?subject=x", "to"),
        ("*@bücher.de", "mailto:Jane%20%3Cjane@xn--bcher-kva.de%3E", "to"),
        ("*@xn--bcher-kva.de", "mailto:Jane%20%3Cjane@b%C3%BCcher.de%3E", "to"),
        ("*@corp.example", "mailto:x@y.org?cc=Jane%20%3Cjane@corp.example%3E", "to"),
        ("*@corp.example", "mailto:Jane%20%3Cjane@other.example%3E", nil),
        ("*@corp.example", "mailto:%22a%20%3Cb@corp.example%3E%22@other.example", nil),
    ] as [(String, String, String?)])
    func toMatchesTheAddressInsideNameAndBrackets(glob: String, url: String, rule: String?) throws {
        let config = "[[rules]]\nname = \"to\"\nmatch.to = \"\(glob)\"\ndiscard = true\n[default]\nsystem = true\n"
        #expect(try Self.decideBothWays(config, url) == [rule, rule], "\(glob) vs \(url)")
    }

    @Test func toDoesNotMatchAnotherDomain() throws {
        let config = "[[rules]]\nname = \"idn\"\nmatch.to = [\"*@bücher.de\", \"*@xn--bcher-kva.de\"]\ndiscard = true\n[default]\nsystem = true\n"
        #expect(try Self.decideBothWays(config, "mailto:a@bucher.de") == [nil, nil])
        #expect(try Self.decideBothWays(config, "mailto:a@xn--bcher-kva.de.evil.example") == [nil, nil])
    }

    struct GlobCase: Sendable, CustomTestStringConvertible {
        var key: String
        var glob: String
        var url: String
        var matches: Bool
        var testDescription: String { "\(key) \(glob) vs \(url)" }
    }

    @Test(arguments: [
        GlobCase(key: "path", glob: "/café/*", url: "https://example.com/café/x", matches: true),
        GlobCase(key: "path", glob: "/café/*", url: "https://example.com/caf%C3%A9/x", matches: true),
        GlobCase(key: "path", glob: "/café/*", url: "https://example.com/cafe/x", matches: false),
        GlobCase(key: "path", glob: "/a b/*", url: "https://example.com/a b/x", matches: true),
        GlobCase(key: "path", glob: "/{x}/\"q\"", url: "https://example.com/{x}/\"q\"", matches: true),
        GlobCase(key: "path", glob: "/caf\\é/*", url: "https://example.com/café/x", matches: true),
        GlobCase(key: "path", glob: "/ca?é/*", url: "https://example.com/café/x", matches: true),
        GlobCase(key: "path", glob: "/**/日本", url: "https://example.com/a/b/日本", matches: true),
        // Other schemes keep non-ASCII as written (and encode only spaces and controls).
        GlobCase(key: "path", glob: "josé@*", url: "mailto:josé@example.org", matches: true),
        GlobCase(key: "path", glob: "a b@*", url: "mailto:a b@x.org", matches: true),
        GlobCase(key: "url", glob: "https://bücher.de/café/*", url: "https://BÜCHER.de/café/1", matches: true),
        GlobCase(key: "url", glob: "https://*.bücher.de/*", url: "https://shop.bücher.de/x", matches: true),
        GlobCase(key: "url", glob: "https://example.com/search?q=ä*", url: "https://example.com/search?q=ä b", matches: true),
        GlobCase(key: "url", glob: "https://example.com/#ä", url: "https://example.com/#ä", matches: true),
        GlobCase(key: "url", glob: "*://example.com/café", url: "https://example.com/café", matches: true),
        GlobCase(key: "url", glob: "*:josé@*", url: "mailto:josé@example.org", matches: true),
        GlobCase(key: "url", glob: "mailto:josé@*", url: "mailto:josé@example.org", matches: true),
        GlobCase(key: "url", glob: "mailto:josé@*", url: "mailto:jos%C3%A9@example.org", matches: false),
    ])
    func globsAreWrittenAsTheURLIs(testCase: GlobCase) throws {
        let value = testCase.glob.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let config = "[[rules]]\nname = \"g\"\nmatch.\(testCase.key) = \"\(value)\"\ndiscard = true\n[default]\nsystem = true\n"
        let expected: [String?] = testCase.matches ? ["g", "g"] : [nil, nil]
        #expect(try Self.decideBothWays(config, testCase.url) == expected)
        #expect(try ConfigLoader.load(text: config, path: "m.toml").warnings.isEmpty)
    }

    @Test(arguments: [
        ("path", "/[éè]/*", "the class [éè]"),
        ("url", "https://example.org/[äa]*", "the class [äa]"),
        ("url", "https://b*cher-ü.de/*", "the host label \"b*cher-ü\""),
    ])
    func whatNoURLCanHoldIsAWarning(key: String, glob: String, warning: String) throws {
        let config = "[[rules]]\nmatch.\(key) = \"\(glob)\"\ndiscard = true\n"
        let warnings = try ConfigLoader.load(text: config, path: "m.toml").warnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.description.hasPrefix("m.toml:2:") == true, "\(warnings)")
        #expect(warnings.first?.message.contains(warning) == true, "\(warnings)")
    }

    @Test func pathGlobFormsAtLoad() {
        #expect(GlobText.pathForms("/café/*").patterns == ["/caf%C3%A9/*", "/café/*"])
        #expect(GlobText.pathForms("/a b/*").patterns == ["/a%20b/*"])
        #expect(GlobText.pathForms("/plain/**").patterns == ["/plain/**"])
        #expect(GlobText.pathForms("/x^y`{z}").patterns == ["/x%5Ey%60%7Bz%7D", "/x^y`{z}"])
        #expect(GlobText.urlForms("https://bücher.de/ä").patterns == ["https://xn--bcher-kva.de/%C3%A4"])
        #expect(GlobText.urlForms("mailto:a b@ü.de").patterns == ["mailto:a%20b@ü.de"])
    }
}

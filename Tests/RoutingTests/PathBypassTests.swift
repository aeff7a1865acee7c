import Testing
@testable import URLModel
@testable import ConfigLanguage
@testable import Routing
@testable import RoutingCore

/// Issue 22, finding 1: path rules see the path the browser opens (dot segments applied, `\`
/// as `/`, percent-encoded as the URL Standard does), and that path is the one handed on.
@Suite struct PathBypassTests {
    static let config = """
        [[rules]]
        name = "no admin"
        match.domain = "example.com"
        match.path = "/admin/**"
        discard = true

        [[rules]]
        name = "zoom"
        match.domain = "zoom.us"
        match.path = "/j/*"
        open = "zoom.desktop"

        [[rules]]
        name = "private"
        match.url = "https://example.org/private/*"
        discard = true

        [default]
        open = "other.desktop"
        """

    struct Case: Sendable, CustomTestStringConvertible {
        var url: String
        var rule: String
        var finalURL: String
        var testDescription: String { url }
    }

    @Test(arguments: [
        Case(url: "https://example.com/x/../admin/x", rule: "no admin", finalURL: "https://example.com/admin/x"),
        Case(url: "https://example.com/%2e%2e/admin/x", rule: "no admin", finalURL: "https://example.com/admin/x"),
        Case(url: "https://example.com/./admin/x", rule: "no admin", finalURL: "https://example.com/admin/x"),
        Case(url: "https://example.com/.%2E/admin/x", rule: "no admin", finalURL: "https://example.com/admin/x"),
        Case(url: "https://example.com\\admin\\x", rule: "no admin", finalURL: "https://example.com/admin/x"),
        Case(url: "https://example.com/ad\tmin/x", rule: "no admin", finalURL: "https://example.com/admin/x"),
        Case(url: "https://zoom.us/x/../j/123", rule: "zoom", finalURL: "https://zoom.us/j/123"),
        Case(url: "https://zoom.us/j/123/../../evil", rule: "default", finalURL: "https://zoom.us/evil"),
        Case(url: "https://zoom.us/j/%2e%2e", rule: "default", finalURL: "https://zoom.us/"),
        Case(url: "https://example.org/x/%2E%2E/private/a", rule: "private", finalURL: "https://example.org/private/a"),
        Case(url: "https://example.org/private/./a", rule: "private", finalURL: "https://example.org/private/a"),
    ])
    func pathRulesSeeTheBrowsersPath(testCase: Case) throws {
        let engine = try RuleEngine.reading(Self.config)
        for explain in [false, true] {
            let decision = try engine.decide(testCase.url, explain: explain)
            let label: String
            switch decision.rule {
            case .named(let name)?: label = name
            case .index(let index)?: label = "#\(index)"
            case nil: label = "default"
            }
            #expect(label == testCase.rule)
            #expect(decision.finalURL == testCase.finalURL)
            // What is handed on re-parses to itself: no dot segment is left for the app to apply.
            #expect(try ParsedURL(decision.finalURL).string == decision.finalURL)
        }
    }
}

import Testing
@testable import URLModel
@testable import Patterns
@testable import TOML

@Suite struct TOMLParserTests {
    @Test func keepsSourceOrderAndPositions() throws {
        let root = try TOMLParser.parse("zeta = 1\nalpha = \"x\"\n[[rules]]\nname = \"a\"\n")
        let members = try #require(root.members)
        #expect(members.map(\.key) == ["zeta", "alpha", "rules"])
        #expect(members[1].node.position == SourcePosition(line: 2, column: 9))
        #expect(members[1].node.keyPosition == SourcePosition(line: 2, column: 1))
        guard case .array(let rules) = try #require(root["rules"]).value else {
            Issue.record("rules is not an array"); return
        }
        #expect(rules.count == 1)
        #expect(rules[0]["name"]?.position.line == 4)
    }

    @Test(arguments: [
        ("a = ", 1),
        ("a = 1\nb = [1,\n", 2),
        ("[x]\n[x]\n", 2),
    ])
    func syntaxErrorsCarryTheLine(text: String, line: Int) {
        #expect(throws: TOMLSyntaxError.self) { try TOMLParser.parse(text) }
        do { _ = try TOMLParser.parse(text) } catch { #expect(error.position.line == line) }
    }
}

@Suite struct PatternRegexTests {
    @Test func matchesAndCaptures() throws {
        let regex = try PatternRegex("^https://(www\\.)?twitter\\.com/(.*)$")
        #expect(regex.matches("https://twitter.com/a"))
        #expect(!regex.matches("https://x.com/a"))
        #expect(regex.firstMatch(in: "https://twitter.com/abc")?[2] == "abc")
        #expect(regex.firstMatch(in: "https://twitter.com/abc")?[1] == .some(nil))
        #expect(try regex.replacing(in: "https://www.twitter.com/q", with: "https://x.com/$2") == "https://x.com/q")
    }

    @Test func badPatternsThrowWithOffset() {
        #expect(throws: PatternRegex.CompileError.self) { try PatternRegex("a(b") }
    }

    /// Start-up compiles no machine code: the JIT runs on a pattern's first match, and matches
    /// the same before and after.
    @Test func jitCompilationWaitsForTheFirstMatch() throws {
        let regex = try PatternRegex("^https://([a-z]+)\\.example/", caseInsensitive: true)
        #expect(!regex.isJITCompiled)
        #expect(regex.matches("HTTPS://www.example/x"))
        #expect(regex.isJITCompiled)
        #expect(regex.matches("https://www.example/"))
        #expect(!regex.matches("https://www.example.org/"))
        let other = try PatternRegex("b+")
        #expect(try other.replacing(in: "abbbc", with: "", global: true) == "ac")
        #expect(other.isJITCompiled)
    }
}

@Suite struct PercentEncodingTests {
    @Test(arguments: [
        ("a b&c=d/é", PercentEncoding.Allowed.unreserved, "a%20b%26c%3Dd%2F%C3%A9"),
        ("a b/c", .path, "a%20b/c"),
    ])
    func encodes(input: String, allowed: PercentEncoding.Allowed, expected: String) {
        #expect(PercentEncoding.encode(input, allowing: allowed) == expected)
    }

    @Test(arguments: [
        ("a%20b", false, "a b"), ("a+b", true, "a b"), ("a+b", false, "a+b"),
        ("100%", false, "100%"), ("%zz%4", false, "%zz%4"), ("%C3%A9", false, "é"),
    ])
    func decodes(input: String, plus: Bool, expected: String) {
        #expect(PercentEncoding.decode(input, plusAsSpace: plus) == expected)
    }

    @Test func invalidUTF8DecodesToNil() { #expect(PercentEncoding.decode("%FF%FE") == nil) }
}

import Testing
@testable import Routing

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
}

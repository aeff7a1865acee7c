import Testing
@testable import ConfigLanguage
@testable import RoutingCore

/// Appending a rule to the user's file: every byte already there stays, the block comes last,
/// and the result loads with the new rule as the last one; a file it cannot join fails to load.
@Suite struct RuleAppenderTests {
    static let block = "[[rules]]\nname = \"New\"\nmatch.domain = \"example.org\"\ncopy = true\n"

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var existing: String?
        /// The whole result.
        var expected: String
        /// The rules the result loads with; nil: it must not load.
        var rules: [String]?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "no file", existing: nil, expected: RuleAppender.header + "\n" + block, rules: ["New"]),
        Case(name: "empty file", existing: "", expected: RuleAppender.header + "\n" + block, rules: ["New"]),
        Case(name: "a final newline", existing: "[settings]\nclean = true\n",
             expected: "[settings]\nclean = true\n\n" + block, rules: ["New"]),
        Case(name: "no final newline", existing: "[settings]\nclean = true",
             expected: "[settings]\nclean = true\n\n" + block, rules: ["New"]),
        Case(name: "a blank line already", existing: "[default]\ncopy = true\n\n",
             expected: "[default]\ncopy = true\n\n" + block, rules: ["New"]),
        Case(name: "CRLF lines", existing: "[settings]\r\nclean = true\r\n",
             expected: "[settings]\r\nclean = true\r\n\r\n" + block.replacing("\n", with: "\r\n"), rules: ["New"]),
        Case(name: "CRLF without a final newline", existing: "# mine\r\n[settings]\r\nclean = true",
             expected: "# mine\r\n[settings]\r\nclean = true\r\n\r\n" + block.replacing("\n", with: "\r\n"), rules: ["New"]),
        Case(name: "ends in a comment", existing: "[[rules]]\nname = \"Old\"\ncopy = true\n# the end, no newline",
             expected: "[[rules]]\nname = \"Old\"\ncopy = true\n# the end, no newline\n\n" + block, rules: ["Old", "New"]),
        Case(name: "last table is [apps]", existing: "[[rules]]\nname = \"Old\"\nopen = \"work\"\n\n[apps.work]\nexec = [\"w\", \"{url}\"]\n",
             expected: "[[rules]]\nname = \"Old\"\nopen = \"work\"\n\n[apps.work]\nexec = [\"w\", \"{url}\"]\n\n" + block, rules: ["Old", "New"]),
        Case(name: "only whitespace", existing: "  \n", expected: "  \n" + block, rules: ["New"]),
        Case(name: "top-level keys only", existing: "# a comment\n", expected: "# a comment\n\n" + block, rules: ["New"]),
        Case(name: "rules as an inline array", existing: "rules = [{ name = \"Old\", copy = true }]\n",
             expected: "rules = [{ name = \"Old\", copy = true }]\n\n" + block, rules: nil),
    ]

    @Test(arguments: cases)
    func theFileIsAPrefixAndTheResultLoads(_ test: Case) {
        let result = RuleAppender.appending(Self.block, to: test.existing)
        #expect(result == test.expected)
        // Bytes, not Characters: "\r\n" is one Character, and a prefix must hold byte for byte.
        #expect(Array(result.utf8).starts(with: Array((test.existing ?? "").utf8)))
        let loaded = try? ConfigLoader.load(text: result, path: "/c/config.toml")
        #expect(loaded?.rules.map(\.label) == test.rules)
    }
}

import Testing
@testable import ConfigLanguage

/// Forgetting a remembered answer (`ForgetRemembered`, `openurl rules forget`): the block goes,
/// every other line of remembered.toml stays as it was.
@Suite struct ForgetRememberedTests {
    static func block(_ name: String, domain: String = "a.org", open: String = "x.desktop") -> String {
        "[[rules]]\nname = \"\(name)\"\nmatch.domain = \"\(domain)\"\nopen = \"\(open)\"\n"
    }

    /// Answers added one after another and the one forgotten: the file is then what it would be
    /// had that answer never been added.
    @Test(arguments: [
        (["A"], "A"),
        (["A", "B"], "A"),
        (["A", "B"], "B"),
        (["A", "B", "C"], "B"),
    ])
    func forgettingGivesTheFileAsIfNeverAdded(added: [String], forgotten: String) throws {
        var text: String?
        var without: String?
        for name in added {
            text = RememberedRules.adding(Self.block(name), named: name, to: text)
            if name != forgotten { without = RememberedRules.adding(Self.block(name), named: name, to: without) }
        }
        let result = try RememberedRules.removing(named: forgotten, from: text ?? "")
        #expect(result == (without ?? RememberedRules.header), "\(result ?? "nil")")
    }

    @Test(arguments: [
        // The comment before the next block is that block's, and stays.
        ("[[rules]]\nname = \"A\"\ncopy = true\n\n# keep me\n[[rules]]\nname = \"B\"\ncopy = true\n", "A",
         "# keep me\n[[rules]]\nname = \"B\"\ncopy = true\n"),
        // A comment above the forgotten block is not known to be its own: it stays.
        ("# mine\n[[rules]]\nname = \"A\"\ncopy = true\n", "A", "# mine\n"),
        // A sub-table goes with its block.
        ("[[rules]]\nname = \"A\"\ncopy = true\n[rules.match]\ndomain = \"a.org\"\n\n[[rules]]\nname = \"B\"\ndiscard = true\n", "A",
         "[[rules]]\nname = \"B\"\ndiscard = true\n"),
        // Windows line endings, odd spacing and a literal string are kept as they are.
        ("[[rules]]\r\nname = 'B'\r\ndiscard = true\r\n\r\n[[ rules ]]  # the one\r\nname   =   \"A\"\r\ncopy = true\r\n", "A",
         "[[rules]]\r\nname = 'B'\r\ndiscard = true\r\n"),
        // Two blocks of the same name: both go (the second would answer in the first one's place).
        ("[[rules]]\nname = \"A\"\ncopy = true\n\n[[rules]]\nname = \"B\"\ncopy = true\n\n[[rules]]\nname = \"A\"\ndiscard = true\n", "A",
         "[[rules]]\nname = \"B\"\ncopy = true\n"),
        // The only block, and nothing else: nothing is left.
        ("[[rules]]\nname = \"A\"\ncopy = true\n", "A", ""),
    ])
    func forgettingKeepsEveryOtherLine(text: String, name: String, expected: String) throws {
        #expect(try RememberedRules.removing(named: name, from: text) == expected)
    }

    @Test func anUnknownNameChangesNothing() throws {
        #expect(try RememberedRules.removing(named: "Z", from: Self.block("A")) == nil)
        #expect(try RememberedRules.removing(named: "a", from: Self.block("A")) == nil)
        #expect(try RememberedRules.removing(named: "A", from: "") == nil)
    }

    @Test(arguments: [
        ("rules = [{ name = \"A\", copy = true }, { name = \"B\", copy = true }]\n", "not written as a [[rules]] block of its own"),
        ("[[rules]]\nname = \"A\"\ncopy = \n", "remembered.toml:3:"),
    ])
    func whatCannotBeCutOutIsRefused(text: String, message: String) {
        #expect {
            try RememberedRules.removing(named: "A", from: text)
        } throws: { error in
            (error as? RememberedRules.ForgetError)?.description.contains(message) == true
        }
    }
}

import Testing
@testable import ConfigLanguage

/// `DescribeRules`' `match` and `target`: a rule's matchers on one line as its keys read in the
/// file, and where it sends links as written.
@Suite struct MatchTextTests {
    static func rule(_ keys: String) throws -> (Config, Rule) {
        let config = try ConfigLoader.load(text: "[[rules]]\nname = \"r\"\n" + keys + "\n", path: "/c/config.toml")
        return (config, try #require(config.rules.first))
    }

    @Test(arguments: [
        ("open = \"x.desktop\"", ""),
        ("match.domain = \"example.org\"\nopen = \"x.desktop\"", "domain = \"example.org\""),
        ("match.host = \"a.example.org\"\nmatch.path = \"/x/*\"\nopen = \"x.desktop\"", "host = \"a.example.org\", path = \"/x/*\""),
        ("match.scheme = \"mailto\"\nmatch.to = \"*@corp.example.com\"\nopen = \"x.desktop\"", "scheme = \"mailto\", to = \"*@corp.example.com\""),
        ("match.opener = \"slack\"\ncopy = true", "opener = \"slack\""),
        ("match.domain = [\"a.org\", \"b.org\"]\ndiscard = true", "domain = [\"a.org\", \"b.org\"]"),
        // A glob and a domain as written: not expanded into their percent-encoded forms, not normalised.
        ("match.path = \"/caf%C3%A9/*\"\nmatch.domain = \"Bücher.DE\"\ndiscard = true", "path = \"/caf%C3%A9/*\", domain = \"Bücher.DE\""),
        ("match = { domain = \"example.org\", path = \"/a\" }\ndiscard = true", "domain = \"example.org\", path = \"/a\""),
        ("match.query.utm_source = \"*\"\nmatch.query.\"a.b\" = \"x\"\ndiscard = true", "query = { utm_source = \"*\", \"a.b\" = \"x\" }"),
        ("match.regex = '^https://x\\.org/'\ndiscard = true", "regex = \"^https://x\\\\.org/\""),
        ("match.network = \"Office*\"\nmatch.not = { vpn = true }\nopen = \"x.desktop\"", "network = \"Office*\", not = { vpn = true }"),
        ("match.any = [{ network = \"Office\" }, { time = \"09:00-17:00\", days = \"mon-fri\" }]\nopen = \"x.desktop\"",
         "any = [{ network = \"Office\" }, { time = \"09:00-17:00\", days = \"mon-fri\" }]"),
        ("match.modifiers = [\"ctrl\", \"shift\"]\nmatch.window = \"*Project \\\"X\\\"*\"\nopen = \"x.desktop\"",
         "modifiers = [\"ctrl\", \"shift\"], window = \"*Project \\\"X\\\"*\""),
    ])
    func matchReadsAsTheKeys(keys: String, expected: String) throws {
        let (config, rule) = try Self.rule(keys)
        #expect(config.matchText(of: rule) == expected)
    }

    @Test(arguments: [
        ("open = \"firefox-esr:Work\"", "firefox-esr:Work"),
        ("open = \"x.desktop:new-window\"", "x.desktop:new-window"),
        ("open = [\"a.desktop\", \"b.desktop\"]", "a.desktop, b.desktop"),
        ("system = true", "system"),
        ("copy = true", ""),
        ("discard = true", ""),
        ("ask = [\"a.desktop\", \"copy\"]", ""),
    ])
    func targetIsWhereItOpens(keys: String, expected: String) throws {
        #expect(try Self.rule(keys).1.action.targetText == expected)
    }

    @Test func aSiteListRuleSaysItsList() throws {
        let config = try ConfigLoader.load(text: "[[sitelist]]\nname = \"Legacy\"\npath = \"/etc/sites.xml\"\nformat = \"lines\"\nopen = \"x.desktop\"\n", path: "/c/config.toml")
        let rule = try #require(config.rules.first)
        #expect(config.matchText(of: rule) == "sitelist = \"/etc/sites.xml\"")
    }
}

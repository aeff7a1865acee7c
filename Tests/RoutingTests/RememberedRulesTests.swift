import Testing
@testable import RoutingCore
@testable import Catalog
@testable import ConfigLanguage
@testable import Routing
@testable import URLModel
import Foundation
import Foundation

/// Remembered answers: the scopes the chooser offers, the file they go into, and their place before the rules.
@Suite struct RememberedRulesTests {
    @Test(arguments: [
        ("domain", "example.org", "browser.desktop", "[[rules]]\nname = \"Remembered: example.org\"\nmatch.domain = \"example.org\"\nopen = \"browser.desktop\"\n"),
        ("host", "www.example.org", "copy", "[[rules]]\nname = \"Remembered: www.example.org only\"\nmatch.host = \"www.example.org\"\ncopy = true\n"),
        ("opener", "slack", "work", "[[rules]]\nname = \"Remembered: links from slack\"\nmatch.opener = \"slack\"\nopen = \"work\"\n"),
        ("mail-domain", "corp.example.com", "gmail", "[[rules]]\nname = \"Remembered: mail to @corp.example.com\"\nmatch.scheme = \"mailto\"\nmatch.to = \"*@corp.example.com\"\nopen = \"gmail\"\n"),
    ])
    func rememberedRuleTexts(scope: String, value: String, choice: String, expected: String) throws {
        #expect(try RememberedRules.ruleText(scope: scope, value: value, choice: choice) == expected)
    }

    @Test func rememberingRefusesGlobCharactersAndUnknownScopes() {
        #expect(throws: RememberedRules.RememberError.self) { try RememberedRules.ruleText(scope: "opener", value: "sl*ck", choice: "copy") }
        #expect(throws: RememberedRules.RememberError.self) { try RememberedRules.ruleText(scope: "planet", value: "earth", choice: "copy") }
    }

    @Test func addingReplacesTheSameNameAndKeepsEverythingElse() throws {
        let first = try RememberedRules.ruleText(scope: "domain", value: "a.org", choice: "x.desktop")
        let second = try RememberedRules.ruleText(scope: "domain", value: "b.org", choice: "x.desktop")
        var text = RememberedRules.adding(first, named: "Remembered: a.org", to: nil)
        text = text.replacingOccurrences(of: "[[rules]]\nname = \"Remembered: a.org\"", with: "# mine\n[[rules]]\nname = \"Remembered: a.org\"")
        text = RememberedRules.adding(second, named: "Remembered: b.org", to: text)
        let replaced = try RememberedRules.ruleText(scope: "domain", value: "a.org", choice: "copy")
        text = RememberedRules.adding(replaced, named: "Remembered: a.org", to: text)
        #expect(text.contains("# mine\n[[rules]]\nname = \"Remembered: a.org\"\nmatch.domain = \"a.org\"\ncopy = true\n\n[[rules]]\nname = \"Remembered: b.org\""), "\(text)")
        #expect(text.components(separatedBy: "[[rules]]").count == 3)
    }

    @Test func rememberedRulesComeFirstAndMayNameTheConfigsApps() throws {
        let config = try ConfigLoader.load(text: """
            [apps.work]
            exec = ["work-browser", "{url}"]

            [[rules]]
            name = "ask"
            match.domain = "example.org"
            ask = ["work", "copy"]
            """, path: "/c/config.toml")
        let merged = try ConfigLoader.loadRemembered(text: RememberedRules.header + "\n" + (try RememberedRules.ruleText(scope: "domain", value: "example.org", choice: "work")),
                                                     path: "/c/remembered.toml", into: config)
        // Remembered answers are kept apart: they answer the rule's question (issue 21, case 3).
        #expect(merged.rules.map(\.label) == ["ask"])
        #expect(merged.remembered.map(\.label) == ["Remembered: example.org"])
        let decision = try RuleEngine(config: merged).decide("https://www.example.org/")
        #expect(decision.kind == .open)
        #expect(decision.rule == .named("Remembered: example.org"))
    }

    @Test(arguments: [
        ("[settings]\nclean = false\n", "/c/remembered.toml:1:2: unknown key \"settings\" in remembered.toml (only [[rules]] tables)"),
        ("[[rules]]\nmatch.domain = \"a.org\"\ncopy = true\n", "/c/remembered.toml:1:1: remembered rule #1 has no name"),
        ("[[rules]]\nname = \"ask\"\nmatch.domain = \"a.org\"\ncopy = true\n", "/c/remembered.toml:1:1: rule name \"ask\" is also used in /c/config.toml"),
    ])
    func badRememberedFilesAreErrorsWithPositions(text: String, expected: String) throws {
        let config = try ConfigLoader.load(text: "[[rules]]\nname = \"ask\"\nask = [\"copy\"]\n", path: "/c/config.toml")
        #expect {
            try ConfigLoader.loadRemembered(text: text, path: "/c/remembered.toml", into: config)
        } throws: { error in
            let description = (error as? ConfigError)?.description ?? ""
            return description.hasPrefix(expected) || { print(description); return false }()
        }
    }

    @Test(arguments: [
        ("", nil, [Config.AskWith.window, .notification, .picker]),
        ("picker = [\"fuzzel\", \"--dmenu\"]\n", nil, [.picker, .window, .notification]),
        ("ask_with = \"notification\"\n", Config.AskWith.notification, [.notification, .window, .picker]),
        ("ask_with = \"window\"\npicker = [\"fuzzel\"]\n", Config.AskWith.window, [.window, .notification, .picker]),
    ] as [(String, Config.AskWith?, [Config.AskWith])])
    func askWithOrdersTheWaysToAsk(settings: String, askWith: Config.AskWith?, order: [Config.AskWith]) throws {
        let config = try ConfigLoader.load(text: "[settings]\n" + settings, path: "c.toml")
        #expect(config.settings.askWith == askWith)
        #expect(config.settings.askOrder == order)
    }
}

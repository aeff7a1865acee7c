import Foundation
import Testing
@testable import Routing
@testable import URLModel

/// The chooser's pure parts: registrable domains, homographs, the link preview, remembered rules.
@Suite struct ChooserModelTests {
    /// Debian's list when installed (the tests below say which cases need it).
    static let publicSuffixList: [UInt8]? = FileManager.default.contents(atPath: PublicSuffixList.debianPath).map(Array.init)

    @Test(arguments: [
        ("www.example.co.uk", "example.co.uk"),
        ("example.org", "example.org"),
        ("a.b.c.example.com", "example.com"),
        ("foo.github.io", "foo.github.io"),  // a private-section suffix
        ("city.kawasaki.jp", "city.kawasaki.jp"),  // an exception rule (!city.kawasaki.jp)
        ("x.y.kawasaki.jp", "x.y.kawasaki.jp"),  // a wildcard rule (*.kawasaki.jp)
        ("www.xn--bcher-kva.de", "xn--bcher-kva.de"),
        ("shop.example.xn--p1ai", "example.xn--p1ai"),  // .рф written in the list in Unicode
    ])
    func registrableDomainsFromTheList(host: String, expected: String) throws {
        let list = try #require(Self.publicSuffixList, "install Debian's publicsuffix package (\(PublicSuffixList.debianPath))")
        #expect(PublicSuffixList.registrableDomain(of: host, listText: list) == expected)
    }

    @Test(arguments: [
        ("co.uk", nil),
        ("localhost", nil),
        ("192.168.1.10", nil),
        ("[::1]", nil),
    ] as [(String, String?)])
    func hostsWithoutARegistrableDomain(host: String, expected: String?) throws {
        let list = try #require(Self.publicSuffixList, "install Debian's publicsuffix package")
        #expect(PublicSuffixList.registrableDomain(of: host, listText: list) == expected)
    }

    @Test(arguments: [
        ("www.example.co.uk", "example.co.uk"),
        ("a.b.example.com", "example.com"),
        ("www.example.com.au", "example.com.au"),
        ("foo.github.io", "github.io"),  // the fallback does not know private suffixes
    ])
    func theFallbackWithoutAList(host: String, expected: String) {
        #expect(PublicSuffixList.registrableDomain(of: host, listText: nil) == expected)
    }

    /// The chooser's own judgement when the daemon sends no verdict: the IDN rules alone.
    @Test(arguments: [
        ("\u{430}pple.com", "Cyrillic and Latin"),  // Cyrillic а
        ("g\u{3BF}\u{3BF}gle.com", "Greek"),  // Greek ο
        ("\u{430}\u{440}\u{440}\u{4CF}\u{435}.com", "Cyrillic"),  // аррӏе
        ("paypal.com", nil),
        ("b\u{FC}cher.de", nil),
        ("\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}.\u{440}\u{444}", nil),  // пример.рф: Cyrillic under a Cyrillic TLD
        ("\u{65E5}\u{672C}\u{8A9E}abc.jp", nil),  // Han with Latin is ordinary
        ("\u{C608}\u{C2DC}.kr", nil),
    ] as [(String, String?)])
    func homographs(host: String, warning: String?) throws {
        let preview = try LinkPreview(url: "https://\(host)/", original: nil, choices: [], opener: nil, publicSuffixes: nil)
        if let warning {
            #expect(preview.warning?.contains(warning) == true, "\(preview.warning ?? "nil")")
            #expect(preview.title == "Open link — \(preview.host)", "a look-alike's title is in ASCII")
            #expect(preview.safety.verdict == "warn")
        } else {
            #expect(preview.warning == nil, "\(preview.warning ?? "")")
            #expect(preview.title == "Open link — \(preview.unicodeHost ?? preview.host)")
        }
    }

    @Test func thePreviewEmphasisesTheRegistrableDomainAndShowsBothHostForms() throws {
        let preview = try LinkPreview(url: "http://user@shop.b\u{FC}cher.de:8080/x?y", original: "http://user@shop.b\u{FC}cher.de:8080/x?y&utm_source=z",
                                      choices: [LinkPreview.Choice(key: "copy", label: "Copy", icon: "edit-copy")],
                                      opener: "slack", publicSuffixes: nil)
        #expect(preview.urlParts.before == "http://user@shop.")
        #expect(preview.urlParts.domain == "xn--bcher-kva.de")
        #expect(preview.urlParts.after == ":8080/x?y")
        #expect(preview.unicodeHost == "shop.b\u{FC}cher.de")
        #expect(preview.warning == nil)
        #expect(preview.notes.contains { $0.hasPrefix("Plain http") })
        #expect(preview.original != nil)
        #expect(preview.title == "Open link — shop.b\u{FC}cher.de")
        // The narrowest scope first (issue 21, case 3).
        #expect(preview.remember.map(\.scope) == ["host", "domain", "opener"])
        #expect(preview.remember.first?.label == "Remember for shop.b\u{FC}cher.de only")
        #expect(preview.remember[1].label == "Remember for b\u{FC}cher.de")
    }

    @Test func aMailtoPreviewShowsItsFieldsAndRemembersByRecipientDomain() throws {
        let body = String(repeating: "word ", count: 100)
        let preview = try LinkPreview(url: "mailto:a@corp.example.com?cc=b@x.org&subject=Hi%20there&body=\(body.replacingOccurrences(of: " ", with: "%20"))",
                                      original: nil, choices: [], opener: nil, publicSuffixes: nil)
        let mail = try #require(preview.mail)
        #expect(mail.to == ["a@corp.example.com"])
        #expect(mail.cc == ["b@x.org"])
        #expect(mail.subject == "Hi there")
        #expect(mail.bodyPreview?.count == LinkPreview.bodyPreviewLength + 1)
        #expect(preview.title == "Open link — a@corp.example.com")
        #expect(preview.remember == [LinkPreview.RememberScope(scope: "mail-domain", value: "corp.example.com", label: "Remember for mail to @corp.example.com")])
    }

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

import Testing
@testable import ConfigLanguage
@testable import RoutingCore
@testable import Routing

/// "Make a rule…": the drafts offered for a clicked link, the `[[rules]]` text each writes,
/// the values refused, and that every offered draft routes the link it was made from.
@Suite struct RuleDraftTests {
    struct SuggestionCase: Sendable, CustomTestStringConvertible {
        var url: String
        var unicode = true
        var matches: [RuleDraft.Match]
        var testDescription: String { url + (unicode ? "" : " (ASCII)") }
    }

    static let suggestionCases: [SuggestionCase] = [
        SuggestionCase(url: "https://www.example.org/docs/intro", matches: [.domain("example.org"), .host("www.example.org"),
                                                                            .pathPrefix(host: "www.example.org", path: "/docs")]),
        SuggestionCase(url: "https://example.org/", matches: [.domain("example.org")]),
        SuggestionCase(url: "HTTPS://WWW.Example.ORG/Docs/A", matches: [.domain("example.org"), .host("www.example.org"),
                                                                        .pathPrefix(host: "www.example.org", path: "/Docs")]),
        SuggestionCase(url: "https://example.org./x", matches: [.domain("example.org"), .pathPrefix(host: "example.org", path: "/x")]),
        SuggestionCase(url: "http://localhost:8080/app/x", matches: [.host("localhost"), .pathPrefix(host: "localhost", path: "/app")]),
        SuggestionCase(url: "https://news.example.co.uk:8443/", matches: [.domain("example.co.uk"), .host("news.example.co.uk")]),
        SuggestionCase(url: "https://www.bücher.de/kaufen?x=1", matches: [.domain("bücher.de"), .host("www.bücher.de"),
                                                                          .pathPrefix(host: "www.bücher.de", path: "/kaufen")]),
        SuggestionCase(url: "https://www.bücher.de/kaufen", unicode: false,
                       matches: [.domain("xn--bcher-kva.de"), .host("www.xn--bcher-kva.de"), .pathPrefix(host: "www.xn--bcher-kva.de", path: "/kaufen")]),
        SuggestionCase(url: "https://xn--bcher-kva.de/", matches: [.domain("bücher.de")]),
        SuggestionCase(url: "http://192.168.1.10/admin/", matches: [.host("192.168.1.10"), .pathPrefix(host: "192.168.1.10", path: "/admin")]),
        SuggestionCase(url: "https://[::1]:8080/x", matches: []),
        SuggestionCase(url: "https://example.org/café/menu", matches: [.domain("example.org"), .pathPrefix(host: "example.org", path: "/caf%C3%A9")]),
        SuggestionCase(url: "https://example.org/a[1]/b", matches: [.domain("example.org")]),
        SuggestionCase(url: "mailto:alice@Corp.Example.com?subject=hi", matches: [.mailDomain("corp.example.com")]),
        SuggestionCase(url: "mailto:?cc=Bob%20%3Cbob@b%C3%BCcher.de%3E", matches: [.mailDomain("bücher.de")]),
        SuggestionCase(url: "mailto:bob@bücher.de", unicode: false, matches: [.mailDomain("xn--bcher-kva.de")]),
        SuggestionCase(url: "mailto:?subject=no%20one", matches: []),
        SuggestionCase(url: "not a link", matches: []),
    ]

    @Test(arguments: suggestionCases)
    func suggestionsForAClickedLink(_ test: SuggestionCase) {
        let drafts = RuleDraft.suggested(for: test.url, action: .copy, suffixList: nil, unicodeHosts: test.unicode)
        #expect(drafts.map(\.match) == test.matches)
        #expect(drafts.allSatisfy { $0.name == RuleDraft.defaultName(match: $0.match, action: .copy) })
    }

    /// Each draft offered, loaded as a config of its own, takes the link it was made from.
    @Test(arguments: suggestionCases.filter { !$0.matches.isEmpty })
    func everySuggestionRoutesItsLink(_ test: SuggestionCase) throws {
        for draft in RuleDraft.suggested(for: test.url, action: .open(target: "system"), suffixList: nil, unicodeHosts: test.unicode) {
            let text = try draft.text
            let config = try ConfigLoader.load(text: text, path: "/c/config.toml")
            let decision = try RuleEngine(config: config).decide(test.url)
            // A recipient written `Name <addr>` included: `match.to` sees the address inside.
            #expect(decision.rule == .named(draft.name), "\(text)")
        }
    }

    static let textCases: [(RuleDraft, String)] = [
        (RuleDraft(name: "Work", match: .domain("example.org"), action: .open(target: "firefox-esr:Work")),
         "[[rules]]\nname = \"Work\"\nmatch.domain = \"example.org\"\nopen = \"firefox-esr:Work\"\n"),
        (RuleDraft(name: "Docs", match: .host("Docs.Example.ORG."), action: .copy),
         "[[rules]]\nname = \"Docs\"\nmatch.host = \"docs.example.org\"\ncopy = true\n"),
        (RuleDraft(name: "Guide", match: .pathPrefix(host: "example.org", path: "/guide/"), action: .discard),
         "[[rules]]\nname = \"Guide\"\nmatch.host = \"example.org\"\nmatch.path = [\"/guide\", \"/guide/**\"]\ndiscard = true\n"),
        (RuleDraft(name: "Corp mail", match: .mailDomain("corp.example"), action: .open(target: "gmail")),
         "[[rules]]\nname = \"Corp mail\"\nmatch.scheme = \"mailto\"\nmatch.to = \"*@corp.example\"\nopen = \"gmail\"\n"),
        (RuleDraft(name: "Pick", match: .domain("example.net"), action: .ask(choices: ["chromium:Profile 1", "copy"])),
         "[[rules]]\nname = \"Pick\"\nmatch.domain = \"example.net\"\nask = [\"chromium:Profile 1\", \"copy\"]\n"),
        (RuleDraft(name: "Say \"hi\" \\ there", match: .domain("example.org"), action: .copy),
         "[[rules]]\nname = \"Say \\\"hi\\\" \\\\ there\"\nmatch.domain = \"example.org\"\ncopy = true\n"),
        (RuleDraft(name: "Bücher", match: .domain("BÜCHER.de"), action: .open(target: "org.gnome.Epiphany.desktop")),
         "[[rules]]\nname = \"Bücher\"\nmatch.domain = \"bücher.de\"\nopen = \"org.gnome.Epiphany.desktop\"\n"),
        (RuleDraft(name: "Deep", match: .pathPrefix(host: "xn--bcher-kva.de", path: "/a/b%20c"), action: .copy),
         "[[rules]]\nname = \"Deep\"\nmatch.host = \"xn--bcher-kva.de\"\nmatch.path = [\"/a/b%20c\", \"/a/b%20c/**\"]\ncopy = true\n"),
    ]

    @Test(arguments: textCases)
    func draftTexts(_ draft: RuleDraft, expected: String) throws {
        #expect(try draft.text == expected)
        // And it is a rule the loader takes as written.
        let config = try ConfigLoader.load(text: expected, path: "/c/config.toml")
        #expect(config.rules.map(\.name) == [draft.name])
    }

    @Test(arguments: [
        (RuleDraft(name: "x", match: .domain("*.example.org"), action: .copy), "\"*\""),
        (RuleDraft(name: "x", match: .host("exa mple.org"), action: .copy), "\" \""),
        (RuleDraft(name: "x", match: .host(""), action: .copy), "the host is empty"),
        (RuleDraft(name: "x", match: .host("example..org"), action: .copy), "empty label"),
        (RuleDraft(name: "x", match: .domain("user@example.org"), action: .copy), "\"@\""),
        (RuleDraft(name: "x", match: .host("[::1]"), action: .copy), "\"[\""),
        (RuleDraft(name: "x", match: .pathPrefix(host: "example.org", path: "/docs/*"), action: .copy), "read as a pattern"),
        (RuleDraft(name: "x", match: .pathPrefix(host: "example.org", path: "/"), action: .copy), "must start with /"),
        (RuleDraft(name: "x", match: .pathPrefix(host: "example.org", path: "docs"), action: .copy), "must start with /"),
        (RuleDraft(name: "x", match: .mailDomain("corp?.example"), action: .copy), "\"?\""),
        (RuleDraft(name: " ", match: .domain("example.org"), action: .copy), "needs a name"),
        (RuleDraft(name: "a\nb", match: .domain("example.org"), action: .copy), "control character"),
        (RuleDraft(name: "x", match: .domain("example.org"), action: .open(target: "")), "empty"),
        (RuleDraft(name: "x", match: .domain("example.org"), action: .ask(choices: [])), "at least one choice"),
    ])
    func draftsThatAreNotPlainNamesAreRefused(_ draft: RuleDraft, message: String) {
        #expect {
            _ = try draft.text
        } throws: { error in
            let description = (error as? RuleDraft.DraftError)?.description ?? ""
            return description.contains(message) || { print(description); return false }()
        }
    }
}

extension RuleDraft: CustomTestStringConvertible {
    public var testDescription: String { "\(name): \(match) → \(action)" }
}

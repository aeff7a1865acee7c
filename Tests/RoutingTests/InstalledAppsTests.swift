import Testing
import Catalog
@testable import ConfigLanguage
import Routing
import Foundation
import RoutingCore
import TOML

/// A Debian 12 desktop as discovery sees it: Firefox ESR (the previous default browser) with
/// profiles, Chromium, and Thunderbird (the previous default mail app).
enum DebianDesktop {
    static let firefox = KnownBrowser.table.first { $0.key == "firefox" }
    static let chromium = KnownBrowser.table.first { $0.key == "chromium" }
    static let web = ["http", "https"]

    static func catalog(firefoxProfiles: [String] = ["default-esr", "Work"]) -> AppCatalog {
        var catalog = AppCatalog(
            entries: [
                AppEntry(id: "chromium.desktop", name: "Chromium Web Browser", schemes: web, icon: "chromium"),
                AppEntry(id: "firefox-esr.desktop", name: "Firefox ESR", schemes: web, icon: "firefox-esr"),
                AppEntry(id: "thunderbird.desktop", name: "Thunderbird", schemes: ["mailto"], icon: "thunderbird"),
            ],
            browsers: [
                Browser(desktopID: "chromium.desktop", name: "Chromium Web Browser", known: chromium, profileDirectory: "/h/.config/chromium",
                        profiles: [ProfileRecord(name: "Person 1", directory: "Default", isDefault: true)]),
                Browser(desktopID: "firefox-esr.desktop", name: "Firefox ESR", known: firefox, profileDirectory: "/h/.config/mozilla/firefox",
                        profiles: firefoxProfiles.map { ProfileRecord(name: $0, directory: "/h/.config/mozilla/firefox/x.\($0)", isDefault: $0 == "default-esr") }),
            ])
        catalog.previousHandlers = [
            "http": catalog.entries[1], "https": catalog.entries[1], "mailto": catalog.entries[2],
        ]
        return catalog
    }

    static func load(_ text: String, catalog: AppCatalog = catalog()) throws -> Config {
        try ConfigLoader.load(text: text, path: "/c/config.toml", catalog: catalog)
    }
}

/// Issue 21, case 2: a config does not stand or fall with what is installed. A target naming a
/// browser, profile or desktop entry that is not installed is a missing app: reported at its
/// `file:line:col` with the nearest installed names, while the rest of the config loads and a
/// link headed there is refused with why.
@Suite struct MissingAppTests {
    static let config = """
        [[rules]]
        match.domain = "paste.example.org"
        copy = true

        [[rules]]
        match.domain = "work.example"
        open = "brave:Work"

        [[rules]]
        match.domain = "chat.example"
        open = "google-chrome.desktop"

        [[rules]]
        match.domain = "mix.example"
        ask = ["brave:Work", "chromium", "copy"]

        [apps.old]
        browser = "brave"

        [default]
        open = "firefox.desktop"
        """

    func loaded() throws -> Config {
        var config = try DebianDesktop.load(Self.config)
        let catalog = config.catalog
        config.markUninstalledEntries { catalog.entry(id: $0) != nil }
        return config
    }

    @Test(arguments: [(3, 3, false), (10, 10, false), (11, 10, true), (1_000, 10, true)])
    func aLogLineNamesTenMissingTargetsAtMostAndCountsTheRest(count: Int, named: Int, counted: Bool) {
        let apps = (0..<count).map { MissingApp(target: "app\($0).desktop", diagnostic: ConfigDiagnostic(path: "/c/config.toml", position: SourcePosition(line: $0 + 1, column: 8), message: "app\($0).desktop is not installed")) }
        let line = MissingApp.listed(apps)
        #expect(line.components(separatedBy: "is not installed").count - 1 == named, "\(line)")
        #expect(line.hasSuffix("; … and \(count - 10) more (openurl check lists every one)") == counted, "\(line)")
        #expect(line.utf8.count < 2_000)
    }

    @Test func theRestOfTheConfigLoadsAndEachMissingAppIsReportedWhereItIsWritten() throws {
        let config = try loaded()
        let lines = try #require(config.missingAppsError).description.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines[0].hasPrefix(#"/c/config.toml:7:8: unknown browser "brave" (installed: chromium, firefox-esr)"#), "\(lines)")
        #expect(lines[1].hasPrefix("/c/config.toml:11:8: google-chrome.desktop is not installed (installed browsers: chromium.desktop, firefox-esr.desktop; openurl apps lists every target)"), "\(lines)")
        #expect(lines[2].hasPrefix(#"/c/config.toml:15:8: unknown browser "brave""#), "\(lines)")
        #expect(lines[3].hasPrefix(#"/c/config.toml:18:11: apps.old: unknown browser "brave""#), "\(lines)")
        #expect(lines[4] == #"/c/config.toml:21:8: firefox.desktop is not installed; did you mean "firefox-esr.desktop"? (installed browsers: chromium.desktop, firefox-esr.desktop; openurl apps lists every target)"#)
        // Aliases are suggestions, not installed browsers (issue 21, case 10).
        #expect(!lines[0].contains("installed: chromium, firefox-esr, firefox"))
    }

    @Test(arguments: [
        ("https://paste.example.org/x", "copy", nil as String?),
        ("https://work.example/", "unavailable", "brave:Work"),
        ("https://chat.example/", "unavailable", "google-chrome.desktop"),
        ("https://elsewhere.example/", "unavailable", "firefox.desktop"),
    ])
    func linksToMissingAppsAreRefusedWithWhyAndTheOthersAreRouted(url: String, kind: String, missing: String?) throws {
        let decision = try RuleEngine(config: try loaded()).decide(url, explain: true)
        #expect(decision.kind.rawValue == kind)
        // The missing target is carried by the effect itself, not found in the trace.
        var unavailable: String?
        if case .unavailable(let target, let reason) = decision.effect {
            unavailable = target
            #expect(decision.error == reason)
        }
        #expect(unavailable == missing)
        if let missing {
            #expect(decision.error?.contains("is not installed") == true || decision.error?.contains("unknown browser") == true, "\(decision)")
            #expect(decision.trace.last?.text.hasPrefix("not installed: \(missing): ") == true, "\(decision.trace)")
        }
    }

    @Test func anAskOffersOnlyWhatIsInstalled() throws {
        let decision = try RuleEngine(config: try loaded()).decide("https://mix.example/")
        #expect(decision.choices.map(\.key) == ["chromium", "copy"])
    }

    @Test func theNotificationOffersThePreviousHandlerAndTheInstalledBrowsersOnce() throws {
        let engine = RuleEngine(config: try loaded())
        let web = engine.installedChoices(forScheme: "https")
        // system is Firefox ESR here: one button for it, named as the default.
        #expect(web.map(\.key) == ["system", "chromium.desktop"])
        #expect(web.map(\.label) == ["Firefox ESR (default browser)", "Chromium Web Browser"])
        #expect(engine.installedChoices(forScheme: "mailto").map(\.label) == ["Thunderbird (default mail app)"])
    }

    @Test func labelsNameAMissingEntryByItsIdNeverAMadeUpName() {
        let labels = ChoiceLabels(catalog: DebianDesktop.catalog())
        #expect(labels.label(.desktopEntry(id: "google-chrome.desktop", action: nil)) == "google-chrome.desktop")
        #expect(labels.label(.desktopEntry(id: "firefox-esr.desktop", action: nil)) == "Firefox ESR")
    }
}

/// Issue 21, case 3: a remembered answer is the answer to a question. It applies only where the
/// decision would have been to ask, never before another rule; the decision says which answer
/// applied and where it lives.
@Suite struct RememberedAnswerTests {
    static let config = """
        [apps.work]
        exec = ["work-browser", "{url}"]

        [[rules]]
        name = "paste"
        match.domain = "paste.example.org"
        copy = true

        [[rules]]
        name = "ask"
        match.domain = "example.org"
        ask = ["work", "copy"]

        [[rules]]
        name = "open other"
        match.domain = "other.example"
        open = "work"
        """

    static let remembered = RememberedRules.header + """

        [[rules]]
        name = "Remembered: example.org"
        match.domain = "example.org"
        open = "work"

        [[rules]]
        name = "Remembered: other.example"
        match.domain = "other.example"
        copy = true

        [[rules]]
        name = "Remembered: off.example"
        enabled = false
        match.domain = "off.example"
        copy = true
        """

    func engine(_ config: String = config) throws -> RuleEngine {
        let base = try ConfigLoader.load(text: config, path: "/c/config.toml")
        return RuleEngine(config: try ConfigLoader.loadRemembered(text: Self.remembered, path: "/c/remembered.toml", into: base))
    }

    @Test(arguments: [
        // Another rule decides: the remembered answer for example.org does not shadow it.
        ("https://paste.example.org/p", false, "copy", "paste"),
        // The rule that asks is answered.
        ("https://news.example.org/", false, "open", "Remembered: example.org"),
        // A rule that does not ask is not answered either.
        ("https://other.example/", false, "open", "open other"),
        // A forced ask is a question too.
        ("https://other.example/", true, "copy", "Remembered: other.example"),
    ])
    func aRememberedAnswerAppliesOnlyWhereTheDecisionWouldAsk(url: String, forceAsk: Bool, kind: String, rule: String) throws {
        let decision = try engine().decide(url, forceAsk: forceAsk)
        #expect(decision.kind.rawValue == kind, "\(decision)")
        #expect(decision.rule?.description == rule)
    }

    @Test func theTraceSaysWhichAnswerAppliedAndWhereItLives() throws {
        let decision = try engine().decide("https://news.example.org/", explain: true)
        let step = try #require(decision.trace.first { if case .remembered = $0 { return true } else { return false } })
        let line = (Self.remembered.components(separatedBy: "\n").firstIndex(of: "[[rules]]") ?? 0) + 1
        #expect(step == .remembered(rule: "Remembered: example.org", location: "/c/remembered.toml:\(line)", asked: .named("ask")))
        #expect(step.text == "remembered answer Remembered: example.org (/c/remembered.toml:\(line)) answers the question of rule ask")
    }

    @Test func defaultAskIsAnsweredAndADisabledAnswerIsNot() throws {
        let engine = try engine("[default]\nask = [\"copy\"]\n")
        #expect(try engine.decide("https://other.example/").kind == .copy)
        #expect(try engine.decide("https://off.example/").kind == .ask)
        #expect(try engine.decide("https://none.example/").kind == .ask)
    }

    @Test func anAnswerWhoseTargetIsNotInstalledIsSkippedAndTheQuestionAsked() throws {
        let base = try ConfigLoader.load(text: "[default]\nask = [\"copy\"]\n", path: "/c/config.toml")
        let config = try ConfigLoader.loadRemembered(text: "[[rules]]\nname = \"Remembered: x.example\"\nmatch.domain = \"x.example\"\nopen = \"brave:Work\"\n",
                                                     path: "/c/remembered.toml", into: base)
        #expect(config.missingApps.map(\.remembered) == [true])
        #expect(config.missingAppsError == nil, "a remembered answer's missing target is not a config error")
        #expect(try RuleEngine(config: config).decide("https://x.example/").kind == .ask)
    }
}

/// Issue 21, case 6: `system` is named by the app it opens, choices that launch the same thing
/// are offered once, and Copy and Discard keep number keys.
@Suite struct ChoiceLabelTests {
    @Test func systemIsNamedByTheAppItOpensForTheScheme() throws {
        let engine = RuleEngine(config: try DebianDesktop.load("[default]\nask = [\"system\", \"copy\"]\n"))
        #expect(try engine.decide("mailto:a@example.org").choices.first?.label == "Thunderbird (default mail app)")
        #expect(try engine.decide("https://example.org/").choices.first?.label == "Firefox ESR (default browser)")
        let unknown = RuleEngine(config: try ConfigLoader.load(text: "[default]\nask = [\"system\", \"copy\"]\n", path: "c"))
        #expect(try unknown.decide("mailto:a@example.org").choices.first?.label == "Default mail app")
    }

    @Test func aForcedAskOffersEachLaunchOnceWithCopyAndDiscardOnNumberKeys() throws {
        let profiles = ["default-esr", "Work", "Bank", "Kids", "Shop", "News", "Travel", "Music"]
        let engine = RuleEngine(config: try DebianDesktop.load("[default]\nopen = \"firefox-esr.desktop\"\n", catalog: DebianDesktop.catalog(firefoxProfiles: profiles)))
        let choices = try engine.decide("https://example.org/", forceAsk: true).choices
        // Firefox ESR by desktop id, as the family's entry and as system: one choice, named as the default.
        #expect(choices.first?.key == "firefox-esr.desktop")
        #expect(choices.first?.label == "Firefox ESR (default browser)")
        #expect(!choices.contains { $0.key == "system" })
        #expect(choices.filter { $0.label.hasPrefix("Firefox ESR (") }.count == 1)
        let keyed = choices.prefix(ChoiceLabels.numberKeys).map(\.key)
        #expect(keyed.contains("copy") && keyed.contains("discard"), "\(choices.map(\.key))")
        #expect(Set(choices.map(\.key)).count == choices.count)
        #expect(choices.contains { $0.key == "chromium.desktop" })
        // firefox-esr.desktop, Chromium's profile, private and app window, each Firefox profile
        // and its private window, chromium.desktop, Copy and Discard.
        #expect(choices.count == 1 + 3 + profiles.count + 1 + 1 + 2, "\(choices.map(\.key))")
    }
}

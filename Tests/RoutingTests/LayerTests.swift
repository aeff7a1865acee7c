import SiteLists
import Testing
@testable import ConfigLanguage
@testable import Routing
@testable import RoutingCore

/// The system configuration and the user's: which rule wins, what a lock keeps, what a user's
/// file may not say, in the order the files are read (system files, the user's, remembered).
@Suite struct LayerTests {
    static let system = """
        [apps.managed]
        exec = ["managed-browser", "{url}"]

        [[rules]]
        name = "Intranet"
        match.domain = "intranet.example"
        open = "managed"
        locked = true

        [[rules]]
        name = "Docs"
        match.domain = "docs.example"
        open = "docs.desktop"

        [[rules]]
        name = "Video"
        match.domain = "video.example"
        open = "video.desktop"
        recommended = true

        [settings]
        unwrap = true
        locked = ["unwrap"]

        [default]
        open = "firefox.desktop"
        """

    static let user = """
        [apps.managed]
        exec = ["my-browser", "{url}"]

        [[rewrite]]
        match.domain = "intranet.example"
        template = "https://elsewhere.example{path}"

        [[rules]]
        name = "Mine"
        match.domain = ["intranet.example", "docs.example", "video.example", "mine.example"]
        open = "chromium.desktop"

        [settings]
        unwrap = false
        clean = false

        [default]
        open = "epiphany.desktop"
        """

    static let remembered = """
        [[rules]]
        name = "Remembered: intranet.example"
        match.domain = "intranet.example"
        open = "other.desktop"

        [[rules]]
        name = "Remembered: docs.example"
        match.domain = "docs.example"
        open = "remembered.desktop"
        """

    /// The files loaded as ConfigFiles loads them: each over the ones before it.
    static func layered(system: [String], user: String? = nil, remembered: String? = nil) throws -> Config {
        var config = Config(path: "/home/u/.config/openurld/config.toml")
        for (offset, text) in system.enumerated() {
            config = try ConfigLoader.load(text: text, path: "/etc/xdg/openurld/\(offset == 0 ? "config.toml" : "config.d/\(offset).toml")",
                                           layer: .system, over: config)
        }
        if let user { config = try ConfigLoader.load(text: user, path: "/home/u/.config/openurld/config.toml", layer: .user, over: config) }
        config = config.finishingLayers()
        if let remembered { config = try ConfigLoader.loadRemembered(text: remembered, path: "/home/u/.config/openurld/remembered.toml", into: config) }
        return config
    }

    static let engine: RuleEngine = {
        do { return RuleEngine(config: try layered(system: [system], user: user, remembered: remembered)) } catch {
            fatalError("\(error)")
        }
    }()

    @Test(arguments: [
        // Locked: before the remembered answer, the user's rule and the user's rewrite, and its app is the system's.
        ("https://intranet.example/a", "managed", "Intranet", "https://intranet.example/a"),
        // Not locked: the system's rule, then the user's. A remembered answer answers only a
        // question (issue 21, case 3), and the Docs rule asks none.
        ("https://docs.example/", "docs.desktop", "Docs", "https://docs.example/"),
        // Recommended: the user's rule wins.
        ("https://video.example/", "chromium.desktop", "Mine", "https://video.example/"),
        ("https://mine.example/", "chromium.desktop", "Mine", "https://mine.example/"),
        // No rule: the user's [default], since the system's is not locked.
        ("https://else.example/", "epiphany.desktop", nil, "https://else.example/"),
    ] as [(String, String, String?, String)])
    func whichLayerDecides(url: String, target: String, rule: String?, finalURL: String) throws {
        let decision = try Self.engine.decide(url)
        #expect(decision.target?.description == target, "\(url): \(decision)")
        #expect(decision.rule?.description == rule)
        #expect(decision.finalURL == finalURL)
        if case .open(_, .argv(let argv)) = decision.effect { #expect(argv.first == "managed-browser") }
    }

    @Test func rulesAreNumberedInTheOrderTheyAreTried() throws {
        let rules = Self.engine.config.rules
        #expect(rules.map(\.label) == ["Intranet", "Docs", "Mine", "Video"])
        #expect(rules.map(\.index) == [1, 2, 3, 4])
        #expect(rules.map(\.source.layer) == [.system, .system, .user, .system])
        try #require(rules.count == 4)
        #expect(rules[0].source.description == "system /etc/xdg/openurld/config.toml:4, locked")
        #expect(rules[3].source.recommended)
        // The remembered answers are kept apart: consulted only where the decision would ask.
        let remembered = Self.engine.config.remembered
        #expect(remembered.map(\.label) == ["Remembered: intranet.example", "Remembered: docs.example"])
        #expect(remembered.allSatisfy { $0.index == 0 && $0.source.layer == .remembered })
        #expect(Self.engine.config.lockedRuleCount == 1)
    }

    @Test func aLockedSettingKeepsTheSystemValueAndSaysSo() {
        let config = Self.engine.config
        #expect(config.settings.unwrap == true)
        #expect(config.settings.clean == false)
        #expect(config.defaultAction == .open(.desktopEntry(id: "epiphany.desktop", action: nil)))
        let notes = config.notes.map(\.description)
        #expect(notes.contains { $0.hasPrefix("/home/u/.config/openurld/config.toml:1:7: [apps.managed] is opened by a locked rule") }, "\(notes)")
        #expect(notes.contains("/home/u/.config/openurld/config.toml:14:1: settings.unwrap is locked by the system configuration (/etc/xdg/openurld/config.toml:23); this value is not used"), "\(notes)")
    }

    @Test func aLockedDefaultIsKept() throws {
        let config = try Self.layered(system: ["[default]\nopen = \"firefox.desktop\"\nlocked = true\n"], user: "[default]\ndiscard = true\n")
        #expect(config.defaultAction == .open(.desktopEntry(id: "firefox.desktop", action: nil)))
        #expect(config.notes.first?.description.contains("[default] is locked by the system configuration (/etc/xdg/openurld/config.toml:3)") == true)
    }

    @Test func theTraceShowsWhereASystemRuleIsAndWhyItWon() throws {
        let decision = try Self.engine.decide("https://intranet.example/a", explain: true, forceAsk: true)
        let trace = decision.trace.map(\.text)
        #expect(trace.first == "rule Intranet [system /etc/xdg/openurld/config.toml:4, locked]: matched (held: domain)", "\(trace)")
        #expect(trace.contains("rule Intranet is locked by the system configuration: it decides, whatever --ask says"))
        #expect(decision.kind == .open)
        #expect(decision.ruleSource?.locked == true)
        // A user rule is traced as before.
        let mine = try Self.engine.decide("https://mine.example/", explain: true).trace.map(\.text)
        #expect(mine.contains("rule Mine: matched (held: domain)"), "\(mine)")
    }

    @Test(arguments: [
        ("[[rules]]\nmatch.domain = \"a.example\"\nopen = \"system\"\nlocked = true\n",
         "config.toml:4:1: rules.locked: only the system configuration ($XDG_CONFIG_DIRS/openurld) can use locked"),
        ("[[rules]]\nmatch.domain = \"a.example\"\nopen = \"system\"\nrecommended = true\n", "config.toml:4:1: rules.recommended: only the system configuration"),
        ("[settings]\nlocked = true\n", "config.toml:2:1: settings.locked: only the system configuration"),
        ("[default]\nsystem = true\nlocked = true\n", "config.toml:3:1: default.locked: only the system configuration"),
    ])
    func aUsersFileCannotLock(text: String, expected: String) {
        #expect {
            try Self.layered(system: [], user: text)
        } throws: { error in
            let shown = "\(error)"
            if !shown.contains(expected) { Issue.record("\(shown)") }
            return shown.contains(expected)
        }
    }

    @Test(arguments: [
        (["[[rules]]\nname = \"A\"\nopen = \"system\"\nlocked = true\nrecommended = true\n"], "locked and recommended do not go together"),
        (["[[rules]]\nname = \"A\"\nopen = \"system\"\n", "[[rules]]\nname = \"A\"\ndiscard = true\n"],
         "config.d/1.toml:2:8: duplicate rule name \"A\" (first used at /etc/xdg/openurld/config.toml:1)"),
        (["[settings]\nlocked = [\"cleen\"]\n"], "settings.locked: unknown setting \"cleen\"; did you mean \"clean\"?"),
        (["[[sitelist]]\npath = \"s.xml\"\nformat = \"emie-v3\"\nopen = \"system\"\n"], "sitelist.format: unknown format \"emie-v3\""),
        (["[[sitelist]]\npath = \"s.xml\"\nformat = \"lines\"\n"], "expected open = TARGET for the sites the list switches (or greylist = true)"),
        (["[[sitelist]]\npath = \"s.xml\"\nformat = \"lines\"\ngreylist = true\nopen = \"system\"\n"], "a greylist has no open"),
    ])
    func systemFilesAreCheckedToo(files: [String], expected: String) {
        #expect {
            try Self.layered(system: files)
        } throws: { error in
            let shown = "\(error)"
            if !shown.contains(expected) { Issue.record("\(shown)") }
            return shown.contains(expected)
        }
    }

    @Test func aUserRuleMayShareASystemRulesName() throws {
        let config = try Self.layered(system: ["[[rules]]\nname = \"A\"\nmatch.domain = \"a.example\"\nopen = \"system\"\n"],
                                      user: "[[rules]]\nname = \"A\"\nmatch.domain = \"b.example\"\ndiscard = true\n")
        #expect(config.rules.map(\.identity) == ["system:name:A", "name:A"])
    }

    /// A site list is tried where it stands among its file's rules; a greylist of the same
    /// layer keeps its sites from switching, one of another layer does not.
    @Test func siteListsAreRulesWithTheirLayersGreylists() throws {
        let system = """
            [[rules]]
            name = "First"
            match.domain = "first.legacy.example"
            open = "first.desktop"

            [[sitelist]]
            name = "Legacy"
            path = "/etc/openurld/sites.txt"
            format = "lines"
            open = "legacy.desktop"

            [[rules]]
            name = "After"
            match.domain = "after.example"
            open = "after.desktop"

            [[sitelist]]
            path = "/etc/openurld/grey.txt"
            format = "lines"
            greylist = true
            """
        var config = Config(path: "/home/u/.config/openurld/config.toml")
        config = try ConfigLoader.load(text: system, path: "/etc/xdg/openurld/config.toml", layer: .system, over: config)
        config = try ConfigLoader.load(text: "[[sitelist]]\npath = \"/home/u/grey.txt\"\nformat = \"lines\"\ngreylist = true\n",
                                       path: "/home/u/.config/openurld/config.toml", layer: .user, over: config)
        #expect(config.siteLists.map(\.label) == ["Legacy", "grey.txt", "grey.txt"])
        config.siteLists[0].list = try SiteList.parse(Array("legacy.example\nafter.example\nuser-grey.example\n".utf8), format: .lines)
        config.siteLists[1].list = try SiteList.parse(Array("sso.legacy.example\n".utf8), format: .lines)
        config.siteLists[2].list = try SiteList.parse(Array("user-grey.example\n".utf8), format: .lines)
        let engine = RuleEngine(config: config.finishingLayers())
        #expect(engine.config.rules.map(\.label) == ["First", "Legacy", "After"])
        let cases: [(String, String?)] = [
            ("https://first.legacy.example/", "first.desktop"), ("https://www.legacy.example/", "legacy.desktop"),
            ("https://after.example/", "legacy.desktop"), ("https://sso.legacy.example/", nil), ("https://user-grey.example/", "legacy.desktop"),
        ]
        for (url, target) in cases {
            #expect(try engine.decide(url).target?.description == target, "\(url)")
        }
        let trace = try engine.decide("https://sso.legacy.example/x", explain: true).trace.map(\.text)
        #expect(trace.contains("  site list /etc/openurld/grey.txt:1: sso.legacy.example: greylisted, does not switch"), "\(trace)")
    }
}

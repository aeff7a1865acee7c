import Testing
@testable import RoutingCore
@testable import Catalog
@testable import ConfigLanguage
@testable import Routing

/// Issue 24: rules that know the moment. The engine is pure: each case gives the moment as data.
@Suite struct MomentConditionTests {
    static func engine(_ text: String, catalog: AppCatalog = testCatalog) throws -> RuleEngine {
        RuleEngine(config: try ConfigLoader.load(text: text, path: "config.toml", catalog: catalog))
    }

    static let tuesdayEvening = LocalTime(year: 2026, month: 12, day: 1, hour: 18, minute: 30)
    static func at(_ text: String) -> Moment {
        Moment(time: LocalTime(parsing: text).map { .known($0) } ?? .unknown("bad test time"))
    }
    static func network(_ connections: ActiveConnection...) -> Moment {
        Moment(network: .known(NetworkFacts(connections: connections)))
    }
    static let office = ActiveConnection(id: "Office", type: "802-11-wireless", ssid: "ACME-5G")
    static let home = ActiveConnection(id: "Home", type: "802-11-wireless", ssid: "Fritz")
    static let corpVPN = ActiveConnection(id: "Corp VPN", type: "vpn", vpn: true)
    static let wireguard = ActiveConnection(id: "wg0", type: "wireguard")

    @Test(arguments: [
        ("2026-12-01 00:00", Weekday.tue), ("2026-11-29 12:00", .sun), ("2027-01-01 00:00", .fri), ("2024-02-29 08:00", .thu),
        ("2000-03-01 08:00", .wed), ("1970-01-01 00:00", .thu),
    ])
    func weekdays(text: String, weekday: Weekday) {
        #expect(LocalTime(parsing: text)?.weekday == weekday)
    }

    @Test(arguments: [
        ("09:00-17:30", "2026-12-01 09:00", true), ("09:00-17:30", "2026-12-01 17:29", true), ("09:00-17:30", "2026-12-01 17:30", false),
        ("09:00-17:30", "2026-12-01 08:59", false), ("22:00-06:00", "2026-12-01 23:10", true), ("22:00-06:00", "2026-12-01 05:59", true),
        ("22:00-06:00", "2026-12-01 06:00", false), ("22:00-06:00", "2026-12-01 12:00", false), ("00:00-24:00", "2026-12-01 23:59", true),
        ("9:00-12:00", "2026-12-01 09:30", true),
    ])
    func timeRanges(range: String, at: String, holds: Bool) throws {
        let engine = try Self.engine("[[rules]]\nname = \"hours\"\nmatch.time = \"\(range)\"\ndiscard = true\n")
        #expect(try engine.decide("https://x.org/", moment: Self.at(at)).rule == (holds ? .named("hours") : nil), "\(range) at \(at)")
    }

    @Test(arguments: [
        ("[\"mon-fri\"]", "2026-12-01 10:00", true), ("[\"mon-fri\"]", "2026-12-05 10:00", false), ("\"sat\"", "2026-12-05 10:00", true),
        ("[\"fri-mon\"]", "2026-12-06 10:00", true), ("[\"fri-mon\"]", "2026-12-02 10:00", false), ("[\"Tuesday\"]", "2026-12-01 10:00", true),
    ])
    func days(days: String, at: String, holds: Bool) throws {
        let engine = try Self.engine("[[rules]]\nname = \"week\"\nmatch.days = \(days)\ndiscard = true\n")
        #expect(try engine.decide("https://x.org/", moment: Self.at(at)).rule == (holds ? .named("week") : nil), "\(days) at \(at)")
    }

    @Test(arguments: [
        ("match.network = \"Office\"", [office], true), ("match.network = \"ACME-*\"", [office], true), ("match.network = \"Office\"", [home], false),
        ("match.network = [\"Home\", \"Office\"]", [home], true), ("match.network = \"*\"", [], false),
        ("match.vpn = true", [office, corpVPN], true), ("match.vpn = true", [office], false), ("match.vpn = false", [office], true),
        ("match.vpn = false", [office, wireguard], false), ("match.vpn = \"Corp*\"", [corpVPN], true), ("match.vpn = \"Corp*\"", [wireguard], false),
    ])
    func network(matcher: String, connections: [ActiveConnection], holds: Bool) throws {
        let engine = try Self.engine("[[rules]]\nname = \"net\"\n\(matcher)\ndiscard = true\n")
        let moment = Moment(network: .known(NetworkFacts(connections: connections)))
        #expect(try engine.decide("https://x.org/", moment: moment).rule == (holds ? .named("net") : nil), "\(matcher) with \(connections.map(\.id))")
    }

    /// Without NetworkManager (or with nothing looked up) every network condition is false, `vpn = false` too.
    @Test(arguments: ["match.network = \"*\"", "match.vpn = true", "match.vpn = false", "match.window = \"*\"", "match.modifiers = \"shift\"",
                      "match.time = \"00:00-24:00\"", "match.days = \"mon-sun\""])
    func unknownFactsHoldNoCondition(matcher: String) throws {
        let engine = try Self.engine("[[rules]]\nname = \"r\"\n\(matcher)\ndiscard = true\n")
        let unknown = Moment(network: .unknown("no NetworkManager"), time: .unknown("x"), window: .unknown("Wayland"), modifiers: .unknown("Wayland"))
        #expect(try engine.decide("https://x.org/", moment: unknown).rule == nil)
        let trace = try engine.decide("https://x.org/", moment: unknown, explain: true).trace.map(\.text)
        #expect(trace.contains { $0.contains("unknown: ") }, "\(trace)")
    }

    @Test(arguments: [
        ("[\"shift\"]", "shift", true), ("[\"shift\"]", "shift,ctrl", true), ("[\"shift\", \"ctrl\"]", "shift", false),
        ("\"Control\"", "ctrl", true), ("\"super\"", "", false),
    ])
    func modifiers(keys: String, held: String, holds: Bool) throws {
        let engine = try Self.engine("[[rules]]\nname = \"keys\"\nmatch.modifiers = \(keys)\ndiscard = true\n")
        let pressed = Set(held.split(separator: ",").compactMap { Modifier(rawValue: String($0)) })
        #expect(try engine.decide("https://x.org/", moment: Moment(modifiers: .known(pressed))).rule == (holds ? .named("keys") : nil))
    }

    @Test func windowTitles() throws {
        let engine = try Self.engine("[[rules]]\nname = \"chat\"\nmatch.window = \"*Project X*\"\ndiscard = true\n")
        #expect(try engine.decide("https://x.org/", moment: Moment(window: .known("Slack | Project X — chat"))).rule == .named("chat"))
        #expect(try engine.decide("https://x.org/", moment: Moment(window: .known("Project Y"))).rule == nil)
    }

    @Test func openerSnapAndFlatpakIDs() throws {
        let engine = try Self.engine("[[rules]]\nname = \"snap\"\nmatch.opener = \"telegram-desktop\"\ndiscard = true\n")
        #expect(try engine.decide("https://x.org/", opener: Opener(processName: "Telegram", snapID: "telegram-desktop")).rule == .named("snap"))
        #expect(try engine.decide("https://x.org/", opener: Opener(processName: "Telegram")).rule == nil)
    }

    /// "Work network or work hours", "not on VPN": groups hold as written.
    @Test(arguments: [
        ([office], "2026-12-05 23:00", true), ([home], "2026-12-01 10:00", true), ([home], "2026-12-05 10:00", false),
        ([home, corpVPN], "2026-12-01 10:00", false),
    ])
    func anyAndNot(connections: [ActiveConnection], at: String, holds: Bool) throws {
        let engine = try Self.engine("""
            [[rules]]
            name = "work"
            match.any = [{ network = "Office" }, { time = "09:00-17:00", days = "mon-fri" }]
            match.not = { vpn = true }
            open = "google-chrome:Work"
            """)
        var moment = Self.at(at)
        moment.network = .known(NetworkFacts(connections: connections))
        let decision = try engine.decide("https://x.org/", moment: moment)
        #expect(decision.rule == (holds ? .named("work") : nil), "\(connections.map(\.id)) at \(at)")
        #expect(try engine.decide("https://x.org/", moment: moment, explain: true).rule == decision.rule)
    }

    /// The trace shows each condition with the value it saw.
    @Test func traceShowsWhatEachConditionSaw() throws {
        let engine = try Self.engine("""
            [[rules]]
            name = "late"
            match.network = "Office"
            match.time = "09:00-17:00"
            discard = true
            """)
        var moment = Self.network(Self.office)
        moment.time = .known(Self.tuesdayEvening)
        let trace = try engine.decide("https://x.org/", moment: moment, explain: true).trace.map(\.text)
        #expect(trace.contains(#"rule late: no, time (saw tue 2026-12-01 18:30) did not match (held: network (saw "Office" (802-11-wireless, SSID "ACME-5G")))"#), "\(trace)")
    }

    @Test(arguments: [
        ("[[rules]]\nmatch.time = \"9-17\"\ndiscard = true\n", #"config.toml:2:14: match.time: "9-17" is not a time range"#),
        ("[[rules]]\nmatch.time = \"09:00-09:00\"\ndiscard = true\n", "config.toml:2:14: match.time"),
        ("[[rules]]\nmatch.days = [\"mon\", \"fir\"]\ndiscard = true\n", #"config.toml:2:22: match.days: "fir" is not a day"#),
        ("[[rules]]\nmatch.modifiers = \"shfit\"\ndiscard = true\n", #"config.toml:2:19: match.modifiers: unknown key "shfit" (expected shift, ctrl, alt, super); did you mean "shift"?"#),
        ("[[rules]]\nmatch.vpn = 1\ndiscard = true\n", "config.toml:2:13: match.vpn: expected true, false"),
        ("[[rules]]\nmatch.any = [{ network = \"a\" }, { netwrk = \"b\" }]\ndiscard = true\n", #"config.toml:2:35: unknown key "netwrk" in match.any[2]; did you mean "network"?"#),
        ("[[rules]]\nmatch.not = { time = \"x\" }\ndiscard = true\n", #"config.toml:2:22: match.not.time: "x" is not a time range"#),
        ("[[rules]]\nmatch.any = { network = \"a\" }\ndiscard = true\n", "config.toml:2:13: match.any: expected a list of match tables"),
        ("[default]\nopen = [\"firefox:Work Stuff\", \"chromum\"]\n", #"config.toml:2:31: unknown target "chromum""#),
    ])
    func errorsNameFileLineAndColumn(text: String, message: String) {
        do {
            _ = try ConfigLoader.load(text: text, path: "config.toml", catalog: testCatalog)
            Issue.record("loaded: \(text)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func shiftAsksOnlyWhenSetAndHeld() throws {
        let on = try Self.engine("[settings]\nshift_asks = true\n[default]\nopen = \"firefox\"\n")
        let off = try Self.engine("[default]\nopen = \"firefox\"\n")
        let shift = Moment(modifiers: .known([.shift]))
        #expect(try on.decide("https://x.org/", moment: shift).kind == .ask)
        #expect(try on.decide("https://x.org/", moment: Moment(modifiers: .known([.ctrl]))).kind == .open)
        #expect(try on.decide("https://x.org/", moment: Moment(modifiers: .unknown("Wayland"))).kind == .open)
        #expect(try off.decide("https://x.org/", moment: shift).kind == .open)
        // A rule on the keys themselves wins over the built-in default.
        let keyed = try Self.engine("[settings]\nshift_asks = true\n[[rules]]\nname = \"k\"\nmatch.modifiers = \"shift\"\ndiscard = true\n")
        #expect(try keyed.decide("https://x.org/", moment: shift).kind == .discard)
        #expect(on.momentNeeds.contains(.modifiers))
        #expect(!off.momentNeeds.contains(.modifiers))
    }

    @Test func needsFollowTheRules() throws {
        #expect(try Self.engine("[[rules]]\nmatch.any = [{ vpn = true }]\ndiscard = true\n").momentNeeds == .network)
        #expect(try Self.engine("[[rules]]\nmatch.not = { days = \"sat\" }\ndiscard = true\n").momentNeeds == .time)
        #expect(try Self.engine("[default]\nopen = [\"firefox\", \"google-chrome\"]\n").momentNeeds == .running)
        #expect(try Self.engine("[[rules]]\nmatch.domain = \"x.org\"\ndiscard = true\n").momentNeeds.isEmpty)
        #expect(try Self.engine("[[rules]]\nmatch.any = [{ opener = \"slack\" }]\ndiscard = true\n").usesOpener)
    }

    /// A rule whose only matchers are on the moment, or inside any/not, is tried for every URL:
    /// indexed decisions equal rule-by-rule ones.
    @Test func unindexableMatchersNeverHideARule() throws {
        var text = ""
        for i in 0..<60 {
            switch i % 6 {
            case 0: text += "[[rules]]\nmatch.any = [{ domain = \"a\(i).org\" }, { network = \"N\(i % 4)\" }]\nopen = \"x\(i).desktop\"\n"
            case 1: text += "[[rules]]\nmatch.not = { domain = \"b\(i).org\" }\nmatch.time = \"0\(i % 10):00-0\(i % 10):30\"\ndiscard = true\n"
            case 2: text += "[[rules]]\nmatch.domain = \"c\(i % 5).org\"\nmatch.vpn = true\ncopy = true\n"
            case 3: text += "[[rules]]\nmatch.modifiers = \"shift\"\nmatch.path = \"/p\(i % 3)\"\nsystem = true\n"
            case 4: text += "[[rules]]\nmatch.any = [{ scheme = \"mailto\", window = \"W\(i % 3)\" }]\ndiscard = true\n"
            default: text += "[[rules]]\nmatch.any = [{ opener = \"o\(i % 3)\" }, { days = \"sat\" }]\ncopy = true\n"
            }
        }
        let engine = try Self.engine(text)
        let moments: [Moment] = [
            Moment(), Self.network(Self.office), Self.network(ActiveConnection(id: "N1", type: "x"), Self.corpVPN),
            Moment(time: .known(LocalTime(year: 2026, month: 12, day: 5, hour: 7, minute: 10)), window: .known("W1"), modifiers: .known([.shift])),
        ]
        var checked = 0
        for moment in moments {
            for url in ["https://a6.org/", "https://b7.org/", "https://c2.org/p1", "https://z.org/p0", "mailto:q@z.org", "https://a0.org/p2"] {
                for opener in [nil, Opener(processName: "o2")] {
                    let fast = try engine.decide(url, opener: opener, moment: moment)
                    let slow = try engine.decide(url, opener: opener, moment: moment, explain: true)
                    #expect(fast.rule == slow.rule, "\(url)")
                    checked += 1
                }
            }
        }
        #expect(checked == 4 * 6 * 2)
    }
}

/// Issue 24's targets: private and app-mode windows per profile, web apps, the browser already running.
@Suite struct MomentTargetTests {
    static let webCatalog: AppCatalog = {
        var catalog = testCatalog
        catalog.entries = catalog.entries.map { entry in
            var entry = entry
            if entry.id == "firefox.desktop" { entry.program = "firefox-esr" }
            if entry.id == "google-chrome.desktop" { entry.program = "google-chrome-stable" }
            return entry
        }
        catalog.webApps = [WebApp(desktopID: "chrome-abcdef-Default.desktop", name: "Docs", icon: "chrome-abcdef-Default", appID: "abcdef")]
        return catalog
    }()

    static func decide(_ text: String, running: Set<String>? = nil) throws -> Decision {
        let engine = try MomentConditionTests.engine(text, catalog: webCatalog)
        return try engine.decide("https://x.org/a", moment: Moment(running: running.map { .known($0) } ?? .unknown("not looked up")), explain: true)
    }

    @Test(arguments: [
        ("google-chrome:Work:private", Launch.desktopEntryAdding(id: "google-chrome.desktop", arguments: ["--profile-directory=Profile 1", "--incognito"], url: "https://x.org/a")),
        ("firefox:Work Stuff:private", .desktopEntryAdding(id: "firefox.desktop", arguments: ["--profile", "/h/.mozilla/firefox/b.work", "--private-window"], url: "https://x.org/a")),
        ("google-chrome:app", .desktopEntryAppending(id: "google-chrome.desktop", arguments: ["--app=https://x.org/a"])),
        ("google-chrome:Work:app", .desktopEntryAppending(id: "google-chrome.desktop", arguments: ["--profile-directory=Profile 1", "--app=https://x.org/a"])),
        ("chrome-abcdef-Default.desktop", .desktopEntryAppending(id: "chrome-abcdef-Default.desktop", arguments: ["--app-launch-url-for-shortcuts-menu-item=https://x.org/a"])),
    ])
    func windowsAndWebApps(target: String, launch: Launch) throws {
        let decision = try Self.decide("[default]\nopen = \"\(target)\"\n")
        #expect(decision.target?.description == target)
        #expect(decision.launch == launch)
    }

    @Test func firefoxHasNoAppWindow() {
        do {
            _ = try ConfigLoader.load(text: "[default]\nopen = \"firefox:app\"\n", path: "config.toml", catalog: Self.webCatalog)
            Issue.record("loaded")
        } catch {
            #expect(error.description.contains("config.toml:2:8: firefox: Firefox has no app-mode window"), "\(error.description)")
        }
    }

    @Test func labelsNameTheWindow() {
        let labels = ChoiceLabels(catalog: Self.webCatalog)
        let work = Self.webCatalog.resolve(browser: "google-chrome", profile: "Work:private")
        #expect((try? work.get()).map { labels.label(.browser($0)) } == "Google Chrome: Work, Private window")
        #expect(labels.label(.desktopEntry(id: "chrome-abcdef-Default.desktop", action: nil)) == "Docs")
    }

    @Test(arguments: [
        (Set(["bash", "google-chrome-stable"]), "google-chrome", "google-chrome runs (google-chrome-stable)"),
        (Set(["firefox-esr", "google-chrome-stable"]), "firefox:Work Stuff", "firefox:Work Stuff runs (firefox-esr)"),
        (Set(["bash"]), "firefox:Work Stuff", "none runs, so the first, firefox:Work Stuff"),
        (nil, "firefox:Work Stuff", "which programs run is unknown"),
    ])
    func theBrowserAlreadyRunning(running: Set<String>?, target: String, says: String) throws {
        let decision = try Self.decide("[default]\nopen = [\"firefox:Work Stuff\", \"google-chrome\"]\n", running: running)
        #expect(decision.target?.description == target)
        #expect(decision.trace.map(\.text).contains { $0.contains(says) }, "\(decision.trace.map(\.text))")
    }

    @Test func forcedAskOffersAppWindowsAndWebApps() throws {
        let engine = try MomentConditionTests.engine("[default]\nopen = \"firefox\"\n", catalog: Self.webCatalog)
        let keys = try engine.decide("https://x.org/", forceAsk: true).choices.map(\.key)
        #expect(keys.contains("google-chrome:app"))
        #expect(keys.contains("chrome-abcdef-Default.desktop"))
        #expect(!keys.contains("firefox:app"))
        let listed = TargetListing.targets(for: "https", config: engine.config)
        #expect(listed.contains { $0.target == "google-chrome:app" && $0.kind == .appWindow })
        #expect(listed.contains { $0.target == "chrome-abcdef-Default.desktop" && $0.kind == .webApp && $0.name == "Docs" })
    }
}

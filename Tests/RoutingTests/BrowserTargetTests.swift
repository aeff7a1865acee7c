import Testing
@testable import URLModel
@testable import RoutingCore
@testable import Catalog
@testable import ConfigLanguage
@testable import Routing

/// A catalogue as discovery would build it: Firefox with two profiles, Chrome with one, an
/// unknown browser, and apps for the app-link schemes.
let testCatalog: AppCatalog = {
    let firefox = KnownBrowser.table.first { $0.key == "firefox" }
    let chrome = KnownBrowser.table.first { $0.key == "google-chrome" }
    return AppCatalog(
        entries: [
            AppEntry(id: "firefox.desktop", name: "Firefox", schemes: ["http", "https"], actions: [.init(id: "new-private-window", name: "New Private Window")]),
            AppEntry(id: "google-chrome.desktop", name: "Google Chrome", schemes: ["http", "https"]),
            AppEntry(id: "epiphany.desktop", name: "Web", schemes: ["http", "https"]),
            AppEntry(id: "Zoom.desktop", name: "Zoom", schemes: ["zoommtg"]),
            AppEntry(id: "teams.desktop", name: "Teams", schemes: ["msteams"]),
            AppEntry(id: "slack.desktop", name: "Slack", schemes: ["slack"]),
            AppEntry(id: "spotify.desktop", name: "Spotify", schemes: ["spotify"]),
            AppEntry(id: "thunderbird.desktop", name: "Thunderbird", schemes: ["mailto"]),
        ],
        browsers: [
            Browser(desktopID: "firefox.desktop", name: "Firefox", known: firefox, profileDirectory: "/h/.mozilla/firefox", profiles: [
                ProfileRecord(name: "default-release", directory: "/h/.mozilla/firefox/a.default-release", isDefault: true),
                ProfileRecord(name: "Work Stuff", directory: "/h/.mozilla/firefox/b.work"),
            ]),
            Browser(desktopID: "google-chrome.desktop", name: "Google Chrome", known: chrome, profiles: [ProfileRecord(name: "Work", directory: "Profile 1")]),
            Browser(desktopID: "epiphany.desktop", name: "Web", known: nil),
        ])
}()

@Suite struct ProfileFileTests {
    @Test func firefoxProfilesIni() {
        let ini = """
            [Install4F96D1932A9F858E]\r
            Default=b.work\r
            [Profile1]\r
            Name=Work Stuff\r
            IsRelative=1\r
            Path=b.work\r
            [Profile0]
            Name=Ünïcödé
            IsRelative=0
            Path=/elsewhere/u
            Default=1
            [Profile9]
            Name=no path
            [General]
            Version=2
            """
        #expect(ProfileFiles.firefoxProfiles(ini: ini, base: "/h/.mozilla/firefox") == [
            ProfileRecord(name: "Work Stuff", directory: "/h/.mozilla/firefox/b.work", isDefault: true),
            ProfileRecord(name: "Ünïcödé", directory: "/elsewhere/u", isDefault: false),
        ])
        // CRLF line ends, blanks around keys and values, comments and a key before any section.
        #expect(ProfileFiles.firefoxProfiles(ini: "Stray=1\r\n; note\r\n[Profile0]\r\n  Name = Caf\u{E9} \r\nPath=c\r\n\r\n", base: "/b")
                == [ProfileRecord(name: "Caf\u{E9}", directory: "/b/c", isDefault: false)])
        // Without an [Install…] section, Default=1 marks the default.
        #expect(ProfileFiles.firefoxProfiles(ini: "[Profile0]\nName=a\nPath=x\nDefault=1\n", base: "/b").first?.isDefault == true)
    }

    @Test func chromiumLocalState() {
        let json = #"{"profile":{"info_cache":{"Profile 2":{"name":"Z"},"Default":{"name":"Person 1"},"Profile 1":{"name":"Caf\u00e9 Team"},"Profile 3":{}},"last_used":"Profile 1","profiles_order":["Profile 1","Default"]}}"#
        #expect(ProfileFiles.chromiumProfiles(localState: Array(json.utf8)) == [
            ProfileRecord(name: "Café Team", directory: "Profile 1", isDefault: true),
            ProfileRecord(name: "Person 1", directory: "Default"),
            ProfileRecord(name: "Z", directory: "Profile 2"),
            ProfileRecord(name: "Profile 3", directory: "Profile 3"),
        ])
        // A directory given twice keeps its last details (as JavaScript reads it) and its first place.
        let twice = #"{"profile":{"info_cache":{"B":{"name":"b1"},"A":{"name":"a"},"B":{"name":"b2"}},"profiles_order":["B","X","B"]}}"#
        #expect(ProfileFiles.chromiumProfiles(localState: Array(twice.utf8)) == [
            ProfileRecord(name: "b2", directory: "B"), ProfileRecord(name: "a", directory: "A"),
        ])
        #expect(ProfileFiles.chromiumProfiles(localState: Array("not json".utf8)) == nil)
        #expect(ProfileFiles.chromiumProfiles(localState: Array(#"{"profile":{}}"#.utf8)) == nil)
    }
}

/// Issue 31 case 6: 100,000 profiles once took minutes (each looked up by a scan of the others).
@Suite struct LargeProfileListTests {
    @Test func aHundredThousandProfileLocalStateIsReadInOnePass() throws {
        let count = 100_000
        let members = (0..<count).map { #""Profile \#($0)":{"name":"P\#($0)","avatar_icon":"x"}"# }.joined(separator: ",")
        let order = (0..<count).reversed().map { #""Profile \#($0)""# }.joined(separator: ",")
        let text = #"{"profile":{"info_cache":{"# + members + #"},"profiles_order":["# + order + "]}}"
        let started = ContinuousClock.now
        let records = try #require(ProfileFiles.chromiumProfiles(localState: Array(text.utf8)))
        let took = ContinuousClock.now - started
        #expect(records.count == count)
        #expect(records.first?.directory == "Profile 99999" && records.last?.name == "P0")
        // Minutes before; about a second in a debug build on a busy machine now.
        #expect(took < .seconds(20), "\(took)")
    }
}

@Suite struct KnownBrowserTests {
    /// Each family, packaging and where its profile list is looked for.
    @Test(arguments: [
        ("firefox.desktop", nil, KnownBrowser.Packaging.native, "firefox", "/h/.mozilla/firefox"),
        ("firefox-esr.desktop", nil, .native, "firefox", "/h/.mozilla/firefox"),
        ("org.mozilla.firefox.desktop", nil, .flatpak(id: "org.mozilla.firefox"), "firefox", "/h/.var/app/org.mozilla.firefox/.mozilla/firefox"),
        ("firefox_firefox.desktop", nil, .snap(name: "firefox"), "firefox", "/h/snap/firefox/common/.mozilla/firefox"),
        ("librewolf.desktop", nil, .native, "librewolf", "/h/.librewolf"),
        ("io.gitlab.librewolf-community.desktop", nil, .flatpak(id: "io.gitlab.librewolf-community"), "librewolf", "/h/.var/app/io.gitlab.librewolf-community/.librewolf"),
        ("waterfox.desktop", nil, .native, "waterfox", "/h/.waterfox"),
        ("one.ablaze.floorp.desktop", nil, .flatpak(id: "one.ablaze.floorp"), "floorp", "/h/.var/app/one.ablaze.floorp/.floorp"),
        ("zen.desktop", nil, .native, "zen", "/h/.zen"),
        ("my-browser.desktop", "/usr/bin/firefox", .native, "firefox", "/h/.mozilla/firefox"),
        ("google-chrome.desktop", nil, .native, "google-chrome", "/c/google-chrome"),
        ("com.google.Chrome.desktop", nil, .flatpak(id: "com.google.Chrome"), "google-chrome", "/h/.var/app/com.google.Chrome/config/google-chrome"),
        ("chromium.desktop", nil, .native, "chromium", "/c/chromium"),
        ("chromium_chromium.desktop", nil, .snap(name: "chromium"), "chromium", "/h/snap/chromium/common/chromium"),
        ("brave-browser.desktop", nil, .native, "brave", "/c/BraveSoftware/Brave-Browser"),
        ("brave_brave.desktop", nil, .snap(name: "brave"), "brave", "/h/snap/brave/current/.config/BraveSoftware/Brave-Browser"),
        ("com.brave.Browser.desktop", nil, .flatpak(id: "com.brave.Browser"), "brave", "/h/.var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser"),
        ("microsoft-edge.desktop", nil, .native, "microsoft-edge", "/c/microsoft-edge"),
        ("vivaldi-stable.desktop", nil, .native, "vivaldi", "/c/vivaldi"),
        ("opera.desktop", nil, .native, "opera", "/c/opera"),
    ] as [(String, String?, KnownBrowser.Packaging, String, String)])
    func identifiesEachBrowserAndItsProfileDirectory(desktopID: String, program: String?, packaging: KnownBrowser.Packaging, key: String, directory: String) throws {
        let known = try #require(KnownBrowser.identify(desktopID: desktopID, program: program, packaging: packaging))
        #expect(known.key == key)
        #expect(known.profileDirectory(packaging: packaging, home: "/h", configHome: "/c") == directory)
    }

    @Test func privateWindowsPerFamily() {
        let arguments = Dictionary(uniqueKeysWithValues: KnownBrowser.table.map { ($0.key, $0.privateArguments) })
        #expect(arguments["firefox"] == ["--private-window"])
        #expect(arguments["google-chrome"] == ["--incognito"])
        #expect(arguments["microsoft-edge"] == ["--inprivate"])
        // Issue 24: the families without profiles openurld lists still open private windows.
        #expect(KnownBrowser.identify(desktopID: "org.gnome.Epiphany.desktop", program: "/usr/bin/epiphany", packaging: .native)?.privateArguments == ["--incognito-mode"])
        #expect(KnownBrowser.identify(desktopID: "org.kde.falkon.desktop", program: nil, packaging: .native)?.privateArguments == ["--private-browsing"])
        #expect(KnownBrowser.identify(desktopID: "x.desktop", program: "/usr/bin/qutebrowser", packaging: .native)?.privateArguments == ["--target", "private-window"])
        #expect(KnownBrowser.table.allSatisfy { !$0.privateArguments.isEmpty })
    }
}

@Suite struct BrowserTargetTests {
    func decide(_ config: String, _ url: String) throws -> Decision {
        try RuleEngine(config: try ConfigLoader.load(text: config, path: "config.toml", catalog: testCatalog)).decide(url, explain: true)
    }

    @Test(arguments: [
        ("firefox:Work Stuff", Launch.desktopEntryAdding(id: "firefox.desktop", arguments: ["--profile", "/h/.mozilla/firefox/b.work"], url: "https://x.org/")),
        ("firefox:work stuff", .desktopEntryAdding(id: "firefox.desktop", arguments: ["--profile", "/h/.mozilla/firefox/b.work"], url: "https://x.org/")),
        ("firefox:private", .desktopEntryAdding(id: "firefox.desktop", arguments: ["--private-window"], url: "https://x.org/")),
        ("google-chrome:Work", .desktopEntryAdding(id: "google-chrome.desktop", arguments: ["--profile-directory=Profile 1"], url: "https://x.org/")),
        ("google-chrome:private", .desktopEntryAdding(id: "google-chrome.desktop", arguments: ["--incognito"], url: "https://x.org/")),
        ("firefox", .desktopEntry(id: "firefox.desktop", action: nil, url: "https://x.org/")),
        ("epiphany", .desktopEntry(id: "epiphany.desktop", action: nil, url: "https://x.org/")),
    ])
    func browserTargetsLaunchTheirProfile(target: String, launch: Launch) throws {
        let decision = try decide("[default]\nopen = \"\(target)\"\n", "https://x.org/")
        #expect(decision.kind == .open)
        #expect(decision.target?.description == target)
        #expect(decision.launch == launch)
    }

    @Test(arguments: [
        ("[default]\nopen = \"epiphany:Work\"\n", "config.toml:2:8: epiphany: openurld does not know where Web keeps its profiles"),
        ("[default]\nopen = \"epiphany:private\"\n", "config.toml:2:8: epiphany: openurld does not know how Web opens a private window"),
        ("[default]\nopen = \"firefox:\"\n", "config.toml:2:8: unknown target \"firefox:\""),
        ("[default]\nopen = \"firefox:Wrok stuff\"\n", #"did you mean "Work Stuff"?"#),
        ("[apps.w]\nbrowser = \"firefox\"\nargs = [\"x\"]\n", "config.toml:3:1: [apps.w]: args does not go with browser"),
        ("[apps.w]\ndesktop = \"firefox.desktop\"\nprofile = \"Work\"\n", "config.toml:1:1: [apps.w]: profile goes with browser"),
    ])
    func badBrowserTargetsAreErrors(config: String, message: String) {
        do {
            // A browser or profile that is not found loads as a missing app, reported the same way.
            let missing = try ConfigLoader.load(text: config, path: "config.toml", catalog: testCatalog).missingAppsError
            #expect(missing?.description.contains(message) == true, "loaded: \(config): \(missing?.description ?? "no error")")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func forcedAskOffersEachProfileForWebLinks() throws {
        let engine = RuleEngine(config: try ConfigLoader.load(text: "[default]\nopen = \"firefox:Work Stuff\"\n", path: "c.toml", catalog: testCatalog))
        let choices = try engine.decide("https://x.org/", forceAsk: true).choices.map(\.key)
        // The list the window shows: also the entries for the scheme, and Discard (issue 20).
        // Copy and Discard keep number keys 8 and 9 (issue 21, case 6); the rest follow them.
        #expect(choices == ["firefox:Work Stuff", "firefox:default-release", "firefox:private", "google-chrome:Work", "google-chrome:private", "google-chrome:app", "system",
                            "copy", "discard", "firefox.desktop", "google-chrome.desktop", "epiphany.desktop"])
        let mail = try engine.decide("mailto:a@x.org", forceAsk: true).choices.map(\.key)
        #expect(!mail.contains("firefox:private"))
    }

    @Test func withoutACatalogueABrowserTargetSaysNoneWereFound() throws {
        let config = try ConfigLoader.load(text: "[default]\nopen = \"firefox:Work\"\n", path: "config.toml")
        #expect(config.missingAppsError?.description == #"config.toml:2:8: unknown browser "firefox" (no browsers were found)"#)
        // The rest of the config stands; the link is refused with why.
        let decision = try RuleEngine(config: config).decide("https://x.org/")
        #expect(decision.effect == .unavailable(target: "firefox:Work", reason: #"unknown browser "firefox" (no browsers were found)"#))
        #expect(decision.error == #"unknown browser "firefox" (no browsers were found)"#)
    }

    /// Issue 10 case 7: arguments without a placeholder get the URL appended, as `Exec` without `%u` does.
    @Test(arguments: [
        ("desktop = \"google-chrome.desktop\"\nargs = [\"--profile-directory=Work\"]", Launch.desktopEntryWithArguments(id: "google-chrome.desktop", arguments: ["--profile-directory=Work", "https://x.org/a"])),
        ("desktop = \"google-chrome.desktop\"\nargs = [\"--profile-directory=Work\", \"{url}\"]", .desktopEntryWithArguments(id: "google-chrome.desktop", arguments: ["--profile-directory=Work", "https://x.org/a"])),
        ("desktop = \"google-chrome.desktop\"\nargs = [\"--app={url}\"]", .desktopEntryWithArguments(id: "google-chrome.desktop", arguments: ["--app=https://x.org/a"])),
        ("exec = [\"firefox\", \"--private-window\"]", .argv(["firefox", "--private-window", "https://x.org/a"])),
        ("exec = [\"mpv\", \"--title={host}\"]", .argv(["mpv", "--title=x.org"])),
    ])
    func namedAppsWithoutAPlaceholderGetTheURL(table: String, launch: Launch) throws {
        let decision = try decide("[apps.w]\n\(table)\n[default]\nopen = \"w\"\n", "https://x.org/a")
        #expect(decision.launch == launch)
    }
}

@Suite struct AppLinkTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var url: String
        var converted: String?
        var testDescription: String { url }
    }

    @Test(arguments: [
        Case(url: "https://us04web.zoom.us/j/85012345678?pwd=aBc123.1", converted: "zoommtg://zoom.us/join?action=join&confno=85012345678&pwd=aBc123.1"),
        Case(url: "https://zoom.us/j/123", converted: "zoommtg://zoom.us/join?action=join&confno=123"),
        Case(url: "https://zoom.us/j/123?pwd=a%26b", converted: "zoommtg://zoom.us/join?action=join&confno=123&pwd=a%26b"),
        Case(url: "https://zoom.us/j/12x3", converted: nil),
        Case(url: "https://zoom.us/pricing", converted: nil),
        Case(url: "https://notzoom.us/j/123", converted: nil),
        Case(url: "https://teams.microsoft.com/l/meetup-join/19%3ameeting_x%40thread.v2/0?context=%7b%22Tid%22%7d",
             converted: "msteams:/l/meetup-join/19%3ameeting_x%40thread.v2/0?context=%7b%22Tid%22%7d"),
        Case(url: "https://teams.microsoft.com/l/channel/x", converted: nil),
        Case(url: "https://app.slack.com/client/T0123ABC/C0456DEF", converted: "slack://channel?team=T0123ABC&id=C0456DEF"),
        Case(url: "https://app.slack.com/client/T0123ABC/C0456DEF/thread/x", converted: "slack://channel?team=T0123ABC&id=C0456DEF"),
        Case(url: "https://app.slack.com/client/T0123ABC", converted: nil),
        Case(url: "https://app.slack.com/client/T0%26x/C1", converted: nil),
        Case(url: "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC?si=abc", converted: "spotify:track:4uLU6hMCjMI75M1A2tKUQC"),
        Case(url: "https://open.spotify.com/intl-de/album/1DFixLWuPkv3KT3TnV35m3", converted: "spotify:album:1DFixLWuPkv3KT3TnV35m3"),
        Case(url: "https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M", converted: "spotify:playlist:37i9dQZF1DXcBWIGoYBM5M"),
        Case(url: "https://open.spotify.com/genre/x", converted: nil),
        Case(url: "https://example.org/j/123", converted: nil),
        // figma: the path and query as they are, for the kinds of documents only.
        Case(url: "https://www.figma.com/design/AbC123xyz/My-Design?node-id=1-2", converted: "figma://design/AbC123xyz/My-Design?node-id=1-2"),
        Case(url: "https://figma.com/file/AbC123xyz", converted: "figma://file/AbC123xyz"),
        Case(url: "https://www.figma.com/board/K3y/Jam", converted: "figma://board/K3y/Jam"),
        Case(url: "https://www.figma.com/pricing", converted: nil),
        Case(url: "https://www.figma.com/community/file/123", converted: nil),
        Case(url: "https://www.figma.com/file/a.b/x", converted: nil),
        Case(url: "https://figma.com.evil.example/file/AbC", converted: nil),
        // discord: channels by number, invites by code.
        Case(url: "https://discord.com/channels/644216177224056838/828664491445190729", converted: "discord://-/channels/644216177224056838/828664491445190729"),
        Case(url: "https://discord.com/channels/1/2/3", converted: "discord://-/channels/1/2/3"),
        Case(url: "https://discord.com/channels/@me/853229216749584404", converted: "discord://-/channels/@me/853229216749584404"),
        Case(url: "https://discord.gg/discord-testers", converted: "discord://-/invite/discord-testers"),
        Case(url: "https://discord.com/invite/Uja83xcr5S", converted: "discord://-/invite/Uja83xcr5S"),
        Case(url: "https://discord.com/channels/1/abc", converted: nil),
        Case(url: "https://discord.com/channels/1", converted: nil),
        Case(url: "https://discord.gg/a%2Fb", converted: nil),
        Case(url: "https://discord.gg/abc?event=1", converted: nil),
        Case(url: "https://discord.com/developers/docs", converted: nil),
        Case(url: "https://notdiscord.gg/abc", converted: nil),
        // notion: any page of the app's host.
        Case(url: "https://www.notion.so/acme/Roadmap-8a26124f8df54b48b4c6ed241c23eb0f", converted: "notion://www.notion.so/acme/Roadmap-8a26124f8df54b48b4c6ed241c23eb0f"),
        Case(url: "https://notion.so/8a26124f?pvs=4", converted: "notion://www.notion.so/8a26124f?pvs=4"),
        Case(url: "https://www.notion.so/", converted: nil),
        Case(url: "https://acme.notion.site/Page-1", converted: nil),
        // linear: a workspace's issues, projects and views, not the site's pages.
        Case(url: "https://linear.app/acme/issue/ENG-123/fix-login", converted: "linear://acme/issue/ENG-123/fix-login"),
        Case(url: "https://linear.app/acme/project/launch-5f1d", converted: "linear://acme/project/launch-5f1d"),
        Case(url: "https://linear.app/pricing", converted: nil),
        Case(url: "https://linear.app/docs/getting-started", converted: nil),
        Case(url: "https://linear.app/ac%3Ame/issue/ENG-1", converted: nil),
        // webex: personal rooms by SIP address; a j.php meeting key is no app URL.
        Case(url: "https://acme.webex.com/meet/jane.doe", converted: "webexteams://meet?sip=jane.doe%40acme.webex.com"),
        Case(url: "https://acme.webex.com/acme/j.php?MTID=m0123456789abcdef", converted: nil),
        Case(url: "https://acme.webex.com/meet/jane%26x", converted: nil),
        Case(url: "https://acme.webex.com/meet/..", converted: nil),
        Case(url: "https://webex.com/meet/jane", converted: nil),
        Case(url: "https://a.b.webex.com/meet/jane", converted: nil),
        // jitsi: a room on meet.jit.si, without settings in the fragment.
        Case(url: "https://meet.jit.si/MyTeamStandup", converted: "jitsi-meet://meet.jit.si/MyTeamStandup"),
        Case(url: "https://meet.jit.si/MyTeamStandup#config.startWithAudioMuted=true", converted: nil),
        Case(url: "https://meet.jit.si/a/b", converted: nil),
        Case(url: "https://meet.jit.si/", converted: nil),
        Case(url: "https://meet.jit.si.example/room", converted: nil),
        // telegram: usernames, posts, invites and sticker sets, on t.me and telegram.me.
        Case(url: "https://t.me/durov", converted: "tg://resolve?domain=durov"),
        Case(url: "https://t.me/durov/42", converted: "tg://resolve?domain=durov&post=42"),
        Case(url: "https://telegram.me/telegram", converted: "tg://resolve?domain=telegram"),
        Case(url: "https://t.me/+AbCdEf_12-3", converted: "tg://join?invite=AbCdEf_12-3"),
        Case(url: "https://t.me/joinchat/AbCdEf123", converted: "tg://join?invite=AbCdEf123"),
        Case(url: "https://t.me/addstickers/Animals", converted: "tg://addstickers?set=Animals"),
        Case(url: "https://t.me/durov?start=x", converted: nil),
        Case(url: "https://t.me/abc", converted: nil),
        Case(url: "https://t.me/share/url", converted: nil),
        Case(url: "https://t.me/c/123/45", converted: nil),
        Case(url: "https://t.me/durov/abc", converted: nil),
        Case(url: "https://t.me/+a%26b", converted: nil),
        Case(url: "https://t.me/joinchat", converted: nil),
        Case(url: "https://t.me/1durov", converted: nil),
        // element: a matrix.to room, alias or user.
        Case(url: "https://matrix.to/#/#matrix:matrix.org", converted: "element://vector/webapp/#/room/#matrix:matrix.org"),
        Case(url: "https://matrix.to/#/!AbCdEf:example.org:8448", converted: "element://vector/webapp/#/room/!AbCdEf:example.org:8448"),
        Case(url: "https://matrix.to/#/@alice:example.org", converted: "element://vector/webapp/#/user/@alice:example.org"),
        Case(url: "https://matrix.to/#/#room:example.org/$event", converted: nil),
        Case(url: "https://matrix.to/#/#room:example.org?via=x.org", converted: nil),
        Case(url: "https://matrix.to/#/#room", converted: nil),
        Case(url: "https://matrix.to/#/alice:example.org", converted: nil),
        Case(url: "https://matrix.to/x#/@alice:example.org", converted: nil),
        Case(url: "https://matrix.to/#/@al%20ice:example.org", converted: nil),
        // steam: a store page by app id, anything of the community through openurl.
        Case(url: "https://store.steampowered.com/app/1041920/Some_Game/", converted: "steam://store/1041920"),
        Case(url: "https://steamcommunity.com/id/gaben/", converted: "steam://openurl/https://steamcommunity.com/id/gaben/"),
        Case(url: "https://store.steampowered.com/app/abc", converted: nil),
        Case(url: "https://store.steampowered.com/search/?term=x", converted: nil),
        Case(url: "https://steamcommunity.com/", converted: nil),
        Case(url: "https://steamcommunity.com.example/id/x", converted: nil),
        // vscode: a GitHub repository opened on the web becomes a clone.
        Case(url: "https://vscode.dev/github/microsoft/vscode", converted: "vscode://vscode.git/clone?url=https%3A%2F%2Fgithub.com%2Fmicrosoft%2Fvscode.git"),
        Case(url: "https://github.dev/swiftlang/swift-format/blob/main/README.md", converted: "vscode://vscode.git/clone?url=https%3A%2F%2Fgithub.com%2Fswiftlang%2Fswift-format.git"),
        Case(url: "https://github.dev/a/my.repo", converted: "vscode://vscode.git/clone?url=https%3A%2F%2Fgithub.com%2Fa%2Fmy.repo.git"),
        Case(url: "https://vscode.dev/microsoft/vscode", converted: nil),
        Case(url: "https://vscode.dev/github/microsoft", converted: nil),
        Case(url: "https://github.dev/a/..", converted: nil),
        Case(url: "https://github.dev/a%3Fb/c", converted: nil),
        Case(url: "https://github.com/microsoft/vscode", converted: nil),
        // obsidian: the plugin and theme pages of the site.
        Case(url: "https://obsidian.md/plugins?id=dataview", converted: "obsidian://show-plugin?id=dataview"),
        Case(url: "https://obsidian.md/themes?id=Things%20Two", converted: "obsidian://show-theme?name=Things%20Two"),
        Case(url: "https://obsidian.md/plugins?id=a%26b", converted: "obsidian://show-plugin?id=a%26b"),
        Case(url: "https://obsidian.md/plugins?id=", converted: nil),
        Case(url: "https://obsidian.md/plugins?id=a&vault=b", converted: nil),
        Case(url: "https://obsidian.md/pricing?id=a", converted: nil),
        Case(url: "https://help.obsidian.md/plugins?id=a", converted: nil),
    ])
    func conversions(testCase: Case) throws {
        let url = try ParsedURL(testCase.url)
        let converted = AppLink.table.lazy.compactMap { $0.convert(url) }.first
        #expect(converted == testCase.converted)
    }

    func decide(_ config: String, _ url: String, catalog: AppCatalog = testCatalog) throws -> Decision {
        try RuleEngine(config: try ConfigLoader.load(text: config, path: "config.toml", catalog: catalog)).decide(url, explain: true)
    }

    @Test func aMeetingLinkHeadedForABrowserOpensInTheApp() throws {
        let decision = try decide("[default]\nopen = \"firefox:Work Stuff\"\n", "https://zoom.us/j/123?pwd=x")
        #expect(decision.kind == .open)
        #expect(decision.target == .desktopEntry(id: "Zoom.desktop", action: nil))
        #expect(decision.launch == .desktopEntry(id: "Zoom.desktop", action: nil, url: "zoommtg://zoom.us/join?action=join&confno=123&pwd=x"))
        #expect(decision.finalURL == "zoommtg://zoom.us/join?action=join&confno=123&pwd=x")
        #expect(decision.trace.last == .appLink(name: "zoom", url: "zoommtg://zoom.us/join?action=join&confno=123&pwd=x", app: "Zoom.desktop"))
        #expect(decision.trace.last?.text == "app link zoom: zoommtg://zoom.us/join?action=join&confno=123&pwd=x in Zoom.desktop")
        // With no config at all the link would go to system: that is headed for a browser too.
        #expect(try decide("", "https://open.spotify.com/track/abc").launch == .desktopEntry(id: "spotify.desktop", action: nil, url: "spotify:track:abc"))
    }

    @Test(arguments: [
        // Turned off for everything, or left out of a list.
        ("[settings]\napp_links = false\n", false),
        ("[settings]\napp_links = [\"teams\", \"slack\"]\n", false),
        ("[settings]\napp_links = [\"zoom\"]\n", true),
        ("[settings]\napp_links = true\n", true),
        // A rule turns it off for its links, or on against the setting.
        ("[[rules]]\nmatch.domain = \"zoom.us\"\napp_links = false\nopen = \"firefox\"\n", false),
        ("[settings]\napp_links = false\n[[rules]]\nmatch.domain = \"zoom.us\"\napp_links = [\"zoom\"]\nopen = \"firefox\"\n", true),
        // Only links headed for a browser or system: a copy, an exec app or a non-browser entry stays as decided.
        ("[default]\ncopy = true\n", false),
        ("[apps.x]\nexec = [\"x\", \"{url}\"]\n[default]\nopen = \"x\"\n", false),
        ("[default]\nopen = \"thunderbird.desktop\"\n", false),
        ("[default]\nopen = \"firefox.desktop\"\n", true),
        ("[apps.w]\nbrowser = \"google-chrome\"\nprofile = \"Work\"\n[default]\nopen = \"w\"\n", true),
    ])
    func settingsAndRulesDecideWhetherItApplies(config: String, converted: Bool) throws {
        let decision = try decide(config, "https://zoom.us/j/123")
        #expect((decision.launch == .desktopEntry(id: "Zoom.desktop", action: nil, url: "zoommtg://zoom.us/join?action=join&confno=123")) == converted, "\(decision.trace.map(\.text))")
    }

    @Test func aTelegramLinkOpensInTelegramDesktopWhenItsNameIsListed() throws {
        var catalog = testCatalog
        catalog.entries.append(AppEntry(id: "org.telegram.desktop.desktop", name: "Telegram Desktop", schemes: ["tg"]))
        let decision = try decide("[settings]\napp_links = [\"telegram\", \"element\"]\n[default]\nopen = \"firefox\"\n", "https://t.me/durov/42", catalog: catalog)
        #expect(decision.launch == .desktopEntry(id: "org.telegram.desktop.desktop", action: nil, url: "tg://resolve?domain=durov&post=42"))
        #expect(decision.trace.last?.text == "app link telegram: tg://resolve?domain=durov&post=42 in org.telegram.desktop.desktop")
        // Without the entry the same link stays with the browser.
        #expect(try decide("[default]\nopen = \"firefox\"\n", "https://t.me/durov/42").launch == .desktopEntry(id: "firefox.desktop", action: nil, url: "https://t.me/durov/42"))
    }

    @Test func onlyWhenAnEntryDeclaresTheScheme() throws {
        var catalog = testCatalog
        catalog.entries.removeAll { $0.id == "Zoom.desktop" }
        let decision = try decide("[default]\nopen = \"firefox\"\n", "https://zoom.us/j/123", catalog: catalog)
        #expect(decision.launch == .desktopEntry(id: "firefox.desktop", action: nil, url: "https://zoom.us/j/123"))
    }

    @Test func unknownAppLinkNamesAreErrors() {
        do {
            _ = try ConfigLoader.load(text: "[settings]\napp_links = [\"zom\"]\n", path: "config.toml")
            Issue.record("loaded")
        } catch {
            #expect(error.description == #"config.toml:2:14: settings.app_links: unknown app link "zom" (known: zoom, teams, slack, spotify, figma, discord, notion, linear, webex, jitsi, telegram, element, steam, vscode, obsidian); did you mean "zoom"?"#)
        }
    }
}

@Suite struct TargetListingTests {
    @Test func listsBrowsersProfilesActionsWebmailAndApps() throws {
        let config = try ConfigLoader.load(text: "[apps.w]\nbrowser = \"google-chrome\"\nprofile = \"Work\"\n", path: "c.toml", catalog: testCatalog)
        let https = TargetListing.targets(for: "https", config: config).map(\.target)
        #expect(https == ["firefox", "firefox:default-release", "firefox:Work Stuff", "firefox:private", "google-chrome", "google-chrome:Work",
                          "google-chrome:private", "google-chrome:app", "epiphany", "firefox.desktop:new-private-window", "w", "system"])
        let mailto = TargetListing.targets(for: "mailto", config: config)
        #expect(mailto.map(\.target).contains("thunderbird.desktop"))
        #expect(mailto.map(\.target).contains("gmail"))
        #expect(!mailto.map(\.target).contains("firefox:private"))
        #expect(TargetListing.targets(for: "zoommtg", config: config).map(\.target) == ["Zoom.desktop", "w", "system"])
        // Every listed browser target loads back as a target.
        for listing in TargetListing.targets(for: nil, config: config, all: true) where listing.kind != .system {
            #expect(Target(listing.target, in: config) != nil, "\(listing.target)")
        }
    }

    /// Issue 21, case 10: without a scheme, web and mail targets only; `--all` adds the apps of
    /// other schemes (zoommtg: here) after them, before webmail, [apps] and system.
    @Test func withoutASchemeWebAndMailComeFirstAndTheRestUnderAll() throws {
        let config = try ConfigLoader.load(text: "[apps.w]\nexec = [\"w\"]\n", path: "c.toml", catalog: testCatalog)
        let plain = TargetListing.targets(for: nil, config: config).map(\.target)
        #expect(!plain.contains("Zoom.desktop"), "\(plain)")
        #expect(plain.first == "firefox" && plain.contains("thunderbird.desktop") && plain.contains("gmail") && plain.last == "system", "\(plain)")
        let all = TargetListing.targets(for: nil, config: config, all: true).map(\.target)
        let zoom = try #require(all.firstIndex(of: "Zoom.desktop"), "\(all)")
        #expect(zoom > (all.firstIndex(of: "thunderbird.desktop") ?? .max) && zoom < (all.firstIndex(of: "gmail") ?? -1), "\(all)")
        #expect(all.filter { plain.contains($0) } == plain)
    }
}

/// A misspelt profile gets the nearest name, its directory's name included: a Chromium profile
/// made with `--profile-directory=Work` is called "Your Chromium" in `Local State`.
@Suite struct ProfileSuggestionTests {
    static let catalog = AppCatalog(browsers: [
        Browser(desktopID: "chromium.desktop", name: "Chromium", known: KnownBrowser.table.first { $0.key == "chromium" },
                profiles: [ProfileRecord(name: "Your Chromium", directory: "Work"), ProfileRecord(name: "Person 1", directory: "Default")]),
    ])

    @Test(arguments: [("Wrok", "; did you mean \"Work\"?"), ("Your Chromiun", "; did you mean \"Your Chromium\"?"), ("Defualt", "; did you mean \"Default\"?")])
    func directoriesAreSuggestedToo(profile: String, hint: String) {
        guard case .failure(let error) = Self.catalog.resolve(browser: "chromium", profile: profile) else {
            Issue.record("chromium:\(profile) resolved")
            return
        }
        #expect(error.message.contains(hint), "\(error.message)")
    }

    @Test func aDirectoryNameResolves() throws {
        let target = try Self.catalog.resolve(browser: "chromium", profile: "Work").get()
        #expect(target.arguments == ["--profile-directory=Work"])
    }
}

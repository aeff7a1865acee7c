import DBus
import Foundation
import TestSupport
import Testing

/// Browser profiles and app links end to end: a fake home with native, Flatpak and Snap browsers
/// (`BrowserHome`), the real daemon on a private bus, `openurl` as a user runs it, and the
/// recording browser saying exactly which argv each target ran.
@Suite struct BrowserProfileTests {
    /// A harness with the fake browsers installed and `config` written; `BROWSER` in it stands
    /// for the recording browser's path.
    static func harness(_ config: String, name: String, zoom: Bool = false) throws -> (DaemonHarness, BrowserHome) {
        let harness = try DaemonHarness(name: name)
        let home = try BrowserHome(desktop: harness.desktop, browser: harness.browser.executable)
        if zoom { try home.installZoom(browser: harness.browser.executable) }
        try harness.writeConfig(config.replacingOccurrences(of: "BROWSER", with: harness.browser.executable))
        return (harness, home)
    }

    static let config = """
        [apps.team]
        browser = "google-chrome"
        profile = "Café ☕ Team"

        [apps.plain]
        desktop = "work.desktop"
        args = ["--profile-directory=Work"]

        [apps.raw]
        exec = ["BROWSER", "--raw"]

        [[rules]]
        match.domain = "work.example"
        open = "firefox:Work Stuff"

        [[rules]]
        match.domain = "flat.example"
        open = "chromium:Work"

        [[rules]]
        match.domain = "snap.example"
        open = "firefox_firefox:Snap Profile"

        [[rules]]
        match.domain = "team.example"
        open = "team"

        [[rules]]
        match.domain = "private.example"
        open = "google-chrome:private"

        [[rules]]
        match.domain = "plain.example"
        open = "plain"

        [[rules]]
        match.domain = "raw.example"
        open = "raw"
        """

    @Test func eachTargetRunsItsProfileThroughTheDaemon() throws {
        let (harness, home) = try Self.harness(Self.config, name: "profiles")
        let urls = ["https://work.example/1", "https://flat.example/2", "https://snap.example/3", "https://team.example/4",
                    "https://private.example/5", "https://plain.example/6", "https://raw.example/7"]
        let result = try harness.run([harness.openurl] + urls)
        #expect(result.status == 0, "\(result)")
        let records = Set(harness.browser.waitForRecords(urls.count))
        #expect(records == [
            ["--firefox", "--profile", home.firefoxWorkDirectory, "https://work.example/1"],
            ["run", "--branch=stable", "--arch=x86_64", "--command=/app/bin/chromium", "--file-forwarding", "org.chromium.Chromium",
             "--profile-directory=Profile 1", "@@u", "https://flat.example/2", "@@"],
            ["--snap", "--profile", home.snapProfileDirectory, "https://snap.example/3"],
            ["--chrome", "--profile-directory=Profile 3", "https://team.example/4"],
            ["--chrome", "--incognito", "https://private.example/5"],
            // Issue 10 case 7: [apps] arguments without {url} get the URL appended.
            ["--profile-directory=Work", "https://plain.example/6"],
            ["--raw", "https://raw.example/7"],
        ])
    }

    @Test func testPrintsTheExactArgv() throws {
        let (harness, home) = try Self.harness(Self.config, name: "testargv")
        let text = try harness.run([harness.openurl, "test", "https://work.example/a"])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("argv:      \(harness.browser.executable) --firefox --profile '\(home.firefoxWorkDirectory)' https://work.example/a"), "\(text)")
        let json = try harness.run([harness.openurl, "test", "--json", "https://flat.example/b"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        #expect(object["target"] as? String == "chromium:Work")
        #expect(object["argv"] as? [String] == [home.flatpak, "run", "--branch=stable", "--arch=x86_64", "--command=/app/bin/chromium",
                                                "--file-forwarding", "org.chromium.Chromium", "--profile-directory=Profile 1", "@@u", "https://flat.example/b", "@@"])
    }

    @Test(arguments: [
        ("[default]\nopen = \"google-chrome:Wrok\"\n", #"config.toml:2:8: google-chrome has no profile "Wrok"; did you mean "Work"?"#),
        ("[default]\nopen = \"google-chrome:Stale\"\n", #"config.toml:2:8: google-chrome: profile "Stale" is listed by the browser but its directory Profile 2 is gone"#),
        ("[apps.x]\nbrowser = \"firefx\"\n", #"config.toml:2:11: apps.x: unknown browser "firefx"; did you mean "firefox"?"#),
        ("[[rules]]\nmatch.domain = \"a.example\"\nopen = \"org.chromium.Chromium:Wrk\"\n", #"config.toml:3:8: org.chromium.Chromium has no profile "Wrk"; did you mean "Work"?"#),
    ])
    func checkNamesTheNearestExistingNames(config: String, message: String) throws {
        let (harness, _) = try Self.harness(config, name: "checkprofile")
        let result = try harness.run([harness.openurl, "check"])
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains(harness.configPath + String(message.dropFirst("config.toml".count))), "\(result)")
    }

    @Test func appsJSONListsTargetsAndListTargetsReturnsTheSame() throws {
        let (harness, _) = try Self.harness(Self.config, name: "appsjson")
        let result = try harness.run([harness.openurl, "apps", "--json", "https"])
        #expect(result.status == 0, "\(result)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result)")
        let targets = items.compactMap { $0["target"] as? String }
        for expected in ["firefox", "firefox:Work Stuff", "firefox:Ünïcödé", "firefox:default-release", "firefox:private",
                         "google-chrome:Work", "google-chrome:Café ☕ Team", "google-chrome:private", "org.chromium.Chromium:Work",
                         "firefox_firefox:Snap Profile", "firefox.desktop:new-private-window", "team", "system"] {
            #expect(targets.contains(expected), "missing \(expected) in \(targets)")
        }
        #expect(!targets.contains("google-chrome:Stale"))
        #expect(!targets.contains("gmail"), "webmail is for mailto")
        let profile = try #require(items.first { $0["target"] as? String == "firefox:default-release" })
        #expect(profile["kind"] as? String == "profile")
        #expect(profile["default"] as? Bool == true)
        #expect(profile["app"] as? String == "firefox.desktop")

        let reply = try #require(try harness.call("ListTargets", [.string("https")]).first?.array)
        #expect(reply.compactMap { $0.dictionary?["target"]?.string } == targets)
        #expect(reply.compactMap { $0.dictionary?["kind"]?.string } == items.compactMap { $0["kind"] as? String })
        let introspection = try harness.run(["gdbus", "introspect", "--session", "--dest", DaemonHarness.busName, "--object-path", DaemonHarness.path])
        #expect(introspection.stdout.contains("ListTargets(in  s scheme,"), "\(introspection)")
        #expect(introspection.stdout.contains("out aa{sv} targets);"), "\(introspection)")
        // ListApps keeps its signature and answer.
        let apps = try #require(try harness.call("ListApps", [.string("https")]).first?.array)
        #expect(apps.contains { $0.fields?.first?.string == "firefox.desktop" })

        let mail = try harness.run([harness.openurl, "apps", "mailto"])
        #expect(mail.stdout.contains("gmail"), "\(mail)")
        #expect(mail.stdout.contains("browser.desktop"), "\(mail)")
    }

    @Test func listTargetsDiscoversEvenWhileTheConfigIsBroken() throws {
        // A missing profile no longer breaks the config (issue 21, case 2): a misspelt key does.
        let (harness, _) = try Self.harness("[default]\nopne = \"firefox:Work Stuff\"\n", name: "brokenlist")
        let reply = try #require(try harness.call("ListTargets", [.string("")]).first?.array)
        let targets = reply.compactMap { $0.dictionary?["target"]?.string }
        #expect(targets.contains("firefox:Work Stuff"), "\(targets)")
        #expect(targets.contains("gmail"), "an empty scheme lists everything")
        let error = try harness.call("Get", [.string(DaemonHarness.interface), .string("ConfigError")], interface: "org.freedesktop.DBus.Properties")
        #expect(error.first?.string?.contains("unknown key \"opne\"") == true, "\(error)")
    }

    @Test func aZoomLinkOpensInTheZoomApp() throws {
        let (harness, _) = try Self.harness("[default]\nopen = \"firefox:Work Stuff\"\n[[rules]]\nname = \"keep\"\nmatch.path = \"/keep/*\"\napp_links = false\nopen = \"firefox\"\n",
                                            name: "zoom", zoom: true)
        let url = "https://us04web.zoom.us/j/85012345678?pwd=aBc123"
        let converted = "zoommtg://zoom.us/join?action=join&confno=85012345678&pwd=aBc123"
        let test = try harness.run([harness.openurl, "test", url])
        #expect(test.stdout.contains("app link zoom: \(converted) in Zoom.desktop"), "\(test)")
        #expect(test.stdout.contains("argv:      \(harness.browser.executable) --zoom '\(converted)'"), "\(test)")
        let result = try harness.run([harness.openurl, url, "https://zoom.us/keep/1"])
        #expect(result.status == 0, "\(result)")
        #expect(Set(harness.browser.waitForRecords(2)) == [["--zoom", converted], ["--firefox", "https://zoom.us/keep/1"]])
        let recent = try #require(try harness.call("Recent", [.uint32(2)]).first?.array)
        #expect(recent.contains { $0.dictionary?["target"]?.string == "Zoom.desktop" && $0.dictionary?["final_url"]?.string == converted })
    }

    @Test func aTelegramLinkOpensInTelegramDesktopWhenTheSettingNamesIt() throws {
        let harness = try DaemonHarness(name: "telegram")
        _ = try BrowserHome(desktop: harness.desktop, browser: harness.browser.executable)
        // The entry Telegram Desktop installs declares the scheme its links become.
        _ = try harness.desktop.writeDesktopEntry(id: "org.telegram.desktop.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Telegram Desktop", exec: "\(harness.browser.executable) --telegram %u", mimeTypes: ["x-scheme-handler/tg"]))
        try harness.writeConfig("[settings]\napp_links = [\"telegram\", \"element\"]\n[default]\nopen = \"firefox:Work Stuff\"\n")
        let url = "https://t.me/durov/42"
        let converted = "tg://resolve?domain=durov&post=42"
        let test = try harness.run([harness.openurl, "test", url])
        #expect(test.stdout.contains("app link telegram: \(converted) in org.telegram.desktop.desktop"), "\(test)")
        let result = try harness.run([harness.openurl, url])
        #expect(result.status == 0, "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["--telegram", converted]])
    }
}

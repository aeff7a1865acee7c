import Foundation
import Testing
@testable import DesktopDefaults
@testable import Execution
@testable import Launching
import TestSupport
import Catalog
import ConfigLanguage
import Routing
import URLModel
@testable import RoutingCore

/// A fake home with native, Flatpak and Snap browsers (`BrowserHome`), discovered for real.
struct DiscoveryFixture {
    let desktop: IsolatedDesktop
    let browser: RecordingBrowser
    let home: BrowserHome
    let environment: [String: String]

    init(name: String = "discovery", environment extra: [String: String] = [:]) throws {
        desktop = try IsolatedDesktop(name: name)
        browser = try RecordingBrowser(logFile: desktop.root + "/browser.log")
        home = try BrowserHome(desktop: desktop, browser: browser.executable)
        environment = desktop.environment.merging(browser.environment) { $1 }.merging(extra) { $1 }
    }

    /// Discovery that sees only the sandbox (no host `/var/lib/flatpak` or snapd).
    var paths: XDGPaths {
        var paths = XDGPaths(environment: environment)
        paths.systemExportDirs = []
        return paths
    }

    func catalog() -> AppCatalog { AppDiscovery(paths: paths, environment: environment).catalog() }

    /// The argv `target` would run for `url`, as `openurl test` prints it.
    func argv(open target: String, url: String = "https://example.org/a b") throws -> [String] {
        let config = try ConfigLoader.load(text: "[default]\nopen = \"\(target)\"\n", path: "config.toml", catalog: catalog())
        let engine = RuleEngine(config: config)
        let launcher = AppLauncher(paths: paths, environment: environment)
        guard case .spawn(let argv)? = try engine.decide(url).launch.map({ try launcher.plan($0) }) else { throw HarnessFailure("not a spawn") }
        return argv
    }
}

struct HarnessFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

@Suite struct BrowserDiscoveryTests {
    @Test func findsNativeFlatpakAndSnapBrowsersWithTheirProfiles() throws {
        let fixture = try DiscoveryFixture()
        let catalog = fixture.catalog()
        #expect(catalog.browsers.map(\.id).sorted() == ["firefox", "firefox_firefox", "google-chrome", "org.chromium.Chromium"])
        let firefox = try #require(catalog.browser(named: "firefox"))
        #expect(firefox.packaging == .native)
        #expect(firefox.profiles.map(\.name) == ["Ünïcödé", "Work Stuff", "default-release"])
        #expect(firefox.profiles.first { $0.isDefault }?.name == "default-release")
        let chrome = try #require(catalog.browser(named: "google-chrome"))
        // "Stale" (Profile 2) is listed in Local State but its directory is gone.
        #expect(chrome.profiles.map(\.name) == ["Person 1", "Work", "Café ☕ Team"])
        #expect(chrome.profiles.first { $0.isDefault }?.directory == "Profile 1")
        let flatpak = try #require(catalog.browser(named: "org.chromium.Chromium"))
        #expect(flatpak.packaging == .flatpak(id: "org.chromium.Chromium"))
        #expect(flatpak.profileDirectory == fixture.desktop.home + "/.var/app/org.chromium.Chromium/config/chromium")
        #expect(flatpak.profiles.map(\.name) == ["Person 1", "Work"])
        let snap = try #require(catalog.browser(named: "firefox_firefox"))
        #expect(snap.packaging == .snap(name: "firefox"))
        #expect(snap.profiles.map(\.directory) == [fixture.home.snapProfileDirectory])
        // The short name of a known browser finds an install under another id.
        #expect(catalog.browser(named: "chromium")?.id == "org.chromium.Chromium")
    }

    @Test func chromeConfigHomeMovesNativeChromeProfiles() throws {
        let fixture = try DiscoveryFixture(name: "chromehome")
        let moved = fixture.desktop.root + "/chrome-config"
        try FileManager.default.createDirectory(atPath: moved + "/google-chrome/Profile 7", withIntermediateDirectories: true)
        try #"{"profile":{"info_cache":{"Profile 7":{"name":"Elsewhere"}}}}"#.write(toFile: moved + "/google-chrome/Local State", atomically: true, encoding: .utf8)
        let catalog = AppDiscovery(paths: fixture.paths, environment: fixture.environment.merging(["CHROME_CONFIG_HOME": moved]) { $1 }).catalog()
        #expect(catalog.browser(named: "google-chrome")?.profiles.map(\.name) == ["Elsewhere"])
        // Flatpak browsers keep their own config directory.
        #expect(catalog.browser(named: "org.chromium.Chromium")?.profiles.map(\.name) == ["Person 1", "Work"])
    }

    /// The URL the argv gets: `https://example.org/a b` after normalisation.
    static let url = "https://example.org/a%20b"

    @Test(arguments: [
        ("firefox", ["--firefox", url]),
        ("firefox:Work Stuff", ["--firefox", "--profile", "HOME/.mozilla/firefox/def456.Work Stuff", url]),
        ("firefox:Ünïcödé", ["--firefox", "--profile", "HOME/.mozilla/firefox/ghi789.unicode", url]),
        ("firefox:private", ["--firefox", "--private-window", url]),
        ("google-chrome:Work", ["--chrome", "--profile-directory=Profile 1", url]),
        ("google-chrome:Profile 1", ["--chrome", "--profile-directory=Profile 1", url]),
        ("google-chrome:Café ☕ Team", ["--chrome", "--profile-directory=Profile 3", url]),
        ("google-chrome:private", ["--chrome", "--incognito", url]),
        ("org.chromium.Chromium:Work", ["FLATPAK", "run", "--branch=stable", "--arch=x86_64", "--command=/app/bin/chromium", "--file-forwarding",
                                        "org.chromium.Chromium", "--profile-directory=Profile 1", "@@u", url, "@@"]),
        ("chromium:private", ["FLATPAK", "run", "--branch=stable", "--arch=x86_64", "--command=/app/bin/chromium", "--file-forwarding",
                              "org.chromium.Chromium", "--incognito", "@@u", url, "@@"]),
        ("firefox_firefox:Snap Profile", ["env", "BAMF_DESKTOP_FILE_HINT=/var/lib/snapd/desktop/applications/firefox_firefox.desktop", "BROWSER",
                                          "--snap", "--profile", "HOME/snap/firefox/common/.mozilla/firefox/snap1.default", url]),
    ])
    func eachTargetRunsTheExactArgv(target: String, expected: [String]) throws {
        let fixture = try DiscoveryFixture(name: "argv")
        let resolved = expected.map {
            $0.replacingOccurrences(of: "HOME", with: fixture.desktop.home)
                .replacingOccurrences(of: "FLATPAK", with: fixture.home.flatpak)
                .replacingOccurrences(of: "BROWSER", with: fixture.browser.executable)
        }
        let argv = try fixture.argv(open: target)
        let program = resolved.first == fixture.home.flatpak || resolved.first == "env" ? [] : [fixture.browser.executable]
        #expect(argv == program + resolved)
    }

    @Test(arguments: [
        ("[default]\nopen = \"firefox:Wrok Stuff\"\n", #"config.toml:2:8: firefox has no profile "Wrok Stuff"; did you mean "Work Stuff"? (profiles: "Ünïcödé", "Work Stuff", "default-release", "private")"#),
        ("[default]\nopen = \"google-chrome:Stale\"\n", #"config.toml:2:8: google-chrome: profile "Stale" is listed by the browser but its directory Profile 2 is gone (a deleted profile); pick another: "Person 1", "Work", "Café ☕ Team""#),
        ("[default]\nopen = \"firefx:Work\"\n", #"config.toml:2:8: unknown browser "firefx"; did you mean "firefox"? (installed: firefox, firefox_firefox, google-chrome, org.chromium.Chromium)"#),
        // A browser openurld knows, but not installed here; a bare unknown name ("firefx") is a typo, an error.
        ("[default]\nopen = \"brave\"\n", #"config.toml:2:8: unknown target "brave""#),
        ("[apps.work]\nbrowser = \"google-chrome\"\nprofile = \"Wrk\"\n", #"config.toml:3:11: apps.work: google-chrome has no profile "Wrk"; did you mean "Work"?"#),
        ("[apps.work]\nbrowser = \"gogle-chrome\"\nprofile = \"Work\"\n", #"config.toml:2:11: apps.work: unknown browser "gogle-chrome"; did you mean "google-chrome"?"#),
        ("[[rules]]\nmatch.domain = \"x.org\"\nask = [\"firefox:Work Stuff\", \"google-chrome:Nope\"]\n", #"config.toml:3:30: google-chrome has no profile "Nope""#),
    ])
    func unknownBrowsersAndProfilesAreConfigErrorsWithNearestNames(config: String, expected: String) throws {
        let fixture = try DiscoveryFixture(name: "checkerr")
        let catalog = fixture.catalog()
        // Not installed, or not found: the config loads and `check` reports it (issue 21, case 2).
        let missing = try ConfigLoader.load(text: config, path: "config.toml", catalog: catalog).missingAppsError
        #expect(missing?.description.contains(expected) == true, "\(missing?.description ?? "no error")")
        // An alias is a suggestion, never listed as installed.
        #expect(missing?.description.contains("org.chromium.Chromium, chromium)") == false)
    }

    @Test func appsTableWithBrowserAndProfileLaunchesTheProfile() throws {
        let fixture = try DiscoveryFixture(name: "appstable")
        let config = try ConfigLoader.load(text: "[apps.work]\nbrowser = \"google-chrome\"\nprofile = \"Work\"\n[default]\nopen = \"work\"\n",
                                           path: "config.toml", catalog: fixture.catalog())
        let engine = RuleEngine(config: config)
        let decision = try engine.decide("https://example.org/")
        #expect(decision.target == .app("work"))
        #expect(decision.launch == .desktopEntryAdding(id: "google-chrome.desktop", arguments: ["--profile-directory=Profile 1"], url: "https://example.org/"))
    }

    @Test func aProfileTargetReallyLaunchesTheRecordingBrowser() throws {
        let fixture = try DiscoveryFixture(name: "launchprofile")
        let launcher = AppLauncher(paths: fixture.paths, environment: fixture.environment, launcher: ProcessLauncher(workingDirectory: fixture.desktop.home))
        try launcher.launch(.desktopEntryAdding(id: "org.chromium.Chromium.desktop", arguments: ["--profile-directory=Profile 1"], url: "https://example.org/x"))
        let records = fixture.browser.waitForRecords(1)
        ChildProcess.reapStrays()
        #expect(records == [["run", "--branch=stable", "--arch=x86_64", "--command=/app/bin/chromium", "--file-forwarding",
                             "org.chromium.Chromium", "--profile-directory=Profile 1", "@@u", "https://example.org/x", "@@"]])
    }
}

@Suite struct ExecInsertionTests {
    @Test(arguments: [
        (["firefox", "%u"], ["firefox", "--profile", "/p", "%u"]),
        (["firefox", "--new-window", "%U"], ["firefox", "--new-window", "--profile", "/p", "%U"]),
        (["flatpak", "run", "org.mozilla.firefox", "@@u", "%u", "@@"], ["flatpak", "run", "org.mozilla.firefox", "--profile", "/p", "@@u", "%u", "@@"]),
        (["browser", "--url=%u"], ["browser", "--profile", "/p", "--url=%u"]),
        (["browser"], ["browser", "--profile", "/p"]),
    ])
    func argumentsGoBeforeTheURL(words: [String], expected: [String]) {
        #expect(ExecLine.inserting(["--profile", "/p"], beforeURLIn: words) == expected)
    }

    @Test func aPercentInAnInsertedArgumentStaysLiteral() {
        let words = ExecLine.inserting(["--profile", "/home/u/100%u"], beforeURLIn: ["firefox", "%u"])
        #expect(ExecLine.expand(words, url: "https://x.org/") == ["firefox", "--profile", "/home/u/100%u", "https://x.org/"])
    }
}

/// Issue 31 case 6: a profile list past `Browser.maximumProfiles` keeps the first profiles in
/// the file's order, checks only their directories, and says how many it skipped.
@Suite struct ProfileLimitTests {
    @Test func aFirefoxListPastTheLimitKeepsTheFirstAndCountsTheRest() throws {
        let fixture = try DiscoveryFixture(name: "profile-limit")
        let mozilla = fixture.desktop.home + "/.mozilla/firefox"
        let count = Browser.maximumProfiles + 250
        let ini = (0..<count).map { "[Profile\($0)]\nName=P\($0)\nIsRelative=1\nPath=p\($0)\n\n" }.joined()
        try ini.write(toFile: mozilla + "/profiles.ini", atomically: true, encoding: .utf8)
        for index in [0, 1, Browser.maximumProfiles - 1, Browser.maximumProfiles] {
            try FileManager.default.createDirectory(atPath: mozilla + "/p\(index)", withIntermediateDirectories: true)
        }
        let firefox = try #require(fixture.catalog().browser(named: "firefox"))
        #expect(firefox.profiles.map(\.name) == ["P0", "P1", "P\(Browser.maximumProfiles - 1)"])
        #expect(firefox.profiles.count + firefox.staleProfiles.count == Browser.maximumProfiles)
        #expect(firefox.skippedProfiles == 250)
        #expect(firefox.skippedProfilesWarning == "firefox.desktop: \(mozilla)/profiles.ini lists \(count) profiles; the first 1000 (in the file's order) are used and the other 250 skipped")
        #expect(fixture.catalog().warnings == [firefox.skippedProfilesWarning].compactMap { $0 })
        // The profile just past the limit exists but is not a target, and the error says why.
        guard case .failure(let error) = fixture.catalog().resolve(browser: "firefox", profile: "P\(Browser.maximumProfiles)") else {
            Issue.record("a profile past the limit resolved")
            return
        }
        #expect(error.message.contains("only the first 1000 profiles its list names are read, 250 were skipped"), "\(error.message)")
    }

    /// The entry is the one Chromium 156 wrote for a web app installed by policy. Of the launches
    /// tried with it, only `--app-launch-url-for-shortcuts-menu-item` opened the app's window at
    /// the link; a URL after `--app-id` was ignored (start page) and `--app=` made a plain
    /// app-mode window that is not the installed app.
    @Test(arguments: [
        "https://docs.example.org/d/1?tab=2#h",
        "https://docs.example.org/a b\"c",
    ])
    func anInstalledWebAppOpensItsWindowAtTheLink(url: String) throws {
        let fixture = try DiscoveryFixture(name: "web-app")
        let id = "chrome-jdapppbkpoaocpkoonjebepnbcaakmmk-Default.desktop"
        _ = try fixture.desktop.writeDesktopEntry(id: id, contents: """
            [Desktop Entry]
            Version=1.0
            Terminal=false
            Type=Application
            Name=Docs
            Exec=/usr/lib/chromium/chromium --user-data-dir=/h/ud --profile-directory=Default --app-id=jdapppbkpoaocpkoonjebepnbcaakmmk
            Icon=chrome-jdapppbkpoaocpkoonjebepnbcaakmmk-Default
            StartupWMClass=crx_jdapppbkpoaocpkoonjebepnbcaakmmk

            """)
        let parsed = try ParsedURL(url)
        #expect(try fixture.argv(open: id, url: url) == [
            "/usr/lib/chromium/chromium", "--user-data-dir=/h/ud", "--profile-directory=Default",
            "--app-id=jdapppbkpoaocpkoonjebepnbcaakmmk", "--app-launch-url-for-shortcuts-menu-item=" + parsed.string,
        ])
    }

    @Test func aListWithinTheLimitSaysNothing() throws {
        let fixture = try DiscoveryFixture(name: "profile-within")
        #expect(fixture.catalog().warnings.isEmpty)
    }
}

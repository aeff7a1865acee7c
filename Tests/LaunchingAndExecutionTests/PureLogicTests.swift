import Foundation
import Testing
@testable import DesktopDefaults
@testable import Execution
@testable import Launching
import TestSupport
import RoutingCore
import Catalog
import ConfigLanguage
import Routing
@testable import JSON

@Suite struct XDGPathsTests {
    @Test func specDefaultsWhenUnsetOrRelative() {
        let paths = XDGPaths(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "relative/dir", "XDG_DATA_DIRS": ""])
        #expect(paths.configHome == "/h/.config")
        #expect(paths.dataHome == "/h/.local/share")
        #expect(paths.stateHome == "/h/.local/state")
        #expect(paths.dataDirs == ["/usr/local/share", "/usr/share"])
        #expect(paths.configDirs == ["/etc/xdg"])
        #expect(paths.runtimeDir == nil)
        #expect(paths.configFile == "/h/.config/openurld/config.toml")
        #expect(paths.stateDirectory == "/h/.local/state/openurld/")
    }

    @Test func environmentWins() {
        let paths = XDGPaths(environment: [
            "HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": "/x:rel:/y",
            "XDG_STATE_HOME": "/s", "XDG_RUNTIME_DIR": "/run/user/1", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME",
        ])
        #expect(paths.configFile == "/c/openurld/config.toml")
        #expect(paths.stateDirectory == "/s/openurld/")
        #expect(paths.dataDirs == ["/x", "/y"])
        #expect(paths.runtimeDir == "/run/user/1")
        #expect(paths.applicationDirs == ["/d/applications", "/x/applications", "/y/applications"])
        #expect(Array(paths.mimeappsListFiles.prefix(4)) ==
                ["/c/ubuntu-mimeapps.list", "/c/gnome-mimeapps.list", "/c/mimeapps.list", "/etc/xdg/ubuntu-mimeapps.list"])
    }
}

struct ExecCase: CustomTestStringConvertible, Sendable {
    let exec: String
    let expected: [String]
    var testDescription: String { exec }
}

@Suite struct ExecLineTests {
    static let url = "https://e.com/a b?$(x)&`y`'\"%u"

    @Test(arguments: [
        ExecCase(exec: "firefox %u", expected: ["firefox", url]),
        ExecCase(exec: "firefox %U", expected: ["firefox", url]),
        ExecCase(exec: "viewer %F", expected: ["viewer", url]),
        ExecCase(exec: "app --url=%u", expected: ["app", "--url=" + url]),
        ExecCase(exec: "app", expected: ["app", url]),
        ExecCase(exec: "app %i %c %k", expected: ["app", "--icon", "web", "Web App", "/apps/web.desktop", url]),
        ExecCase(exec: "app 100%% %d %D %n %N %v %m %u", expected: ["app", "100%", url]),
        ExecCase(exec: "\"/opt/My App/bin\" --flag \"quoted arg\" %u", expected: ["/opt/My App/bin", "--flag", "quoted arg", url]),
        ExecCase(exec: "sh -c \"echo \\$HOME\" %u", expected: ["sh", "-c", "echo $HOME", url]),
        // One URL code per line (the spec); more is invalid and the link still goes once, at the first.
        ExecCase(exec: "firefox %u %u", expected: ["firefox", url]),
        ExecCase(exec: "app %f %F %U %u --x=%u", expected: ["app", url, "--x="]),
        ExecCase(exec: "app --a=%u --b=%U", expected: ["app", "--a=" + url, "--b="]),
    ])
    func expandsFieldCodes(_ testCase: ExecCase) throws {
        let words = try ExecLine.tokenize(testCase.exec, entry: "t")
        #expect(ExecLine.expand(words, url: Self.url, icon: "web", name: "Web App", entryPath: "/apps/web.desktop")
                == testCase.expected)
    }

    @Test(arguments: [("firefox %u", ["%u"]), ("firefox %u %u", ["%u", "%u"]), ("app %f %F %U %u", ["%f", "%F", "%U", "%u"]),
                      ("app --x=%u%U 100%%u %i", ["%u", "%U"]), ("app", [])])
    func urlFieldCodesAreCounted(exec: String, codes: [String]) throws {
        #expect(ExecLine.urlFieldCodes(in: try ExecLine.tokenize(exec, entry: "t")) == codes)
    }

    @Test func badQuotingIsAnError() {
        #expect(throws: ExecLineError.self) { try ExecLine.tokenize("app \"unterminated", entry: "t") }
        #expect(throws: ExecLineError.missing(entry: "t")) { try ExecLine.tokenize("  ", entry: "t") }
    }

    @Test(arguments: [
        ("/usr/bin/flatpak run --branch=stable --command=firefox --file-forwarding org.mozilla.firefox @@u %u @@",
         ["/usr/bin/flatpak", "run", "--branch=stable", "--command=firefox", "--file-forwarding", "org.mozilla.firefox"]),
        ("env GDK_BACKEND=x11 chrome --flag %U", ["env", "GDK_BACKEND=x11", "chrome"]),
        ("/usr/bin/app --new-window %u", ["/usr/bin/app"]),
    ])
    func programPrefixKeepsTheProgramAndItsWrapper(exec: String, expected: [String]) throws {
        #expect(ExecLine.programPrefix(try ExecLine.tokenize(exec, entry: "t")) == expected)
    }
}

@Suite struct MimeAppsListTests {
    @Test(arguments: [
        "", "[Default Applications]\n", "a=b", "# c\n[Added Associations]\nx=y;\n",
        "[Default Applications]\nx-scheme-handler/http = firefox.desktop;\n\n[Other]\nk=v\n",
    ])
    func setThenRemoveRestoresTheText(_ text: String) {
        var list = MimeAppsList(text: text)
        #expect(list.text == text)
        let hadSection = list.sectionBody(MimeAppsList.defaultsSection) != nil
        let separator = list.set(key: "x-scheme-handler/https", value: "ours.desktop")
        #expect(list.defaults(forKey: "x-scheme-handler/https") == ["ours.desktop"])
        #expect((separator == nil) == hadSection)
        list.remove(key: "x-scheme-handler/https")
        var restored = list.text
        if let separator { restored.removeLast((separator + "[Default Applications]\n").count) }
        #expect(restored == text)
    }

    @Test func readsListsWithSpacesAndSemicolons() {
        let list = MimeAppsList(text: "[Default Applications]\n x-scheme-handler/http = a.desktop; b.desktop ;\n")
        #expect(list.defaults(forKey: "x-scheme-handler/http") == ["a.desktop", "b.desktop"])
    }
}

@Suite struct OpenerDetectorFakeProcTests {
    @Test(arguments: [
        ("app-gnome-org.gnome.Evolution-1234.scope", "org.gnome.Evolution"),
        ("app-firefox-5678.scope", "firefox"),
        ("app-flatpak-com.slack.Slack-42.scope", "com.slack.Slack"),
        ("app-gnome-my\\x2dapp-99.scope", "my-app"),
        ("app-org.kde.konsole@abc.service", "org.kde.konsole"),
        ("app-kde-org.kde.dolphin@1f.service", "org.kde.dolphin"),
        ("app.slice", nil), ("session-2.scope", nil), ("app-a-b-c-1.scope", nil),
    ] as [(String, String?)])
    func unitNames(unit: String, expected: String?) {
        #expect(OpenerDetector.appID(fromUnit: unit) == expected)
    }

    @Test func walksPastLaunchersToTheApp() throws {
        let root = NSTemporaryDirectory() + "fakeproc-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        func process(_ pid: Int, _ comm: String, parent: Int, cmdline: String? = nil, cgroup: String? = nil,
                     flatpak: String? = nil) throws {
            let dir = "\(root)/\(pid)"
            try FileManager.default.createDirectory(atPath: dir + "/root", withIntermediateDirectories: true)
            try "\(pid) (\(comm)) S \(parent) \(pid) \(pid) 0 -1 4194560\n".write(toFile: dir + "/stat", atomically: true, encoding: .utf8)
            try (cmdline ?? comm + "\0").write(toFile: dir + "/cmdline", atomically: true, encoding: .utf8)
            if let cgroup { try cgroup.write(toFile: dir + "/cgroup", atomically: true, encoding: .utf8) }
            if let flatpak { try flatpak.write(toFile: dir + "/root/.flatpak-info", atomically: true, encoding: .utf8) }
        }
        try process(100, "openurl", parent: 99)
        try process(99, "xdg-open", parent: 98, cmdline: "/bin/sh\0/usr/bin/xdg-open\0https://x\0")
        try process(98, "gio-launch-desk", parent: 97, cmdline: "/usr/libexec/gio-launch-desktop\0xdg-open\0")
        try process(97, "bash", parent: 80)
        try process(80, "slack", parent: 1,
                    cgroup: "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-com.slack.Slack-4242.scope\n",
                    flatpak: "[Instance]\nname=wrong\n[Application]\nname=com.slack.Slack\nruntime=x\n")
        try process(70, "Web (Content))", parent: 1, cmdline: "/usr/lib/firefox/firefox\0-contentproc\0")
        try process(60, "averylongname-w", parent: 1, cmdline: "/opt/averylongname-with-more\0")

        let detector = OpenerDetector(procRoot: root)
        #expect(detector.detect(pid: 100) ==
                OpenerProcess(pid: 80, processName: "slack", desktopID: "com.slack.Slack", flatpakID: "com.slack.Slack"))
        #expect(detector.detect(pid: 70) == OpenerProcess(pid: 70, processName: "Web (Content))"))
        #expect(detector.detect(pid: 60).processName == "averylongname-with-more")
        #expect(detector.detect(pid: 12345) == OpenerProcess(pid: 12345))

        // Issue 24: a sandboxed sender's app id from its cgroup, when its root is not readable.
        try process(50, "telegram-deskto", parent: 1, cmdline: "/snap/telegram-desktop/5/usr/bin/telegram-desktop\0",
                    cgroup: "0::/user.slice/user-1000.slice/user@1000.service/app.slice/snap.telegram-desktop.telegram-desktop-5b1e2a.scope\n")
        try process(40, "signal-desktop", parent: 1,
                    cgroup: "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.signal.Signal-77.scope\n")
        #expect(detector.detect(pid: 50).snapID == "telegram-desktop")
        #expect(detector.detect(pid: 50).routingOpener.names.contains("telegram-desktop"))
        #expect(detector.detect(pid: 40).flatpakID == "org.signal.Signal")
    }

    @Test(arguments: [
        ("snap.firefox.firefox-1b2c.scope", "firefox"), ("snap.spotify.spotify.service", "spotify"), ("snap..x.scope", nil), ("snapd.service", nil),
    ] as [(String, String?)])
    func snapUnits(unit: String, expected: String?) {
        #expect(OpenerDetector.snapName(fromUnit: unit) == expected)
    }
}

/// The chooser's answer lines, mapped back to the choices offered (by their index).
@Suite struct ChooserAnswerTests {
    static let offered = ChoiceLabels(catalog: AppCatalog()).choices([.open(.desktopEntry(id: "firefox.desktop", action: nil)), .open(.app("work")), .discard])
    static let copy = Choice(action: .copy, label: "Copy", icon: "edit-copy")

    @Test(arguments: [
        (#"{"answer":"choose","index":1,"choice":"work"}"#, AskAnswer.chosen(offered[1], url: nil, remember: nil, keepAsking: false)),
        (#"{"answer":"choose","index":0,"choice":"firefox.desktop","url":"https://e.org/x","keep":true}"#,
         .chosen(offered[0], url: "https://e.org/x", remember: nil, keepAsking: true)),
        (#"{"answer":"choose","index":2,"choice":"discard","remember":{"scope":"domain","value":"e.org"}}"#,
         .chosen(offered[2], url: nil, remember: RememberRequest(scope: "domain", value: "e.org"), keepAsking: false)),
        (#"{"answer":"choose","choice":"copy"}"#, .chosen(copy, url: nil, remember: nil, keepAsking: false)),  // Ctrl+C, always offered
        (#"{"answer":"cancel"}"#, .cancelled),
    ] as [(String, AskAnswer)])
    func answers(line: String, expected: AskAnswer) {
        #expect(ChooserLauncher.parse(line, choices: Self.offered) == expected)
    }

    @Test(arguments: [#"{"answer":"choose","choice":"evil.desktop"}"#, #"{"answer":"choose","index":3}"#, #"{"event":"shown"}"#, "not json",
                      #"{"answer":"choose"}"#])
    func linesThatAreNoAnswer(line: String) {
        #expect(ChooserLauncher.parse(line, choices: Self.offered) == nil)
    }

    @Test func aQuestionCarriesLabelsWhole() throws {
        let choices = [Choice(action: .copy, label: "Copy\tthis\nnow", icon: "edit-copy")]
        let decision = Decision(url: "https://e.org/", finalURL: "https://e.org/", effect: .ask(choices, forced: false))
        let question = ChooserLauncher.question(for: AskRequest(decision: decision, activationToken: "t"))
        #expect(question["choices"]?.items?.first?["label"]?.string == "Copy\tthis\nnow")
        #expect(question["token"]?.string == "t")
    }
}

/// What a forced or list-less `ask` offers: the rule's list, the installed apps, webmail for a
/// mailto, then Copy and Discard; icons from the desktop entries. Computed once, in the engine.
@Suite struct OfferedChoicesTests {
    func engine(_ text: String = "[default]\nopen = \"other.desktop\"\n") throws -> (RuleEngine, IsolatedDesktop) {
        let desktop = try IsolatedDesktop(name: "offered")
        try desktop.writeDesktopEntry(id: "browser.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Browser", exec: "true %u", mimeTypes: ["x-scheme-handler/https", "x-scheme-handler/mailto"], extra: "Icon=web-browser\n"))
        try desktop.writeDesktopEntry(id: "other.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Other", exec: "true %u", mimeTypes: ["x-scheme-handler/https"]))
        let paths = XDGPaths(environment: desktop.environment)
        let catalog = AppDiscovery(paths: paths, environment: desktop.environment).catalog()
        return (RuleEngine(config: try ConfigLoader.load(text: text, path: "c.toml", catalog: catalog)), desktop)
    }

    @Test func aForcedAskOffersTheDecidedTargetThenInstalledAppsThenCopyAndDiscard() throws {
        let (engine, desktop) = try engine()
        _ = desktop
        let choices = try engine.decide("https://example.org/", forceAsk: true).choices
        let offered = choices.map(\.key)
        #expect(offered.first == "other.desktop")
        #expect(offered.contains("browser.desktop"))
        #expect(Array(offered.suffix(2)) == ["copy", "discard"])
        #expect(offered.filter { $0 == "other.desktop" }.count == 1)
        #expect(choices.first { $0.key == "browser.desktop" }?.icon == "web-browser")
        #expect(choices.first { $0.key == "copy" }?.icon == "edit-copy")
    }

    @Test func aForcedMailtoAskAlsoOffersWebmail() throws {
        let (engine, desktop) = try engine()
        _ = desktop
        let offered = try engine.decide("mailto:a@example.org", forceAsk: true).choices.map(\.key)
        #expect(offered.contains("browser.desktop") && offered.contains("gmail") && offered.contains("outlook"), "\(offered)")
        #expect(offered.first == "other.desktop")
    }

    @Test func aRulesListIsOfferedAsWritten() throws {
        let (engine, desktop) = try engine("[default]\nask = [\"other.desktop\", \"copy\"]\n")
        _ = desktop
        #expect(try engine.decide("https://example.org/").choices.map(\.key) == ["other.desktop", "copy"])
    }
}

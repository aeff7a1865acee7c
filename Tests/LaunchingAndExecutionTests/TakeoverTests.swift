import Foundation
import Testing
@testable import DesktopDefaults
@testable import Launching
import TestSupport

/// The line editor behind install, and install/uninstall of the KDE and XFCE settings when
/// someone else changed the files in between.
struct TakeoverTests {
    struct SetCase: Sendable, CustomTestStringConvertible {
        var before: String
        var section: String?
        var key: String
        var after: String
        var createdSection: Bool
        var testDescription: String { before.debugDescription + " " + key }
    }

    static let setCases: [SetCase] = [
        SetCase(before: "", section: nil, key: "WebBrowser", after: "WebBrowser=x\n", createdSection: false),
        SetCase(before: "# c\nTerminalEmulator=t\n", section: nil, key: "WebBrowser", after: "# c\nTerminalEmulator=t\nWebBrowser=x\n", createdSection: false),
        SetCase(before: "WebBrowser=firefox\nMailReader=m", section: nil, key: "WebBrowser", after: "WebBrowser=x\nMailReader=m", createdSection: false),
        SetCase(before: "[General]\nBrowserApplication[$e]=!firefox\n", section: "General", key: "BrowserApplication",
                after: "[General]\nBrowserApplication=x\n", createdSection: false),
        SetCase(before: "[KDE]\nA=1\n", section: "General", key: "BrowserApplication", after: "[KDE]\nA=1\n\n[General]\nBrowserApplication=x\n", createdSection: true),
        SetCase(before: "[General]\nA=1\n\n[KDE]\nB=2\n", section: "General", key: "C", after: "[General]\nA=1\nC=x\n\n[KDE]\nB=2\n", createdSection: false),
        SetCase(before: "[General]\nA=1", section: "General", key: "C", after: "[General]\nA=1\nC=x\n", createdSection: false),
    ]

    @Test(arguments: setCases)
    func setKeepsEveryOtherLine(_ item: SetCase) {
        var text = KeyFileText(text: item.before)
        #expect(text.set(section: item.section, key: item.key, value: "x") == item.createdSection)
        #expect(text.text == item.after)
        #expect(text.value(section: item.section, key: item.key) == "x")
    }

    @Test func aCreatedSectionIsRemovedWithItsSeparator() throws {
        var text = KeyFileText(text: "[KDE]\nA=1\n")
        text.set(section: "General", key: "B", value: "x")
        text.lines.remove(at: try #require(text.lineIndex(section: "General", key: "B")))
        text.removeSectionIfEmpty("General")
        #expect(text.text == "[KDE]\nA=1\n")
    }

    @Test func recordFieldsSurviveTabsAndBackslashes() throws {
        var record = TakeoverRecord()
        record.edits = [.init(path: "/a\tb", section: "S\\x", key: "k", original: "k=v\twith\\tab", value: "ours", createdSection: true)]
        record.previous = [("x-scheme-handler/http", nil)]
        let dir = try IsolatedDesktop(name: "record")
        try record.write(dir.root + "/r")
        let back = try #require(TakeoverRecord.read(dir.root + "/r"))
        #expect(back.edits == record.edits)
        #expect(back.previous.first?.id == nil)
        var info = stat()
        #expect(stat(dir.root + "/r", &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func uninstallPutsBackOnlyOurSettingsInFilesChangedSinceInstall() throws {
        let desktop = try IsolatedDesktop(name: "takeover")
        var environment = desktop.environment
        environment["XDG_CURRENT_DESKTOP"] = "XFCE"
        environment["PATH"] = "/nonexistent"
        let paths = XDGPaths(environment: environment)
        let handlers = DefaultHandlers(paths: paths)
        let kdeglobals = desktop.configHome + "/kdeglobals"
        try "[General]\nBrowserApplication=firefox.desktop\nColorScheme=Breeze\n".write(toFile: kdeglobals, atomically: true, encoding: .utf8)
        try handlers.install(openurl: "/opt/openurl", environment: environment)
        #expect(try String(contentsOfFile: kdeglobals, encoding: .utf8) == "[General]\nBrowserApplication=io.github.openurld.desktop\nColorScheme=Breeze\n")
        let rc = desktop.configHome + "/xfce4/helpers.rc"
        #expect(try String(contentsOfFile: rc, encoding: .utf8) == "WebBrowser=openurld-browser\nMailReader=openurld-mail\n")
        let helper = try String(contentsOfFile: desktop.dataHome + "/xfce4/helpers/openurld-mail.desktop", encoding: .utf8)
        #expect(helper.contains("X-XFCE-CommandsWithParameter=/opt/openurl \"mailto:%s\";"))

        // The user changes other settings in both files after install.
        try "[General]\nBrowserApplication=io.github.openurld.desktop\nColorScheme=BreezeDark\n".write(toFile: kdeglobals, atomically: true, encoding: .utf8)
        try "WebBrowser=openurld-browser\nMailReader=openurld-mail\nTerminalEmulator=xterm\n".write(toFile: rc, atomically: true, encoding: .utf8)
        try handlers.uninstall()
        #expect(try String(contentsOfFile: kdeglobals, encoding: .utf8) == "[General]\nBrowserApplication=firefox.desktop\nColorScheme=BreezeDark\n")
        #expect(try String(contentsOfFile: rc, encoding: .utf8) == "TerminalEmulator=xterm\n")
        #expect(!FileManager.default.fileExists(atPath: desktop.dataHome + "/xfce4"), "helper entries and their directories go")
        #expect(!FileManager.default.fileExists(atPath: handlers.recordFile))
    }

    @Test func aRecordFromBeforeTakeoversStillUninstalls() throws {
        let desktop = try IsolatedDesktop(name: "legacy")
        let handlers = DefaultHandlers(paths: XDGPaths(environment: desktop.environment))
        try FileManager.default.createDirectory(atPath: desktop.stateHome + "/openurld", withIntermediateDirectories: true)
        try """
            # openurld: default handlers before `openurl install`; `openurl uninstall` restores them.
            handler\tx-scheme-handler/http\tfirefox.desktop\t=x-scheme-handler/http=firefox.desktop
            handler\tx-scheme-handler/https\t\t-
            handler\tx-scheme-handler/mailto\t\t-

            """.write(toFile: handlers.recordFile, atomically: true, encoding: .utf8)
        let list = desktop.configHome + "/mimeapps.list"
        try "[Default Applications]\nx-scheme-handler/http=io.github.openurld.desktop\ntext/html=firefox.desktop\n"
            .appending("x-scheme-handler/https=io.github.openurld.desktop\nx-scheme-handler/mailto=io.github.openurld.desktop\n")
            .write(toFile: list, atomically: true, encoding: .utf8)
        #expect(handlers.recordedDefaults()["x-scheme-handler/http"] == "firefox.desktop")
        try handlers.uninstall()
        #expect(try String(contentsOfFile: list, encoding: .utf8) == "[Default Applications]\nx-scheme-handler/http=firefox.desktop\ntext/html=firefox.desktop\n")
    }

    @Test func stealsAreFoundInEveryTakenOverFileAndTakenBackOrKept() throws {
        let fixture = try HandlerFixture()
        var environment = fixture.environment
        environment["XDG_CURRENT_DESKTOP"] = "XFCE"
        let kdeglobals = fixture.desktop.configHome + "/kdeglobals"
        try "[General]\nBrowserApplication=firefox.desktop\n".write(toFile: kdeglobals, atomically: true, encoding: .utf8)
        let handlers = DefaultHandlers(paths: XDGPaths(environment: environment))
        try handlers.install(openurl: "/opt/openurl", environment: environment)
        #expect(handlers.stolenSettings() == [])

        // Firefox's "make default" through xdg-settings under KDE and XFCE, and GLib for mailto.
        try "[General]\nBrowserApplication=firefox.desktop\n".write(toFile: kdeglobals, atomically: true, encoding: .utf8)
        let rc = fixture.desktop.configHome + "/xfce4/helpers.rc"
        try "WebBrowser=firefox\nMailReader=openurld-mail\n".write(toFile: rc, atomically: true, encoding: .utf8)
        var list = try String(contentsOfFile: fixture.listPath, encoding: .utf8)
        list = list.replacingOccurrences(of: "x-scheme-handler/mailto=io.github.openurld.desktop", with: "x-scheme-handler/mailto=thunderbird.desktop")
        try list.write(toFile: fixture.listPath, atomically: true, encoding: .utf8)

        let stolen = handlers.stolenSettings()
        #expect(stolen.map(\.key).sorted() == ["BrowserApplication", "WebBrowser", "x-scheme-handler/mailto"])
        #expect(stolen.first { $0.key == "BrowserApplication" }?.appName == "Firefox")
        #expect(stolen.first { $0.key == "BrowserApplication" }?.schemes == ["http", "https"])
        #expect(stolen.first { $0.key == "x-scheme-handler/mailto" }?.appName == "Thunderbird")

        try handlers.takeBack(stolen.filter { $0.key != "x-scheme-handler/mailto" })
        #expect(try String(contentsOfFile: kdeglobals, encoding: .utf8) == "[General]\nBrowserApplication=io.github.openurld.desktop\n")
        #expect(try String(contentsOfFile: rc, encoding: .utf8) == "WebBrowser=openurld-browser\nMailReader=openurld-mail\n")
        try handlers.keep(stolen.filter { $0.key == "x-scheme-handler/mailto" })
        #expect(handlers.stolenSettings() == [])
        #expect(handlers.recordedDefaults()["x-scheme-handler/mailto"] == "thunderbird.desktop")
        #expect(try handlers.systemHandler(forScheme: "mailto").id == "thunderbird.desktop")

        try handlers.uninstall()
        #expect(try String(contentsOfFile: kdeglobals, encoding: .utf8) == "[General]\nBrowserApplication=firefox.desktop\n")
        #expect(try String(contentsOfFile: fixture.listPath, encoding: .utf8).contains("x-scheme-handler/mailto=thunderbird.desktop"))
    }

    @Test func aNewDesktopListThatOverridesUsIsAStealAndTakeBackRecordsIt() throws {
        let fixture = try HandlerFixture()
        var environment = fixture.environment
        environment["XDG_CURRENT_DESKTOP"] = "GNOME"
        let handlers = DefaultHandlers(paths: XDGPaths(environment: environment))
        try handlers.install(openurl: "/opt/openurl", environment: environment)
        let list = fixture.desktop.configHome + "/gnome-mimeapps.list"
        let stolenText = "[Default Applications]\nx-scheme-handler/https=firefox.desktop\n"
        try stolenText.write(toFile: list, atomically: true, encoding: .utf8)
        let stolen = handlers.stolenSettings()
        #expect(stolen.map(\.path) == [list])
        #expect(stolen.first?.appName == "Firefox" && stolen.first?.schemes == ["https"])
        try handlers.takeBack(stolen)
        #expect(handlers.currentDefault(for: "x-scheme-handler/https") == DefaultHandlers.ourDesktopID)
        #expect(handlers.stolenSettings() == [])
        try handlers.uninstall()
        #expect(try String(contentsOfFile: list, encoding: .utf8) == stolenText)
    }
}

import Foundation
import Testing
@testable import DesktopDefaults
@testable import Launching
import TestSupport

/// A sandbox with a recording Firefox, Thunderbird, openurld's own entry (its `openurl` is a link
/// to the recording browser, so a delivery to openurl is visible too) and optional user lists.
struct HandlerFixture {
    let desktop: IsolatedDesktop
    let browser: RecordingBrowser
    let handlers: DefaultHandlers
    var environment: [String: String]

    init() throws {
        desktop = try IsolatedDesktop(name: "handlers")
        browser = try RecordingBrowser(logFile: desktop.root + "/browser.log")
        environment = desktop.environment.merging(browser.environment) { $1 }
        handlers = DefaultHandlers(paths: XDGPaths(environment: environment))
        try FileManager.default.createDirectory(atPath: desktop.root + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: desktop.root + "/bin/openurl", withDestinationPath: browser.executable)
        try desktop.writeDesktopEntry(id: "firefox.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Firefox", exec: "\(browser.executable) --firefox %u",
            mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https", "text/html"]), system: true)
        try desktop.writeDesktopEntry(id: "thunderbird.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Thunderbird", exec: "\(browser.executable) --mail %u", mimeTypes: ["x-scheme-handler/mailto"]),
            system: true)
        try desktop.writeDesktopEntry(id: DefaultHandlers.ourDesktopID, contents: IsolatedDesktop.desktopEntry(
            name: "openurl", exec: "\(desktop.root)/bin/openurl %u",
            mimeTypes: DefaultHandlers.handledTypes, extra: "DBusActivatable=true\n"), system: true)
    }

    var listPath: String { desktop.configHome + "/mimeapps.list" }
    var listBytes: Data? { FileManager.default.contents(atPath: listPath) }

    func run(_ argv: [String]) throws -> CommandResult {
        guard ProcessLauncher.resolve(argv[0], environment: environment) != nil else {
            Issue.record("\(argv[0]) not found: install xdg-utils (xdg-mime, xdg-open) and libglib2.0-bin (gio)")
            return CommandResult(exitCode: nil, standardOutput: [], standardError: [])
        }
        return try ProcessLauncher().run(argv, environment: environment, timeout: 20)
    }

    func xdgMimeDefault(_ type: String = "x-scheme-handler/http") throws -> String {
        try run(["xdg-mime", "query", "default", type]).outputText
    }

    func gioMimeDefault(_ type: String = "x-scheme-handler/http") throws -> String {
        // "Default application for “x-scheme-handler/http”: firefox.desktop"
        let first = try run(["gio", "mime", type]).outputText.split(separator: "\n").first.map(String.init) ?? ""
        return first.components(separatedBy: ": ").last ?? ""
    }
}

extension ProcessTests {
    @Suite struct DefaultHandlerRegistration {
        static let originals: [String?] = [
            nil,
            "",
            "[Added Associations]\ntext/html=firefox.desktop;\n",
            "# my settings\n[Default Applications]\nx-scheme-handler/http=firefox.desktop\ntext/html=firefox.desktop;\n\n"
                + "[Added Associations]\nx-scheme-handler/https=firefox.desktop;\n",
            "[Default Applications]\nx-scheme-handler/mailto = thunderbird.desktop;\nx-scheme-handler/https=firefox.desktop",
        ]

        @Test(arguments: originals)
        func installThenUninstallRestoresByteForByte(original: String?) throws {
            let fixture = try HandlerFixture()
            if let original { try original.write(toFile: fixture.listPath, atomically: true, encoding: .utf8) }
            let before = fixture.listBytes
            let xdgBefore = try fixture.xdgMimeDefault()

            #expect(try fixture.handlers.install() == [])
            #expect(fixture.handlers.isInstalled)
            #expect(try fixture.xdgMimeDefault() == DefaultHandlers.ourDesktopID)
            #expect(try fixture.xdgMimeDefault("x-scheme-handler/mailto") == DefaultHandlers.ourDesktopID)
            #expect(try fixture.gioMimeDefault("x-scheme-handler/https") == DefaultHandlers.ourDesktopID)
            let afterFirst = fixture.listBytes
            let record = FileManager.default.contents(atPath: fixture.handlers.recordFile)

            // Installing twice changes nothing and never records openurld as its own predecessor.
            try fixture.handlers.install()
            #expect(fixture.listBytes == afterFirst)
            #expect(FileManager.default.contents(atPath: fixture.handlers.recordFile) == record)
            #expect(!fixture.handlers.recordedDefaults().values.contains(DefaultHandlers.ourDesktopID))
            if original?.hasPrefix("[Default Applications]") == true {  // https=firefox.desktop is a default there
                #expect(fixture.handlers.recordedDefaults()["x-scheme-handler/https"] == "firefox.desktop")
            }

            try fixture.handlers.uninstall()
            #expect(fixture.listBytes == before, "mimeapps.list is back byte for byte")
            #expect(try fixture.xdgMimeDefault() == xdgBefore)
            #expect(!FileManager.default.fileExists(atPath: fixture.handlers.recordFile))
            try fixture.handlers.uninstall()
            #expect(fixture.listBytes == before)
        }

        @Test func uninstallLeavesLinesChangedSinceInstall() throws {
            let fixture = try HandlerFixture()
            try fixture.handlers.install()
            var text = try String(contentsOfFile: fixture.listPath, encoding: .utf8)
            text = text.replacingOccurrences(of: "x-scheme-handler/http=\(DefaultHandlers.ourDesktopID)",
                                             with: "x-scheme-handler/http=firefox.desktop")
            try text.write(toFile: fixture.listPath, atomically: true, encoding: .utf8)
            try fixture.handlers.uninstall()
            #expect(try String(contentsOfFile: fixture.listPath, encoding: .utf8)
                    == "[Default Applications]\nx-scheme-handler/http=firefox.desktop\n")
        }

        @Test func xdgOpenDeliversToTheDefaultAndThenToOpenurl() throws {
            let fixture = try HandlerFixture()
            try "[Default Applications]\nx-scheme-handler/https=firefox.desktop\n"
                .write(toFile: fixture.listPath, atomically: true, encoding: .utf8)
            let url = "https://example.com/path?a=1&b=two words"
            _ = try fixture.run(["xdg-open", url])
            var records = fixture.browser.waitForRecords(1, timeout: 15)
            #expect(records.first == ["--firefox", url])

            try fixture.handlers.install()
            _ = try fixture.run(["xdg-open", url])
            records = fixture.browser.waitForRecords(2, timeout: 15)
            #expect(records.count == 2 && records[1] == [url], "after install xdg-open runs `openurl URL`")
            ChildProcess.reapStrays()
        }

        @Test func systemHandlerPrefersTheRecordedDefaultAndNeverLoops() throws {
            let fixture = try HandlerFixture()
            try fixture.desktop.writeDesktopEntry(id: "aaa-xdg-open.desktop", contents: IsolatedDesktop.desktopEntry(
                name: "Loop", exec: "xdg-open %u", mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/gopher"]))
            try fixture.desktop.writeDesktopEntry(id: "aab-gio.desktop", contents: IsolatedDesktop.desktopEntry(
                name: "Loop 2", exec: "env LANG=C gio open %u", mimeTypes: ["x-scheme-handler/gopher"]))
            try fixture.desktop.writeDesktopEntry(id: "chromium.desktop", contents: IsolatedDesktop.desktopEntry(
                name: "Chromium", exec: "\(fixture.browser.executable) %u", mimeTypes: ["x-scheme-handler/http"]))
            try "[Default Applications]\nx-scheme-handler/http=firefox.desktop\n"
                .write(toFile: fixture.listPath, atomically: true, encoding: .utf8)
            try fixture.handlers.install()
            #expect(try fixture.handlers.systemHandler(forScheme: "http").id == "firefox.desktop")
            // No recorded default for mailto: the first other entry declaring it.
            #expect(try fixture.handlers.systemHandler(forScheme: "mailto").id == "thunderbird.desktop")
            #expect(throws: SystemHandlerError.onlyLoops(scheme: "gopher", candidates: ["aaa-xdg-open.desktop", "aab-gio.desktop"])) {
                try fixture.handlers.systemHandler(forScheme: "gopher")
            }
            #expect(throws: SystemHandlerError.noHandler(scheme: "ftp")) {
                try fixture.handlers.systemHandler(forScheme: "ftp")
            }
            try fixture.handlers.uninstall()
            // Not installed: the current default, and never openurld although it declares http.
            #expect(try fixture.handlers.systemHandler(forScheme: "http").id == "firefox.desktop")
        }
    }
}

import DBus
import Foundation
import TestSupport
import Testing

/// openurld as the desktop's handler: real `xdg-open` and `gio open`, installed and uninstalled.
@Suite(.serialized) struct HandlerTests {
    static let config = """
        [default]
        open = "browser.desktop"

        [[rules]]
        match.scheme = "mailto"
        open = "work.desktop"
        """

    /// Installs our desktop entry (Exec pointing at the built client) and makes it the default.
    func installed(_ harness: DaemonHarness) throws -> String {
        let desktopFile = try String(contentsOfFile: Self.packageRoot + "/desktop/io.github.openurld.desktop", encoding: .utf8)
            .replacingOccurrences(of: "Exec=openurl %u", with: "Exec=\(harness.openurl) %u")
        try harness.desktop.writeDesktopEntry(id: "io.github.openurld.desktop", contents: desktopFile)
        let mimeapps = "[Default Applications]\nx-scheme-handler/http=browser.desktop\nx-scheme-handler/https=browser.desktop\n"
        try mimeapps.write(toFile: harness.desktop.configHome + "/mimeapps.list", atomically: true, encoding: .utf8)
        let result = try harness.run([harness.openurl, "install"])
        #expect(result.status == 0, "\(result)")
        return mimeapps
    }

    static var packageRoot: String { PackageRoot.path }

    @Test(arguments: ["xdg-open", "gio"])
    func clicksReachTheRuleTargetExactlyOnce(tool: String) throws {
        let harness = try DaemonHarness(config: Self.config, name: tool)
        _ = try installed(harness)
        let query = try harness.run(["xdg-mime", "query", "default", "x-scheme-handler/https"])
        #expect(query.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "io.github.openurld.desktop", "\(query)")
        let urls = [
            "http://example.org/plain", "https://example.org/$(touch%20x)`id`'q'", "mailto:a@example.org?subject=Hi%0AThere",
        ]
        for url in urls {
            let argv = tool == "gio" ? ["gio", "open", url] : ["xdg-open", url]
            let result = try harness.run(argv)
            #expect(result.status == 0, "\(tool) \(url): \(result)")
        }
        let records = harness.browser.waitForRecords(3)
        // The browser gets the URL Standard's serialisation (`` ` `` percent-encoded in a path since issue 22).
        #expect(Set(records) == [["http://example.org/plain"], ["https://example.org/$(touch%20x)%60id%60'q'"], ["--work", "mailto:a@example.org?subject=Hi%0AThere"]])
        for url in ["http://example.org/plain", "https://example.org/$(touch%20x)%60id%60'q'", "mailto:a@example.org?subject=Hi%0AThere"] {
            #expect(try harness.outcomes(of: url) == ["done"], "\(url) was not routed exactly once")
        }
        #expect(harness.browser.records().count == 3)
        #expect(!FileManager.default.fileExists(atPath: harness.desktop.home + "/x"))
    }

    /// `openurl-tool URL` follows the click protocol by becoming the handler (one implementation):
    /// the daemon routes it once, and the handler's -v line says so.
    @Test func theToolRoutesAClickThroughTheHandler() throws {
        let harness = try DaemonHarness(config: Self.config, name: "toolroute")
        let result = try harness.run([try BuiltProduct.path("openurl-tool"), "-v", "https://example.org/tool"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("openurl: open https://example.org/tool (done, by openurld)"), "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/tool"]])
    }

    @Test func uninstallRestoresMimeappsByteForByte() throws {
        let harness = try DaemonHarness(config: Self.config, name: "uninstall")
        let before = try installed(harness)
        let installedText = try String(contentsOfFile: harness.desktop.configHome + "/mimeapps.list", encoding: .utf8)
        #expect(installedText.contains("x-scheme-handler/http=io.github.openurld.desktop"))
        #expect(try harness.run([harness.openurl, "install"]).status == 0)
        #expect(try harness.run([harness.openurl, "uninstall"]).status == 0)
        #expect(try String(contentsOfFile: harness.desktop.configHome + "/mimeapps.list", encoding: .utf8) == before)
    }

    @Test func systemFollowsThePreviousHandlerAndNeverLoops() throws {
        let harness = try DaemonHarness(config: "[default]\nsystem = true\n", name: "system")
        _ = try installed(harness)
        let ok = try harness.run([harness.openurl, "https://example.org/sys"])
        #expect(ok.status == 0, "\(ok)")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/sys"]])

        // Only loops left: openurld itself and an entry that hands links to xdg-open.
        try FileManager.default.removeItem(atPath: harness.desktop.applicationsDir + "/browser.desktop")
        try FileManager.default.removeItem(atPath: harness.desktop.stateHome + "/openurld/previous-handlers")
        try harness.desktop.writeDesktopEntry(id: "looper.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Looper", exec: "xdg-open %u", mimeTypes: ["x-scheme-handler/https"]))
        let loop = try harness.run([harness.openurl, "https://example.org/loop"])
        #expect(loop.status == 4, "\(loop)")
        #expect(loop.stderr.contains("loop") || loop.stderr.contains("no handler"), "\(loop.stderr)")
        #expect(try harness.outcomes(of: "https://example.org/loop").allSatisfy { $0.hasPrefix("failed") })
        #expect(harness.browser.records().count == 1)
    }

    @Test func aHundredLaunchesLeaveNoZombie() throws {
        let harness = try DaemonHarness(config: Self.config, name: "zombies")
        let connection = try harness.connect()
        for i in 0..<100 {
            _ = try connection.call(destination: DaemonHarness.busName, path: DaemonHarness.path, interface: DaemonHarness.interface,
                                    method: "Open", arguments: [.string("https://example.org/z\(i)"), .vardict([:])], timeout: 20)
        }
        #expect(harness.browser.waitForRecords(100, timeout: 30).count == 100)
        let daemon = try harness.daemonPID()
        #expect(eventually(timeout: 5) { ChildProcess.zombieChildren(of: pid_t(daemon)).isEmpty }, "zombies: \(ChildProcess.zombieChildren(of: pid_t(daemon)))")
    }

    @Test func shippedFilesValidate() throws {
        let desktop = try Command.run(["desktop-file-validate", Self.packageRoot + "/desktop/io.github.openurld.desktop"])
        #expect(desktop.status == 0 && desktop.stdout.isEmpty && desktop.stderr.isEmpty, "\(desktop)")
        let root = NSTemporaryDirectory() + "openurld-unit-\(getpid())"
        try FileManager.default.createDirectory(atPath: root + "/home/.local/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/runtime", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(atPath: try BuiltProduct.path("openurld"), toPath: root + "/home/.local/bin/openurld")
        let unit = try Command.run(["systemd-analyze", "verify", "--user", Self.packageRoot + "/systemd/openurld.service"],
                                   extraEnvironment: ["XDG_RUNTIME_DIR": root + "/runtime", "HOME": root + "/home"])
        #expect(unit.status == 0, "\(unit)")
        let warnings = unit.stderr.split(separator: "\n").filter { $0.contains("openurld.service") }
        #expect(warnings.isEmpty, "\(unit.stderr)")
        let service = try String(contentsOfFile: Self.packageRoot + "/dbus/io.github.openurld.service.in", encoding: .utf8)
        #expect(service.contains("Name=io.github.openurld\n") && service.contains("SystemdService=openurld.service"))
    }
}

import Foundation
import TestSupport
import Testing

/// Every path a desktop clicks through, with the real tool: each desktop starts from the state its
/// own settings leave (a recording browser made the default the way that desktop does it), then
/// `openurl install` must make each click reach openurld exactly once, and `openurl uninstall`
/// must put every file back byte for byte and remove the ones install created.
@Suite(.serialized) struct DesktopPathTests {
    /// Everything routes to `work.desktop`, so a record with `--work` went through openurld.
    static let config = "[default]\nopen = \"work.desktop\"\n"

    enum Desktop: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case gnome, kde, xfce, lxqt, unset

        var testDescription: String { rawValue }

        var session: [String: String] {
            switch self {
            case .gnome: return ["XDG_CURRENT_DESKTOP": "GNOME"]
            case .kde: return ["XDG_CURRENT_DESKTOP": "KDE", "KDE_SESSION_VERSION": "5", "KDE_FULL_SESSION": "true"]
            case .xfce: return ["XDG_CURRENT_DESKTOP": "XFCE"]
            case .lxqt: return ["XDG_CURRENT_DESKTOP": "LXQt"]
            case .unset: return [:]
            }
        }

        /// The tools clicked through on this desktop (the URL is appended).
        var clicks: [[String]] {
            switch self {
            case .gnome: return [["xdg-open"], ["gio", "open"], ["xdg-email"]]
            case .kde: return [["xdg-open"], ["kde-open5"], ["xdg-email"]]
            case .xfce: return [["xdg-open"], ["exo-open"], ["xdg-email"]]
            case .lxqt: return [["xdg-open"], ["xdg-email"]]
            case .unset: return [["xdg-open"], ["gio", "open"], ["xdg-email"]]
            }
        }

        /// The file `openurl status` must name as deciding a path before install.
        var decidingFile: String {
            switch self {
            case .gnome: return "gnome-mimeapps.list"
            case .kde: return "kdeglobals"
            case .xfce: return "xfce4/helpers.rc"
            case .lxqt: return "lxqt-mimeapps.list"
            case .unset: return "mimeapps.list"
            }
        }

        var tools: [(program: String, package: String)] {
            var tools = [("xdg-open", "xdg-utils"), ("xdg-email", "xdg-utils"), ("gio", "libglib2.0-bin")]
            if self == .kde { tools += [("kde-open5", "kde-cli-tools"), ("kreadconfig5", "kde-cli-tools")] }
            if self == .xfce { tools += [("exo-open", "exo-utils"), ("xfce4-mime-helper", "xfce4-settings")] }
            return tools
        }
    }

    /// The isolated session for `desktop`: system data and config dirs are visible (KDE needs the
    /// MIME database and menus, exo its GSettings schemas); the user's own dirs are the sandbox's.
    static func harness(_ desktop: Desktop, name: String, serviceDirectories: [String] = []) throws -> DaemonHarness {
        for (program, package) in desktop.tools where ChildProcess.findExecutable(program) == nil {
            throw HarnessError("\(program) not found: install \(package) (apt-get install \(package))")
        }
        var session = desktop.session
        session["NO_AT_BRIDGE"] = "1"
        return try DaemonHarness(config: config, name: name, withDesktopSession: true, session: session,
                                 serviceDirectories: serviceDirectories, systemDirectories: true)
    }

    @Test(arguments: Desktop.allCases)
    func eachPathReachesOpenurldOnceAndUninstallRestoresEveryFile(desktop: Desktop) throws {
        let harness = try Self.harness(desktop, name: "path-\(desktop.rawValue)")
        try installEntry(harness)
        try PriorState.write(desktop, harness)
        let url = { (index: Int, tool: [String]) -> String in
            tool == ["xdg-email"] ? "mailto:someone\(index)@example.org" : "https://example.org/\(desktop.rawValue)/\(index)?q=a%20b"
        }

        // Before install, each path goes to the browser the desktop's settings chose.
        for (index, tool) in desktop.clicks.enumerated() {
            let before = harness.browser.records().count
            let result = try harness.run(tool + [url(index, tool)], timeout: 30)
            #expect(result.status == 0, "\(tool) before install: \(result)")
            let records = harness.browser.waitForRecords(before + 1)
            #expect(records.count == before + 1 && records.last?.first != "--work", "\(tool) before install: \(records)")
        }
        // These clicks went to the desktop's own tools, not to openurld, so no record of ours
        // says they are done: a late second launch by a tool is given this long to show up.
        usleep(300_000)
        let priorCount = harness.browser.records().count
        let snapshot = try FileTree(harness.desktop)

        let broken = try harness.run([harness.openurl, "status"])
        #expect(broken.status == 4, "\(broken)")
        #expect(broken.stdout.split(separator: "\n").contains { $0.hasPrefix("BROKEN") && $0.contains(desktop.decidingFile) }, "\(broken.stdout)")

        let install = try harness.run([harness.openurl, "install"])
        #expect(install.status == 0, "\(install)")
        let status = try harness.run([harness.openurl, "status"])
        #expect(status.status == 0, "\(status)")
        for (index, tool) in desktop.clicks.enumerated() {
            let link = url(index + 10, tool)
            let result = try harness.run(tool + [link], timeout: 30)
            #expect(result.status == 0, "\(tool) after install: \(result)")
            let records = harness.browser.waitForRecords(priorCount + index + 1)
            #expect(records.dropFirst(priorCount).last == ["--work", link], "\(tool) after install: \(records.dropFirst(priorCount))")
        }
        for index in desktop.clicks.indices {
            let link = url(index + 10, desktop.clicks[index])
            #expect(try harness.outcomes(of: link) == ["done"], "\(link) was not routed exactly once")
        }
        #expect(harness.browser.records().count == priorCount + desktop.clicks.count, "each link arrives exactly once")

        let uninstall = try harness.run([harness.openurl, "uninstall"])
        #expect(uninstall.status == 0, "\(uninstall)")
        let restored = try FileTree(harness.desktop)
        #expect(restored.differences(from: snapshot) == [], "uninstall restores every file byte for byte")
    }

    /// Flatpak apps open links through `org.freedesktop.portal.OpenURI`: the real
    /// xdg-desktop-portal (with its GTK backend), D-Bus activated on the private bus as a session
    /// would, opens the GIO default in its environment, which after install is openurld.
    @Test func thePortalsOpenURIReachesOpenurldOnce() throws {
        for program in ["/usr/libexec/xdg-desktop-portal", "/usr/libexec/xdg-desktop-portal-gtk"] where access(program, X_OK) != 0 {
            throw HarnessError("\(program) not found: install xdg-desktop-portal and xdg-desktop-portal-gtk")
        }
        let harness = try Self.harness(.gnome, name: "portal", serviceDirectories: ["/usr/share/dbus-1/services"])
        try installEntry(harness)
        try PriorState.gioMime(harness)
        let openURI = { (url: String) throws -> ToolResult in
            try harness.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.portal.Desktop", "--object-path",
                             "/org/freedesktop/portal/desktop", "--method", "org.freedesktop.portal.OpenURI.OpenURI", "", url, "{}"], timeout: 30)
        }
        let before = try openURI("https://example.org/portal/before")
        #expect(before.status == 0, "\(before)")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/portal/before"]])
        let snapshot = try FileTree(harness.desktop)

        #expect(try harness.run([harness.openurl, "install"]).status == 0)
        let after = try openURI("https://example.org/portal/after")
        #expect(after.status == 0, "\(after)")
        #expect(harness.browser.waitForRecords(2).last == ["--work", "https://example.org/portal/after"])
        #expect(try harness.outcomes(of: "https://example.org/portal/after") == ["done"], "exactly once")
        #expect(harness.browser.records().count == 2, "exactly once")

        #expect(try harness.run([harness.openurl, "uninstall"]).status == 0)
        #expect(try FileTree(harness.desktop).differences(from: snapshot) == [])
    }

    /// Our desktop entry, `Exec` pointing at the built client (what `make install` does).
    func installEntry(_ harness: DaemonHarness) throws {
        let entry = try String(contentsOfFile: HandlerTests.packageRoot + "/desktop/io.github.openurld.desktop", encoding: .utf8)
            .replacingOccurrences(of: "Exec=openurl %u", with: "Exec=\(harness.openurl) %u")
        try harness.desktop.writeDesktopEntry(id: "io.github.openurld.desktop", contents: entry)
    }
}

/// Every file and directory under the sandbox's config and data homes, with its bytes. KIO's
/// `RecentDocuments` and `recently-used.xbel` (what the clicks opened) are history, not settings,
/// and are left out, as is `flatpak/db`, which the portal's permission store makes when it starts.
struct FileTree: Equatable {
    var files: [String: Data] = [:]
    var directories: Set<String> = []

    init(_ desktop: IsolatedDesktop) throws {
        for root in [desktop.configHome, desktop.dataHome] {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = walker.nextObject() as? String {
                let path = root + "/" + relative
                if relative.hasPrefix("RecentDocuments") || relative == "recently-used.xbel" || relative.hasPrefix("flatpak") { continue }
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue { directories.insert(path) } else { files[path] = FileManager.default.contents(atPath: path) }
            }
        }
    }

    /// What differs, one line per path.
    func differences(from other: FileTree) -> [String] {
        var lines: [String] = []
        for path in Set(files.keys).union(other.files.keys).sorted() where files[path] != other.files[path] {
            let now = files[path].map { String(decoding: $0, as: UTF8.self) } ?? "(missing)"
            let then = other.files[path].map { String(decoding: $0, as: UTF8.self) } ?? "(missing)"
            lines.append("\(path): was \(then.debugDescription), now \(now.debugDescription)")
        }
        for dir in directories.symmetricDifference(other.directories).sorted() { lines.append("directory \(dir)") }
        return lines
    }
}

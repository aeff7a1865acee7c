// One isolated desktop and private bus for the daemon measurements: a 1,000-rule config with the
// ClearURLs catalogue, the recording browser as browser.desktop, and openurld D-Bus activatable.
import BenchSupport
import DBus
import Foundation
import LinkSafety
import TestSupport

final class Session {
    static let busName = "io.github.openurld"
    let desktop: IsolatedDesktop
    let browser: RecordingBrowser
    let bus: PrivateBus
    let connection: DBusConnection
    let environment: [String: String]
    let openurl: String
    let openurld: String

    init(products: String, clearURLs: String) throws {
        openurl = products + "/openurl"
        openurld = products + "/openurld"
        for binary in [openurl, openurld] where access(binary, X_OK) != 0 {
            throw BenchError("\(binary) is not built: run `make release` first")
        }
        guard access(clearURLs, R_OK) == 0 else { throw BenchError("missing \(clearURLs) (the ClearURLs catalogue in ../shared/conformance)") }
        desktop = try IsolatedDesktop(name: "footprint")
        browser = try RecordingBrowser(logFile: desktop.root + "/browser.log")
        try desktop.writeDesktopEntry(id: "browser.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Browser", exec: "\(browser.executable) %u", mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"]))
        try FileManager.default.createDirectory(atPath: desktop.configHome + "/openurld", withIntermediateDirectories: true)
        try Self.config(clearURLs: clearURLs).write(toFile: desktop.configHome + "/openurld/config.toml", atomically: true, encoding: .utf8)
        var base = desktop.environment
        for (key, value) in browser.environment { base[key] = value }
        bus = try PrivateBus(environment: base)
        try bus.addService(name: Self.busName, exec: [openurld])
        environment = bus.environment(base)
        connection = try bus.connect()
    }

    /// 1,000 rules in a realistic mix (domains, some with a path glob, a few regexes and mailto
    /// recipients), the ClearURLs catalogue, and discard as the default (a no-op click).
    static func config(clearURLs: String) -> String {
        var text = "[settings]\ndedupe_ms = 0\nclearurls = \"\(clearURLs)\"\n[default]\ndiscard = true\n"
        text += "[[rules]]\nmatch.domain = \"click.example\"\nopen = \"browser.desktop\"\n"
        for i in 1..<1000 {
            text += "[[rules]]\n"
            switch i % 50 {
            case 0: text += "match.regex = \"^https://[a-z]+\\\\.r\(i)\\\\.example/\"\n"
            case 1, 2: text += "match.scheme = \"mailto\"\nmatch.to = \"*@corp\(i).example\"\n"
            default: text += "match.domain = \"site\(i).example\"\n" + (i % 10 == 5 ? "match.path = \"/app/*\"\n" : "")
            }
            text += "open = \"browser.desktop\"\n"
        }
        return text
    }

    func call(_ method: String, _ arguments: [DBusValue], interface: String = "io.github.openurld.Router1") throws -> [DBusValue] {
        try connection.call(destination: Self.busName, path: "/io/github/openurld", interface: interface, method: method,
                            arguments: arguments, timeout: 20)
    }

    func ping() throws {
        _ = try connection.call(destination: Self.busName, path: "/io/github/openurld", interface: "org.freedesktop.DBus.Peer",
                                method: "Ping", timeout: 20)
    }

    /// The running daemon's pid, or nil when the name has no owner.
    func daemonPID() -> pid_t? {
        guard (try? connection.nameHasOwner(Self.busName)) == true, let pid = try? connection.processID(of: Self.busName) else { return nil }
        return pid_t(pid)
    }

    /// Stops the running daemon (if any) and waits until it is gone and its name is free.
    func stopDaemon() throws {
        guard let pid = daemonPID() else { return }
        kill(pid, SIGTERM)
        let start = now()
        while !ProcFS.isGone(pid) || (try? connection.nameHasOwner(Self.busName)) == true {
            guard now() - start < 10 else { throw BenchError("openurld (pid \(pid)) did not exit on SIGTERM") }
            usleep(1000)
        }
    }

    /// Starts the daemon once and waits until it has written the compiled form of each of
    /// Debian's block lists it reads (`~/.cache/openurld/blocklists`), then stops it: every start
    /// but the first after an install or upgrade reads those instead of parsing the lists.
    func compileBlockLists() throws {
        let lists = BlockListDiscovery.auto { FileManager.default.isReadableFile(atPath: $0) }
        guard !lists.isEmpty else { return }
        try ping()
        let directory = desktop.home + "/.cache/openurld/blocklists"
        let start = now()
        while true {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            if names.filter({ $0.hasSuffix(".snapshot") }).count >= lists.count, !names.contains(where: { $0.contains(".snapshot.new-") }) { break }
            guard now() - start < 20 else {
                // A build from before the compiled lists (--products): measured as it is.
                print("  (no compiled block lists in \(directory) after 20 s: this build parses them at every start)")
                break
            }
            usleep(10_000)
        }
        try stopDaemon()
    }

    /// Waits until the recording browser has logged more than `count` launches.
    func waitForBrowser(after count: Int, timeout: Double = 10) throws {
        let start = now()
        while browser.records().count <= count {
            guard now() - start < timeout else { throw BenchError("the recording browser never got the link") }
            usleep(200)
        }
    }

    func stop() { bus.stop() }
}

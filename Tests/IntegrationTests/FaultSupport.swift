import DBus
import Foundation
import TestSupport
import Testing

/// What the fault tests share: questions asked through the real chooser on Xvfb, dunst, the
/// daemon's pid and log, and `recent` read both over D-Bus and from the file on disk.
enum Fault {
    /// A config whose `ask.example` links ask (browser, work, copy), with `settings` added.
    static func config(_ settings: String = "") -> String {
        """
        [settings]
        clipboard = "xclip"
        dedupe_ms = 0
        \(settings)

        [default]
        open = "browser.desktop"

        [[rules]]
        name = "ask"
        match.domain = ["ask.example", "one.ask.example", "two.ask.example", "three.ask.example"]
        ask = ["browser.desktop", "work.desktop", "copy"]
        """
    }

    /// Sends `url` to the daemon with `Open`; the reply's `id` and `outcome`.
    @discardableResult
    static func open(_ harness: DaemonHarness, _ url: String) throws -> (id: UInt32, outcome: String) {
        let reply = try harness.call("Open", [.string(url), .vardict([:])]).first?.dictionary ?? [:]
        return (reply["id"]?.uint32 ?? 0, reply["outcome"]?.string ?? "")
    }

    /// `Recent` (every entry), newest first, as id → entry.
    static func recent(_ harness: DaemonHarness) throws -> [UInt32: [String: DBusValue]] {
        let list = try harness.call("Recent", [.uint32(0)]).first?.array?.compactMap(\.dictionary) ?? []
        var byID: [UInt32: [String: DBusValue]] = [:]
        for entry in list { if let id = entry["id"]?.uint32 { byID[id] = entry } }
        return byID
    }

    /// The outcome of each id in `recent`, over D-Bus.
    static func outcomes(_ harness: DaemonHarness, _ ids: [UInt32]) -> [String] {
        let recent = (try? recent(harness)) ?? [:]
        return ids.map { recent[$0]?["outcome"]?.string ?? "missing" }
    }

    /// The outcome of each id as the file on disk says (the last line for an id wins), without a daemon.
    static func outcomesOnDisk(_ harness: DaemonHarness, _ ids: [UInt32]) -> [String] {
        let text = (try? String(contentsOfFile: harness.desktop.stateHome + "/openurld/recent.tsv", encoding: .utf8)) ?? ""
        var last: [UInt32: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count == 9, let id = UInt32(fields[0]) { last[id] = String(fields[8]) }
        }
        return ids.map { last[$0] ?? "missing" }
    }

    /// The X windows of the chooser on screen, by title.
    static func windows(_ harness: DaemonHarness, titled prefix: String = "^Open link") -> [String] {
        let found = (try? harness.run(["xdotool", "search", "--onlyvisible", "--name", prefix]))?.stdout ?? ""
        return found.split(separator: "\n").map(String.init)
    }

    /// Waits for one chooser window titled `Open link — HOST` and returns it (up to 45 s: under CI's
    /// load a GTK window once took longer than 20 s to map).
    static func window(_ harness: DaemonHarness, host: String, timeout: Double = 45) -> String? {
        var window: String?
        _ = eventually(timeout: timeout) {
            window = windows(harness, titled: "^Open link — \(NSRegularExpression.escapedPattern(for: host))$").first
            return window != nil
        }
        return window
    }

    /// Focuses `window` and types `keys`.
    static func press(_ harness: DaemonHarness, _ window: String, _ keys: String...) throws {
        let result = try harness.run(["xdotool", "windowfocus", "--sync", window, "key", "--delay", "50"] + keys)
        #expect(result.status == 0, "\(result)")
    }

    /// The pid of the process that owns X window `window`.
    static func windowPID(_ harness: DaemonHarness, _ window: String) -> pid_t? {
        let text = (try? harness.run(["xdotool", "getwindowpid", window]))?.stdout ?? ""
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The daemon's log file.
    static func log(_ harness: DaemonHarness) -> String {
        (try? String(contentsOfFile: harness.desktop.stateHome + "/openurld/log", encoding: .utf8)) ?? ""
    }

    /// Sends `signal` to the daemon and waits until it is gone and the bus knows (its name has
    /// no owner), so the next call starts the next daemon; returns the old pid.
    @discardableResult
    static func stopDaemon(_ harness: DaemonHarness, _ signal: Int32) throws -> pid_t {
        let daemon = pid_t(try harness.daemonPID())
        #expect(kill(daemon, signal) == 0)
        let connection = try harness.connect()
        #expect(eventually(timeout: 10) {
            DaemonLifecycleTests.gone(daemon) && (try? connection.nameHasOwner(DaemonHarness.busName)) == false
        }, "openurld (pid \(daemon)) did not go")
        return daemon
    }

    /// The notifications from openurld on screen now: closes them all so dunst files them in
    /// its history, and returns those, newest first.
    static func shownNotifications(_ server: NotificationServer, atLeast count: Int) throws -> [DunstHistoryEntry] {
        _ = eventually(timeout: 10) { ((try? server.displayedCount()) ?? 0) >= count }
        return try server.closeIntoHistory { $0.filter { $0.appName == "openurld" }.count >= count }.filter { $0.appName == "openurld" }
    }

    /// Picks the action `key` on whichever notification offers it, as a user would from dunst's menu.
    static func choose(_ server: NotificationServer, key: String, label: String) -> Bool {
        var chosen = false
        return eventually(timeout: 10) {
            if !chosen, (try? server.chooseAction(key: key)) != nil { chosen = server.lastMenu.contains { $0.contains(label) } }
            return chosen
        }
    }

    static func requireTools() throws {
        for tool in ["xdotool", "xclip"] where (try? Command.run(["sh", "-c", "command -v \(tool)"], environment: ProcessInfo.processInfo.environment))?.status != 0 {
            Issue.record("\(tool) is not installed (Debian package \(tool)); the fault tests need it")
            throw HarnessError("\(tool) missing")
        }
    }
}

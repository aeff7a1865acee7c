import DBus
import Foundation

/// One notification as dunst's history (`dunstctl history`) records it.
public struct DunstHistoryEntry: Sendable, Equatable {
    /// Notification id.
    public var id: Int
    /// `app_name` as sent.
    public var appName: String
    /// Summary as sent.
    public var summary: String
    /// Body as sent (before dunst renders markup).
    public var body: String
    /// The icon dunst resolved (may be empty when the theme lacks it).
    public var iconPath: String
}

/// A real notification server for tests: `dunst` (1.9) on a `PrivateBus`, drawing into an Xvfb.
///
/// Actions are driven the way a user would pick them from dunst's context menu: dunst's
/// `dmenu` setting points at a script that prints the menu line of the wanted action
/// (`#Label (summary) [ID,KEY]`), and `chooseAction` triggers `dunstctl context`.
public final class NotificationServer {
    /// The bus dunst serves.
    public let bus: PrivateBus
    /// The X server dunst draws into.
    public let display: VirtualDisplay
    /// Temporary directory with the dunstrc, menu script and logs.
    public let directory: String
    private var dunst: ChildProcess
    private let ownsDisplay: Bool
    private let timeout: Double

    /// Starts dunst on `bus` inside `display` (a new Xvfb when nil) and waits until it owns
    /// `org.freedesktop.Notifications`; fails saying what to install when a tool is missing.
    public init(bus: PrivateBus, display: VirtualDisplay? = nil, timeout: Double = 10) throws {
        try VirtualDisplay.require("dunst", package: "dunst")
        try VirtualDisplay.require("dunstctl", package: "dunst")
        try VirtualDisplay.require("busctl", package: "systemd")
        self.bus = bus
        ownsDisplay = display == nil
        self.display = try display ?? VirtualDisplay()
        directory = try VirtualDisplay.temporaryDirectory("dunst")
        let script = directory + "/menu.sh"
        try Self.menuScript(directory: directory).write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let recorder = directory + "/record.sh"
        try Self.recordScript(directory: directory).write(toFile: recorder, atomically: true, encoding: .utf8)
        chmod(recorder, 0o755)
        try Self.dunstrc(menuScript: script, recordScript: recorder).write(toFile: directory + "/dunstrc", atomically: true, encoding: .utf8)
        self.timeout = timeout
        dunst = try Self.startDunst(bus: bus, display: self.display, directory: directory, timeout: timeout)
    }

    /// Starts dunst and waits until it owns `org.freedesktop.Notifications`.
    private static func startDunst(bus: PrivateBus, display: VirtualDisplay, directory: String, timeout: Double) throws -> ChildProcess {
        var env = bus.environment(display.environment())
        env["HOME"] = directory
        env["XDG_CONFIG_HOME"] = directory
        let dunst = try ChildProcess(["dunst", "-config", directory + "/dunstrc"], environment: env,
                                     captureOutput: false, logPath: directory + "/dunst.log")
        let probe = try bus.connect()
        let owned = VirtualDisplay.wait(timeout: timeout) {
            dunst.poll() != nil || (try? probe.nameHasOwner("org.freedesktop.Notifications")) == true
        }
        guard owned, dunst.poll() == nil else {
            let log = (try? String(contentsOfFile: directory + "/dunst.log", encoding: .utf8)) ?? ""
            dunst.terminate(grace: 0.5)
            throw HarnessError("dunst did not own org.freedesktop.Notifications within \(timeout) s; log: \(log)")
        }
        return dunst
    }

    /// Kills dunst with SIGKILL, as a crash would, and waits until its name has left the bus;
    /// what it showed is gone. `start()` brings a new one.
    public func kill() throws {
        Foundation.kill(dunst.pid, SIGKILL)
        _ = dunst.waitForExit(timeout: 5)
        let probe = try bus.connect()
        guard VirtualDisplay.wait(timeout: timeout, until: { (try? probe.nameHasOwner("org.freedesktop.Notifications")) == false }) else {
            throw HarnessError("org.freedesktop.Notifications still has an owner after dunst was killed")
        }
    }

    /// Starts dunst again (after `kill()`), with the same config, and waits until it owns the name.
    public func start() throws {
        dunst = try Self.startDunst(bus: bus, display: display, directory: directory, timeout: timeout)
    }

    /// The pid of the running dunst.
    public var pid: pid_t { dunst.pid }

    /// `dunstctl count displayed`: the notifications on screen.
    public func displayedCount() throws -> Int {
        let result = try Command.run(["dunstctl", "count", "displayed"], environment: environment, timeout: 10)
        guard result.status == 0, let count = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("dunstctl count displayed failed: \(result)")
        }
        return count
    }

    deinit { stop() }

    /// Stops dunst (and the Xvfb if this harness started it).
    public func stop() {
        dunst.terminate(grace: 1)
        if ownsDisplay { display.stop() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The environment for clients of this server: its bus and display.
    public var environment: [String: String] { bus.environment(display.environment()) }

    /// Picks action `key` of notification `id` through dunst's context menu, as a user would.
    public func chooseAction(id: UInt32, key: String) throws {
        try "[\(id),\(key)]".write(toFile: directory + "/want", atomically: true, encoding: .utf8)
        try dunstctl(["context"])
    }

    /// Picks action `key` of whichever displayed notification offers it (for notifications sent
    /// by another process, whose ids the test does not see).
    public func chooseAction(key: String) throws {
        try ",\(key)]".write(toFile: directory + "/want", atomically: true, encoding: .utf8)
        try dunstctl(["context"])
    }

    /// The lines dunst offered in its last context menu.
    public var lastMenu: [String] {
        ((try? String(contentsOfFile: directory + "/menu.txt", encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// Closes every displayed notification as the user would (`dunstctl close-all`): reason "dismissed".
    public func closeAll() throws { try dunstctl(["close-all"]) }

    /// `dunstctl history`, parsed: notifications that were closed, newest first.
    public func history() throws -> [DunstHistoryEntry] {
        let result = try Command.run(["dunstctl", "history"], environment: environment, timeout: 10)
        guard result.status == 0 else { throw HarnessError("dunstctl history failed: \(result)") }
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        guard let top = json as? [String: Any], let data = top["data"] as? [[[String: Any]]], let list = data.first else {
            throw HarnessError("unexpected dunstctl history output: \(result.stdout.prefix(300))")
        }
        func field(_ entry: [String: Any], _ key: String) -> Any? { (entry[key] as? [String: Any])?["data"] }
        return list.map { entry in
            DunstHistoryEntry(
                id: field(entry, "id") as? Int ?? -1, appName: field(entry, "appname") as? String ?? "",
                summary: field(entry, "summary") as? String ?? "", body: field(entry, "body") as? String ?? "",
                iconPath: field(entry, "icon_path") as? String ?? "")
        }
    }

    /// Waits until `condition` holds for the history, returning the last history read.
    public func waitForHistory(timeout: Double = 5, until condition: ([DunstHistoryEntry]) -> Bool) throws -> [DunstHistoryEntry] {
        var last: [DunstHistoryEntry] = []
        _ = VirtualDisplay.wait(timeout: timeout) {
            last = (try? history()) ?? last
            return condition(last)
        }
        return last
    }

    /// Closes what is on screen and waits until `condition` holds for the history, closing again
    /// at each look for up to `timeout`: with the whole suite running beside it, a notification
    /// can arrive after a single close and then never reach the history.
    public func closeIntoHistory(timeout: Double = 15, until condition: ([DunstHistoryEntry]) -> Bool) throws -> [DunstHistoryEntry] {
        try closeAll()
        return try waitForHistory(timeout: timeout) { history in
            guard condition(history) else {
                try? closeAll()
                return false
            }
            return true
        }
    }

    private func dunstctl(_ arguments: [String]) throws {
        let result = try Command.run(["dunstctl"] + arguments, environment: environment, timeout: 10)
        guard result.status == 0 else { throw HarnessError("dunstctl \(arguments.joined(separator: " ")) failed: \(result)") }
    }

    /// Every notification dunst showed, in order, as (urgency, summary): `LOW`, `NORMAL` or
    /// `CRITICAL` (dunst's history does not keep the urgency; a rule's script records it).
    public var shown: [(urgency: String, summary: String)] {
        ((try? String(contentsOfFile: directory + "/shown.tsv", encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            return fields.count == 2 ? (String(fields[0]), String(fields[1])) : nil
        }
    }

    static func dunstrc(menuScript: String, recordScript: String) -> String {
        // Notifications stay until closed, so tests can act on them; nothing is read from the user's config.
        """
        [global]
            dmenu = \(menuScript)
            browser = /bin/true
            history_length = 100
            sticky_history = yes
            idle_threshold = 0
            show_indicators = no
            markup = full
        [urgency_low]
            timeout = 0
        [urgency_normal]
            timeout = 0
        [urgency_critical]
            timeout = 0
        [record]
            appname = "*"
            script = \(recordScript)

        """
    }

    static func recordScript(directory: String) -> String {
        """
        #!/bin/sh
        # dunst runs this for each notification it shows: APPNAME SUMMARY BODY ICON URGENCY.
        printf '%s\\t%s\\n' "$5" "$2" >> '\(directory)/shown.tsv'

        """
    }

    static func menuScript(directory: String) -> String {
        """
        #!/bin/sh
        # dunst's context menu: record what was offered, print the line holding the wanted "[ID,KEY]".
        menu=$(cat)
        printf '%s\\n' "$menu" > '\(directory)/menu.txt'
        want=$(cat '\(directory)/want' 2>/dev/null)
        [ -n "$want" ] && printf '%s\\n' "$menu" | grep -F -m1 -- "$want"
        exit 0

        """
    }
}

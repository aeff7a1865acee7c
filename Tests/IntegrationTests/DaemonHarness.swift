import DBus
import Foundation
import TestSupport
import Testing

/// One isolated desktop with a private bus on which `io.github.openurld` is D-Bus activatable,
/// a recording browser as `browser.desktop`, and the built `openurl`/`openurld`.
final class DaemonHarness {
    let desktop: IsolatedDesktop
    let browser: RecordingBrowser
    let bus: PrivateBus
    let openurl: String
    let openurld: String
    let environment: [String: String]
    /// Xvfb and dunst, when asked for: clipboard tools and notifications work for real.
    let display: VirtualDisplay?
    let notifications: NotificationServer?

    static let busName = "io.github.openurld"
    static let path = "/io/github/openurld"
    static let interface = "io.github.openurld.Router1"

    var configPath: String { desktop.configHome + "/openurld/config.toml" }

    /// `session` is layered over the isolated environment before the bus starts (so the
    /// activated daemon sees it too: `XDG_CURRENT_DESKTOP`, ...); `serviceDirectories` are extra
    /// D-Bus service directories (the portal's); `systemDirectories` adds the system's data and
    /// config directories after the sandbox's. `activationHasDisplay: false` starts the bus (and
    /// so the activated daemon) without `DISPLAY`/`WAYLAND_DISPLAY`, as after startx or a bare
    /// i3/sway that never ran `dbus-update-activation-environment`; commands run by the test
    /// still have the display.
    init(config: String? = nil, name: String = "daemon", withDesktopSession: Bool = false,
         session: [String: String] = [:], serviceDirectories: [String] = [], systemDirectories: Bool = false,
         activationHasDisplay: Bool = true) throws {
        desktop = try IsolatedDesktop(name: name)
        browser = try RecordingBrowser(logFile: desktop.root + "/browser.log")
        openurl = try BuiltProduct.path("openurl")
        openurld = try BuiltProduct.path("openurld")
        try desktop.writeDesktopEntry(id: "browser.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Recording Browser", exec: "\(browser.executable) %u",
            mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https", "x-scheme-handler/mailto"]))
        try desktop.writeDesktopEntry(id: "work.desktop", contents: IsolatedDesktop.desktopEntry(
            name: "Work Browser", exec: "\(browser.executable) --work %u"))
        display = withDesktopSession ? try VirtualDisplay() : nil
        var base = display?.environment(desktop.environment) ?? desktop.environment
        for (key, value) in browser.environment { base[key] = value }
        for (key, value) in session { base[key] = value }
        if systemDirectories {
            // KDE needs the MIME database and menus, exo its GSettings schemas and helpers.
            base["XDG_DATA_DIRS"] = desktop.dataDir + ":/usr/local/share:/usr/share"
            base["XDG_CONFIG_DIRS"] = "/etc/xdg"
        }
        var activation = base
        if !activationHasDisplay { activation["DISPLAY"] = nil; activation["WAYLAND_DISPLAY"] = nil }
        let bus = try PrivateBus(serviceDirectories: serviceDirectories, environment: activation)
        self.bus = bus
        notifications = try display.map { try NotificationServer(bus: bus, display: $0) }
        try bus.addService(name: Self.busName, exec: [openurld])
        environment = bus.environment(base)
        if let config { try writeConfig(config) }
    }

    deinit {
        notifications?.stop()
        bus.stop()
        display?.stop()
    }

    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: desktop.configHome + "/openurld", withIntermediateDirectories: true)
        // Write beside and rename, as editors do.
        try text.write(toFile: configPath + ".new", atomically: false, encoding: .utf8)
        guard rename(configPath + ".new", configPath) == 0 else { throw HarnessError("rename failed") }
    }

    func connect() throws -> DBusConnection { try bus.connect() }

    /// Calls a Router1 method through our own client library.
    func call(_ method: String, _ arguments: [DBusValue] = [], interface: String = DaemonHarness.interface) throws -> [DBusValue] {
        try connect().call(destination: Self.busName, path: Self.path, interface: interface, method: method, arguments: arguments, timeout: 20)
    }

    /// Runs a command in the isolated environment.
    func run(_ argv: [String], extra: [String: String] = [:], timeout: Double = 20) throws -> ToolResult {
        try Command.run(argv, environment: environment, extraEnvironment: extra, timeout: timeout)
    }

    /// `gdbus call` on the daemon.
    func gdbus(_ method: String, _ arguments: [String], interface: String = DaemonHarness.interface) throws -> ToolResult {
        try run(["gdbus", "call", "--session", "--dest", Self.busName, "--object-path", Self.path,
                 "--method", "\(interface).\(method)"] + arguments)
    }

    /// Waits until the daemon answers on the bus (a `Properties.Get` of `Version`, which starts
    /// it by activation when it is not running). A cold debug build takes seconds to start, longer
    /// than a check of its log waits; a test that reads the log warms the daemon up first.
    func warmUp(timeout: Double = 60) throws {
        let version = try connect().call(destination: Self.busName, path: Self.path, interface: "org.freedesktop.DBus.Properties",
                                         method: "Get", arguments: [.string(Self.interface), .string("Version")], timeout: timeout)
        guard version.first?.string?.isEmpty == false else { throw HarnessError("the daemon answered Version with \(version)") }
    }

    /// Waits until a daemon started by the test itself (not by activation) owns the bus name:
    /// calling it would activate another one.
    func waitUntilServing(timeout: Double = 60) throws {
        let connection = try connect()
        guard try eventually(timeout: timeout, { try connection.nameHasOwner(Self.busName) }) else {
            throw HarnessError("nothing owned \(Self.busName) within \(timeout) s")
        }
    }

    /// The daemon's pid, once it runs.
    func daemonPID() throws -> UInt32 { try connect().processID(of: Self.busName) }

    /// The daemon's own account of `finalURL`: the outcome `recent` records for each time it was
    /// routed, oldest first. Every launch the daemon makes is one `done` here, so "opened once"
    /// is read from this record, not from waiting to see whether a second launch turns up.
    func outcomes(of finalURL: String) throws -> [String] {
        let entries = try call("Recent", [.uint32(0)]).first?.array?.compactMap(\.dictionary) ?? []
        return entries.reversed().filter { $0["final_url"]?.string == finalURL }.compactMap { $0["outcome"]?.string }
    }

    /// The outcomes of `finalURL` once none of them is still `asking`.
    func settledOutcomes(of finalURL: String, timeout: Double = 10) throws -> [String] {
        var outcomes: [String] = []
        _ = try eventually(timeout: timeout) {
            outcomes = try self.outcomes(of: finalURL)
            return !outcomes.isEmpty && !outcomes.contains("asking")
        }
        return outcomes
    }
}


import Platform
import RoutingCore

/// Where each fact of a click's moment comes from, gathered in one call: the network from the
/// watcher (or one reading when there is none), the local time from the clock, the window title
/// and keys from the click's X11 display, the running programs from `/proc`. Only the facts the
/// rules need are gathered; none of them asks the session bus.
public struct MomentSources {
    /// The network: the daemon's watcher, else nil (a one-time reading is made when needed).
    public var network: NetworkWatcher?
    /// This process's environment (the system bus address; a display to fall back on).
    public var environment: [String: String]
    /// How long the X11 display may take to answer.
    public var x11Timeout: Double

    /// Sources for a daemon (with its watcher) or for one click (`network` nil).
    public init(network: NetworkWatcher?, environment: [String: String], x11Timeout: Double = 0.25) {
        self.network = network
        self.environment = environment
        self.x11Timeout = x11Timeout
    }

    /// The facts in `needs`, for a click whose display variables are `click` (those it lacks
    /// come from this process's environment).
    public func moment(needs: MomentNeeds, click: [String: String]) -> Moment {
        var moment = Moment()
        guard !needs.isEmpty else { return moment }
        if needs.contains(.network) {
            moment.network = network?.facts ?? NetworkWatcher.readOnce(environment: environment)
        }
        if needs.contains(.time) { moment.time = .known(Self.localTime()) }
        if !needs.isDisjoint(with: [.window, .modifiers]) {
            let display = Self.display(click: click, own: environment)
            let x11 = X11Snapshot.read(environment: display, timeout: x11Timeout)
            moment.window = x11.window
            moment.modifiers = x11.modifiers
        }
        if needs.contains(.running) { moment.running = .known(RunningPrograms.scan()) }
        return moment
    }

    /// The click's display variables where it has them, else this process's, plus `HOME`
    /// (for `~/.Xauthority`).
    public static func display(click: [String: String], own: [String: String]) -> [String: String] {
        let names = ["DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "XAUTHORITY"]
        var out: [String: String] = [:]
        let clickHasDisplay = ["DISPLAY", "WAYLAND_DISPLAY"].contains { click[$0].map { !$0.isEmpty } ?? false }
        for name in names { out[name] = clickHasDisplay ? click[name] : own[name] }
        out["HOME"] = own["HOME"]
        return out
    }

    /// Now, on the local clock.
    public static func localTime() -> LocalTime {
        let now = CalendarTime.local(seconds: WallClock.secondsSinceEpoch())
        return LocalTime(year: now.year, month: now.month, day: now.day, hour: now.hour, minute: now.minute)
    }

    /// What `openurl status` shows of a moment: one line per fact.
    public static func describe(_ moment: Moment) -> [(String, String)] {
        var lines: [(String, String)] = []
        switch moment.network {
        case .known(let facts):
            lines.append(("network", facts.summary))
            lines.append(("vpn", facts.vpns.isEmpty ? "none active" : facts.vpns.map { "\"\($0.id)\"" }.joined(separator: ", ")))
        case .unknown(let why):
            lines.append(("network", "unknown: \(why)"))
        }
        switch (moment.window, moment.modifiers) {
        case (.known(let title), _): lines.append(("x11", "window titles and held keys are readable (focused now: \"\(title)\")"))
        case (.unknown, .known): lines.append(("x11", "held keys are readable; window titles are not (\(moment.window.whyUnknown ?? ""))"))
        case (.unknown(let why), .unknown): lines.append(("x11", "no window titles or held keys: \(why)"))
        }
        return lines
    }
}

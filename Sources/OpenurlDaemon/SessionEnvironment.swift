import RouterContract
import Platform

/// Where a click's display comes from when the daemon has none of its own.
///
/// A D-Bus-activated daemon inherits the bus's activation environment, not the session's: after
/// startx or a bare i3/sway that never ran `dbus-update-activation-environment`, it has no
/// `DISPLAY` or `WAYLAND_DISPLAY`, and every browser it launched would fail. In order it takes
/// the variables the client sent with the call (`openurl` sends its own), the systemd user
/// manager's environment (`systemctl --user import-environment` sessions), and the environment
/// of the calling process itself (GIO apps calling `org.freedesktop.Application.Open` have the
/// display they were started with).
struct SessionEnvironment {
    /// The daemon's own environment.
    let own: [String: String]

    /// True when `environment` names a display a launched app can use.
    static func hasDisplay(_ environment: [String: String]) -> Bool { Environment.hasDisplay(environment) }

    /// The variables the client sent that the daemon's own environment lacks, one by one.
    func missing(sent: [String: String]) -> [String: String] {
        sent.filter { (own[$0.key] ?? "").isEmpty }
    }

    /// True when a click that sent `sent` needs its display looked up: the daemon has none of its
    /// own and the client sent none (a GIO app's `Application.Open`). Then the systemd manager's
    /// environment is tried, then the calling process's own (see `Daemon.completing`).
    func needsLookup(sent: [String: String]) -> Bool {
        !Self.hasDisplay(own) && !Self.hasDisplay(missing(sent: sent))
    }

    /// The display variables in `/proc/PID/environ` (readable for our own user's processes).
    static func processEnvironment(pid: UInt32) -> [String: String] {
        guard let data = FileSystem.contents("/proc/\(pid)/environ") else { return [:] }
        return displayVariables(data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }

    /// `NAME=value` assignments filtered to `ClickEnvironment.names`, empty values dropped.
    static func displayVariables(_ assignments: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            let name = String(assignment[..<equals]), value = String(assignment[assignment.index(after: equals)...])
            if ClickEnvironment.names.contains(name), !value.isEmpty { result[name] = value }
        }
        return result
    }
}

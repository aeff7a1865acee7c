import RouterContract
import DBus
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
    static func hasDisplay(_ environment: [String: String]) -> Bool {
        !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// The variables to add for one click. Those the client sent fill in what the daemon's own
    /// environment lacks, one by one; the session's are looked up only when the daemon has no
    /// display at all. Empty when the daemon has everything.
    func forClick(sent: [String: String], callerPID: () -> UInt32?, connection: DBusConnection) -> [String: String] {
        let missing = sent.filter { (own[$0.key] ?? "").isEmpty }
        guard !Self.hasDisplay(own) else { return missing }
        if Self.hasDisplay(missing) { return missing }
        let systemd = Self.systemdEnvironment(connection)
        if Self.hasDisplay(systemd) { return systemd }
        if let pid = callerPID(), pid > 0 {
            let caller = Self.processEnvironment(pid: pid)
            if Self.hasDisplay(caller) { return caller }
        }
        return [:]
    }

    /// The display variables of the systemd user manager (`org.freedesktop.systemd1.Manager.Environment`),
    /// empty when no systemd manager owns its name on this bus.
    static func systemdEnvironment(_ connection: DBusConnection) -> [String: String] {
        let name = "org.freedesktop.systemd1"
        guard (try? connection.nameHasOwner(name)) == true,
              let reply = try? connection.call(destination: name, path: "/org/freedesktop/systemd1", interface: "org.freedesktop.DBus.Properties",
                                               method: "Get", arguments: [.string("org.freedesktop.systemd1.Manager"), .string("Environment")], timeout: 1),
              let assignments = reply.first?.unwrapped.stringArray
        else { return [:] }
        return displayVariables(assignments)
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

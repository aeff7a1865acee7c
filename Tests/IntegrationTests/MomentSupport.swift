import Foundation
import TestSupport
import DBus

/// python3-dbusmock's NetworkManager template on a private bus, given to the daemon as its
/// system bus (`DBUS_SYSTEM_BUS_ADDRESS`), driven with `gdbus` as NetworkManager's own clients
/// would see it change.
final class MockNetworkManager {
    let bus: PrivateBus
    let mock: ChildProcess
    var address: String { bus.address }
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/openurld-test-no-bus"
        return env
    }
    static let mockInterface = "org.freedesktop.DBus.Mock"

    init() throws {
        guard FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbusmock/templates/networkmanager.py") else {
            throw HarnessError("python3-dbusmock not found: install python3-dbusmock (apt-get install python3-dbusmock)")
        }
        bus = try PrivateBus()
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        mock = try ChildProcess(["/usr/bin/python3", "-m", "dbusmock", "--template", "networkmanager"], environment: env,
                                captureOutput: false, logPath: bus.directory + "/dbusmock.log")
        let connection = try bus.connect()
        let deadline = Date().addingTimeInterval(20)
        while true {
            let owned = try connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                            method: "NameHasOwner", arguments: [.string("org.freedesktop.NetworkManager")]).first?.bool
            if owned == true { break }
            guard Date() < deadline, mock.poll() == nil else { throw HarnessError("dbusmock's NetworkManager did not appear within 20 s") }
            usleep(20_000)
        }
    }

    deinit {
        mock.terminate(grace: 1)
        bus.stop()
    }

    /// `gdbus call` on the mock; returns its stdout.
    @discardableResult
    func call(_ path: String, _ method: String, _ arguments: [String]) throws -> String {
        let result = try Command.run(["gdbus", "call", "--system", "--dest", "org.freedesktop.NetworkManager", "--object-path", path,
                                      "--method", method] + arguments, environment: environment, timeout: 20)
        guard result.status == 0 else { throw HarnessError("gdbus \(method) failed: \(result)") }
        return result.stdout
    }

    /// The object path in a `gdbus` answer (`('/org/…',)` or `(objectpath '/org/…',)`).
    static func path(in answer: String) -> String {
        guard let start = answer.firstIndex(of: "'"), let end = answer[answer.index(after: start)...].firstIndex(of: "'") else { return "" }
        return String(answer[answer.index(after: start)..<end])
    }

    /// A Wi-Fi device with an access point of `ssid`; returns (device, access point) paths.
    func addWiFi(ssid: String) throws -> (device: String, accessPoint: String) {
        let device = Self.path(in: try call("/org/freedesktop", "\(Self.mockInterface).AddWiFiDevice", ["mock_WiFi0", "wlan0", "100"]))
        let accessPoint = Self.path(in: try call("/org/freedesktop", "\(Self.mockInterface).AddAccessPoint",
                                                 [device, "ap1", ssid, "00:11:22:33:44:55", "2", "2425", "5400", "82", "256"]))
        return (device, accessPoint)
    }

    /// Activates the Wi-Fi connection to `ssid` on `device`; returns the active connection's path.
    func connect(device: String, accessPoint: String, ssid: String) throws -> String {
        let connection = Self.path(in: try call("/org/freedesktop", "\(Self.mockInterface).AddWiFiConnection", [device, "conn1", ssid, "wpa-psk"]))
        return Self.path(in: try call("/org/freedesktop", "\(Self.mockInterface).AddActiveConnection",
                                      ["['\(device)']", connection, accessPoint, "wifi1", "2"]))
    }

    /// Brings up a VPN connection called `name`; returns its active connection's path.
    func connectVPN(_ name: String) throws -> String {
        let settings = "{'connection': {'id': <'\(name)'>, 'type': <'vpn'>, 'uuid': <'7d4c8e2a-0000-4000-8000-000000000001'>}}"
        let connection = Self.path(in: try call("/org/freedesktop/NetworkManager/Settings", "org.freedesktop.NetworkManager.Settings.AddConnection", [settings]))
        return Self.path(in: try call("/org/freedesktop", "\(Self.mockInterface).AddActiveConnection", ["@as []", connection, "/", "vpn1", "2"]))
    }

    func disconnect(device: String, active: String) throws {
        try call("/org/freedesktop", "\(Self.mockInterface).RemoveActiveConnection", [device, active])
    }

    /// Changes the access point's SSID, as roaming to another network's access point would.
    func setSSID(_ accessPoint: String, _ ssid: String) throws {
        try call("/org/freedesktop", "\(Self.mockInterface).SetProperty",
                 [accessPoint, "org.freedesktop.NetworkManager.AccessPoint", "Ssid", "<b'\(ssid)'>"])
    }
}

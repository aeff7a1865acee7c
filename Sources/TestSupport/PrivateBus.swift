import DBus
import Foundation
import Glibc

/// A real, private `dbus-daemon` for one test: its own config, socket and service directory.
///
/// Never touches the user's session bus. Stopped (and reaped) by `stop()` or deinit.
public final class PrivateBus {
    /// The bus address, e.g. `unix:path=/tmp/openurld-bus-XXXX/bus`.
    public let address: String
    /// The temporary directory holding the config, socket, log and `services/`.
    public let directory: String
    /// The service directory always included in the config: put `.service` files here for activation.
    public let serviceDirectory: String
    private let daemon: ChildProcess

    /// The daemon's process id.
    public var pid: pid_t { daemon.pid }

    /// Starts the bus. `serviceDirectories` are extra `<servicedir>` entries; `environment`
    /// (default: ours) is what the daemon and so every D-Bus-activated service inherits.
    public init(serviceDirectories: [String] = [], environment: [String: String]? = nil, timeout: Double = 10) throws {
        guard ChildProcess.findExecutable("dbus-daemon") != nil else {
            throw HarnessError("dbus-daemon not found: install dbus (apt-get install dbus)")
        }
        var template = Array("/tmp/openurld-bus-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp failed: \(String(cString: strerror(errno)))") }
        directory = String(cString: made)
        serviceDirectory = directory + "/services"
        try FileManager.default.createDirectory(atPath: serviceDirectory, withIntermediateDirectories: true)
        let configPath = directory + "/session.conf"
        let config = Self.config(socket: directory + "/bus", serviceDirectories: [serviceDirectory] + serviceDirectories)
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)

        var env = environment ?? ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = nil
        daemon = try ChildProcess(
            ["dbus-daemon", "--config-file=\(configPath)", "--nofork", "--print-address=1"],
            environment: env, stderrPath: directory + "/bus.log")
        guard let line = daemon.firstLine(timeout: timeout) else {
            let status = daemon.terminate(grace: 0.5)
            try? FileManager.default.removeItem(atPath: directory)
            throw HarnessError("dbus-daemon printed no address within \(timeout) s (exit status \(status.map(String.init) ?? "none"))")
        }
        address = line
        // Keep draining what the bus and the services it activates (which inherit its stdout and
        // stderr) write: a full pipe would block a daemon in the middle of a log line.
        for fd in [daemon.stdoutFD, daemon.stderrFD].compactMap({ $0 }) {
            let copy = dup(fd)
            guard copy >= 0 else { continue }
            Thread.detachNewThread {
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                while buffer.withUnsafeMutableBytes({ read(copy, $0.baseAddress, $0.count) }) > 0 {}
                close(copy)
            }
        }
    }

    deinit { stop() }

    /// What the bus and the services it activated wrote to stderr (a file: a pipe nobody read
    /// would fill up and block a service that logs).
    public var log: String {
        (try? String(contentsOfFile: directory + "/bus.log", encoding: .utf8)) ?? ""
    }

    /// Stops the daemon and removes its directory; safe to call twice.
    public func stop() {
        daemon.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Opens a new client connection to this bus.
    public func connect() throws -> DBusConnection {
        try DBusConnection(address: address)
    }

    /// `base` (default: ours) with `DBUS_SESSION_BUS_ADDRESS` pointing at this bus, for child processes.
    public func environment(_ base: [String: String]? = nil) -> [String: String] {
        var env = base ?? ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        return env
    }

    /// Writes `services/NAME.service` so that calling `name` starts `exec` (argv, quoted for dbus-daemon).
    public func addService(name: String, exec: [String]) throws {
        let quoted = exec.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let text = "[D-BUS Service]\nName=\(name)\nExec=\(quoted)\n"
        try text.write(toFile: "\(serviceDirectory)/\(name).service", atomically: true, encoding: .utf8)
    }

    static func config(socket: String, serviceDirectories: [String]) -> String {
        let dirs = serviceDirectories.map { "  <servicedir>\(xmlEscape($0))</servicedir>\n" }.joined()
        return """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <keep_umask/>
              <listen>unix:path=\(xmlEscape(socket))</listen>
              <auth>EXTERNAL</auth>
            \(dirs)  <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>

            """
    }

    private static func xmlEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

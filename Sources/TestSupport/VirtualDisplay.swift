import Foundation
import Glibc

/// An `Xvfb` X server on a free display number (chosen by Xvfb itself through `-displayfd`,
/// so parallel tests and other users of the machine never collide), TCP disabled.
public final class VirtualDisplay {
    /// `:N`.
    public let display: String
    private let server: ChildProcess

    /// Starts Xvfb and waits until it accepts connections; fails saying what to install when missing.
    public init(timeout: Double = 10) throws {
        try Self.require("Xvfb", package: "xvfb")
        server = try ChildProcess(["Xvfb", "-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "800x600x24"],
                                  environment: ProcessInfo.processInfo.environment)
        guard let number = server.firstLine(timeout: timeout), Int(number) != nil else {
            server.terminate(grace: 0.5)
            throw HarnessError("Xvfb did not report a display number within \(timeout) s")
        }
        display = ":" + number
    }

    deinit { stop() }

    /// Stops the server; safe to call twice.
    public func stop() { server.terminate(grace: 1) }

    /// The server's process, for tests that freeze it (`SIGSTOP`) to play a hung X server.
    public var pid: pid_t { server.pid }

    /// `base` (default: ours) with `DISPLAY` pointing here, no Wayland display, and a dead bus address.
    public func environment(_ base: [String: String]? = nil) -> [String: String] {
        var env = base ?? ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env["WAYLAND_DISPLAY"] = nil
        // Never the user's bus; and with no address at all, X clients that use D-Bus (weston's helper
        // clients) autolaunch a session bus through dbus-launch that outlives the test. Point them at
        // nothing; `PrivateBus.environment(_:)` layered on top gives a real private bus.
        env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/openurld-test-no-bus"
        return env
    }

    /// Fails with `install PACKAGE` when `program` is not in `PATH`.
    static func require(_ program: String, package: String) throws {
        guard ChildProcess.findExecutable(program) != nil else {
            throw HarnessError("\(program) not found in PATH: install \(package) (apt-get install \(package))")
        }
    }

    /// Polls `condition` every 10 ms until it holds or `timeout` passes.
    static func wait(timeout: Double, until condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() >= end { return false }
            usleep(10_000)
        }
        return true
    }

    /// A fresh temporary directory (mode 0700) named after `name`.
    static func temporaryDirectory(_ name: String) throws -> String {
        var template = Array("/tmp/openurld-\(name)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError("mkdtemp: \(String(cString: strerror(errno)))") }
        return String(cString: made)
    }
}

/// A `weston` compositor nested in an X server (`--backend=x11-backend.so --use-pixman`): unlike
/// headless weston it has a seat, so `wl-copy`/`wl-paste` work.
public final class NestedWeston {
    /// The socket name (`WAYLAND_DISPLAY`).
    public let waylandDisplay: String
    /// Its private `XDG_RUNTIME_DIR`.
    public let runtimeDirectory: String
    private let compositor: ChildProcess
    private let display: VirtualDisplay

    /// Starts weston inside `display` and waits for its socket.
    public init(display: VirtualDisplay, timeout: Double = 10) throws {
        try VirtualDisplay.require("weston", package: "weston")
        self.display = display
        runtimeDirectory = try VirtualDisplay.temporaryDirectory("weston")
        waylandDisplay = "wayland-openurld-test"
        var env = display.environment()
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        compositor = try ChildProcess(
            ["weston", "--backend=x11-backend.so", "--use-pixman", "--no-config", "--shell=kiosk-shell.so",
             "--socket=\(waylandDisplay)", "--width=320", "--height=240", "--idle-time=0"],
            environment: env, captureOutput: false, logPath: runtimeDirectory + ".log")
        let socket = runtimeDirectory + "/" + waylandDisplay
        guard VirtualDisplay.wait(timeout: timeout, until: { access(socket, F_OK) == 0 || compositor.poll() != nil }),
              compositor.poll() == nil
        else {
            compositor.terminate(grace: 0.5)
            throw HarnessError("weston did not create \(socket) within \(timeout) s (is DISPLAY \(display.display) usable?)")
        }
    }

    deinit { stop() }

    /// Stops weston and removes its runtime directory.
    public func stop() {
        compositor.terminate(grace: 1)
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
        try? FileManager.default.removeItem(atPath: runtimeDirectory + ".log")
    }

    /// The X environment plus `WAYLAND_DISPLAY` and `XDG_RUNTIME_DIR` for Wayland clients.
    public func environment(_ base: [String: String]? = nil) -> [String: String] {
        var env = display.environment(base)
        env["WAYLAND_DISPLAY"] = waylandDisplay
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        return env
    }
}

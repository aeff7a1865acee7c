import DBus
import Foundation

/// A stand-in for the systemd user manager on a private bus: it owns `org.freedesktop.systemd1`
/// and serves `org.freedesktop.systemd1.Manager.Environment` (what `systemctl --user
/// import-environment` fills), which openurld reads when it was started without a display.
/// (`systemctl --user` itself does not work on these machines.)
public final class FakeSystemdManager {
    private let connection: DBusConnection
    private let loop: EventLoop
    private let finished = DispatchSemaphore(value: 0)

    /// Serves `environment` (`NAME=value` strings) on `bus` until `stop()`.
    public init(bus: PrivateBus, environment: [String]) throws {
        connection = try bus.connect()
        let manager = DBusInterface(
            name: "org.freedesktop.systemd1.Manager", methods: [],
            properties: [DBusProperty("Environment", signature: "as", emitsChanged: false) { .stringArray(environment) }])
        try connection.export(DBusObject(path: "/org/freedesktop/systemd1", interfaces: [manager]))
        guard try connection.requestName("org.freedesktop.systemd1").isOwner else {
            throw HarnessError("could not own org.freedesktop.systemd1 on the private bus")
        }
        loop = try EventLoop()
        try loop.add(connection)
        let loop = self.loop, finished = self.finished
        Thread {
            // Bounded, so a test that forgets to stop it never hangs the suite.
            _ = loop.run(timeout: 120)
            finished.signal()
        }.start()
    }

    deinit { stop() }

    /// Stops serving; safe to call twice.
    public func stop() {
        loop.stop()
        _ = finished.wait(timeout: .now() + 10)
        finished.signal()
    }
}

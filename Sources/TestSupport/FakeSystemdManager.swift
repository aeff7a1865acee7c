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
    private let askedCount = Locked(0)

    /// How many times `Environment` was asked for.
    public var asked: Int { askedCount.value }

    /// Serves `environment` (`NAME=value` strings) on `bus` until `stop()`; with `stallSeconds`,
    /// a manager that owns its name but takes that long to answer (a hung session manager).
    public init(bus: PrivateBus, environment: [String], stallSeconds: Double = 0) throws {
        connection = try bus.connect()
        let askedCount = self.askedCount
        let manager = DBusInterface(
            name: "org.freedesktop.systemd1.Manager", methods: [],
            properties: [DBusProperty("Environment", signature: "as", emitsChanged: false) {
                askedCount.value += 1
                if stallSeconds > 0 { Thread.sleep(forTimeInterval: stallSeconds) }
                return .stringArray(environment)
            }])
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

import DBus
import Launching
import RouterContract

/// Whether a click would reach openurld, checked before `openurl install` takes over: our
/// desktop entry must be installed, and when there is a session bus, D-Bus activation of
/// `io.github.openurld` must start (or find) the daemon. The handler (`Exec=openurl %u`, which
/// every app runs, GIO's included) reaches the daemon that way; without it every click would be
/// routed in-process, without asks in a window, `recent` or the guard (issue 10 case 6).
struct ActivationCheck {
    let paths: XDGPaths

    /// Why a click would be lost, or nil when the path works (or there is no bus, so GIO runs
    /// `Exec=openurl %u`, which routes in-process).
    func problem() -> String? {
        guard DesktopEntryDirectory(paths: paths).entry(id: Router1.desktopID) != nil else {
            return "\(Router1.desktopID) is not installed in \(paths.applicationDirs.joined(separator: ", ")) (run `make install`)"
        }
        guard let connection = try? DBusConnection.session() else { return nil }
        do {
            // Ping with auto-start: the bus starts the daemon from its service file if it is not running.
            _ = try connection.call(destination: Router1.busName, path: Router1.objectPath, interface: "org.freedesktop.DBus.Peer",
                                    method: "Ping", timeout: 10)
            return nil
        } catch let error as DBusError {
            return "D-Bus activation of \(Router1.busName) failed (\(error.name): \(error.message)); every click reaches the daemon through it. "
                + "Check \(paths.dataHome)/dbus-1/services/\(Router1.busName).service and that its Exec= runs"
        } catch {
            return "D-Bus activation of \(Router1.busName) failed: \(error)"
        }
    }
}

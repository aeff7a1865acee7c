import DBus
import Launching
import RouterContract

/// Whether a click from a GIO app would reach openurld, checked before `openurl install` takes
/// over: our desktop entry must be installed, and when there is a session bus, D-Bus activation
/// of `io.github.openurld` must start (or find) the daemon. Otherwise taking over the defaults
/// would lose every link `gio open` sends (issue 10 case 6).
struct ActivationCheck {
    let paths: XDGPaths

    /// Why a click would be lost, or nil when the path works (or there is no bus, so GIO runs
    /// `Exec=openurl %u`, which routes in-process).
    func problem() -> String? {
        guard let entry = DesktopEntryDirectory(paths: paths).entry(id: Router1.desktopID) else {
            return "\(Router1.desktopID) is not installed in \(paths.applicationDirs.joined(separator: ", ")) (run `make install`)"
        }
        guard entry.isDBusActivatable, let connection = try? DBusConnection.session() else { return nil }
        do {
            // Ping with auto-start: the bus starts the daemon from its service file if it is not running.
            _ = try connection.call(destination: Router1.busName, path: Router1.objectPath, interface: "org.freedesktop.DBus.Peer",
                                    method: "Ping", timeout: 10)
            return nil
        } catch let error as DBusError {
            return "D-Bus activation of \(Router1.busName) failed (\(error.name): \(error.message)); GIO apps call it for every link. "
                + "Check \(paths.dataHome)/dbus-1/services/\(Router1.busName).service and that its Exec= runs"
        } catch {
            return "D-Bus activation of \(Router1.busName) failed: \(error)"
        }
    }
}

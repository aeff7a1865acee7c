import Launching
import Platform
import RouterContract

/// Whose defaults a takeover changes.
public enum TakeoverScope: Sendable, Equatable {
    /// One user's: their `$XDG_CONFIG_HOME` and `$XDG_DATA_HOME` files.
    case user
    /// Every user's: the system files each desktop reads (`openurl install --system`, as root).
    case system
}

extension XDGPaths {
    /// The paths as the system's files: the first `$XDG_CONFIG_DIRS` directory (`/etc/xdg`) as
    /// the config home (its `mimeapps.list`, desktop lists, `xfce4/helpers.rc`, `kdeglobals`) and
    /// the first `$XDG_DATA_DIRS` directory (`/usr/local/share`) as the data home (XFCE's helper
    /// entries), so no file of the user running it (root) counts or changes.
    public var systemView: XDGPaths {
        var view = self
        view.configHome = configDirs.first ?? "/etc/xdg"
        view.dataHome = dataDirs.first ?? "/usr/local/share"
        return view
    }
}

extension DefaultHandlers {
    /// Why `install --system` would not reach openurld for every user: it must run as root, and
    /// openurld's desktop entry (and D-Bus service, for GIO apps and activation) must be installed
    /// in a system data directory, not only in root's home. Empty when it can go ahead.
    public static func systemInstallProblems(paths: XDGPaths, isRoot: Bool) -> [String] {
        var problems: [String] = []
        if !isRoot { problems.append("install --system changes files every user reads: run it as root (sudo openurl install --system)") }
        let applications = paths.dataDirs.map { $0 + "/applications/" + Router1.desktopID }
        if !applications.contains(where: FileSystem.exists) {
            problems.append("\(Router1.desktopID) is not installed system-wide (in none of \(paths.dataDirs.map { $0 + "/applications" }.joined(separator: ", "))): "
                            + "install openurld for every user first (the .deb, or make install PREFIX=/usr/local as root)")
        }
        let services = paths.dataDirs.map { $0 + "/dbus-1/services/" + Router1.busName + ".service" }
        if !services.contains(where: FileSystem.exists) {
            problems.append("\(Router1.busName).service is not installed system-wide (in none of \(paths.dataDirs.map { $0 + "/dbus-1/services" }.joined(separator: ", "))): "
                            + "GIO apps could not start openurld (install it with openurld, or pass --force)")
        }
        return problems
    }
}

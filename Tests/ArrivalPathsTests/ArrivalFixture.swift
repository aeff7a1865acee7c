import Foundation
import Launching

/// A scratch home with its own PATH of stand-in programs, for forecasts worked out from files.
final class ArrivalFixture {
    let root: String
    var home: String { root + "/home" }
    var bin: String { root + "/bin" }

    init(_ name: String, programs: [String] = ["openurl", "browser", "xdg-open", "gio", "xdg-email", "xdg-settings", "kde-open5", "exo-open", "python3", "sensible-browser"]) throws {
        root = NSTemporaryDirectory() + "openurld-arrival-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))"
        for directory in [bin, home + "/.config", home + "/.local/share/applications"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        for name in programs { try program(name, "#!/bin/sh\nexit 0\n") }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// An executable `name` on the fixture's PATH.
    func program(_ name: String, _ text: String) throws {
        try write("bin/" + name, text)
        chmod(bin + "/" + name, 0o755)
    }

    /// Writes `text` at `relative` under the root.
    func write(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// A desktop entry in the user's applications (GLib refuses one whose program is not on
    /// the test process's own PATH, so `exec` names a program by its path).
    func entry(_ id: String, exec: String) throws {
        try write("home/.local/share/applications/" + id,
                  "[Desktop Entry]\nType=Application\nName=\(id)\nExec=\(exec)\nMimeType=x-scheme-handler/https;x-scheme-handler/mailto;\n")
    }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ["HOME": home, "PATH": bin, "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share",
                           "XDG_DATA_DIRS": root + "/share", "XDG_CONFIG_DIRS": root + "/etc-xdg", "DISPLAY": ":99"]
        for (key, value) in extra { environment[key] = value }
        return environment
    }
}

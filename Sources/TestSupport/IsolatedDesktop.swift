import Foundation

/// A throwaway desktop environment for tests: a temporary HOME with its own XDG config, data,
/// state and runtime directories, so real tools (`xdg-open`, `xdg-mime`, `gio`) see only what the
/// test put there and never the user's session.
public final class IsolatedDesktop: @unchecked Sendable {
    /// The temporary root; removed on deinit.
    public let root: String
    /// `$HOME`.
    public var home: String { root + "/home" }
    /// `$XDG_CONFIG_HOME`.
    public var configHome: String { root + "/config" }
    /// `$XDG_DATA_HOME`.
    public var dataHome: String { root + "/data" }
    /// The single system data dir (`$XDG_DATA_DIRS`).
    public var dataDir: String { root + "/system-data" }
    /// `$XDG_STATE_HOME`.
    public var stateHome: String { root + "/state" }
    /// `$XDG_RUNTIME_DIR` (mode 0700).
    public var runtimeDir: String { root + "/runtime" }
    /// `$XDG_DATA_HOME/applications`, where `writeDesktopEntry` puts entries.
    public var applicationsDir: String { dataHome + "/applications" }

    /// Creates the directory tree under a fresh temporary directory.
    public init(name: String = "desktop") throws {
        let template = NSTemporaryDirectory() + "openurld-\(name)-XXXXXX"
        var buffer = Array(template.utf8CString)
        guard let made = mkdtemp(&buffer) else { throw CocoaError(.fileWriteUnknown) }
        root = String(cString: made)
        for dir in [home, configHome, dataHome + "/applications", dataDir + "/applications", stateHome, runtimeDir] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        chmod(runtimeDir, 0o700)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// A minimal environment pointing every XDG variable into the sandbox; `DISPLAY` is set
    /// (no server needed) because `xdg-open` only consults desktop entries when it is.
    /// `XDG_CURRENT_DESKTOP` is left unset so `xdg-open`/`xdg-mime` use their generic code path.
    /// Sanitizer and backtrace settings pass through (`make test-sanitize` sets them), so the
    /// daemons and tools a test starts run as configured.
    public var environment: [String: String] {
        var passed: [String: String] = [:]
        for key in ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "SWIFT_BACKTRACE"] {
            if let value = ProcessInfo.processInfo.environment[key] { passed[key] = value }
        }
        return passed.merging([
            "HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "XDG_CONFIG_HOME": configHome, "XDG_CONFIG_DIRS": root + "/etc-xdg",
            "XDG_DATA_HOME": dataHome, "XDG_DATA_DIRS": dataDir,
            "XDG_STATE_HOME": stateHome, "XDG_RUNTIME_DIR": runtimeDir, "DISPLAY": ":99", "LANG": "C.UTF-8",
        ]) { $1 }
    }

    /// Writes `applications/ID` under `$XDG_DATA_HOME` (or the system data dir) and returns its path.
    @discardableResult
    public func writeDesktopEntry(id: String, contents: String, system: Bool = false) throws -> String {
        let path = (system ? dataDir : dataHome) + "/applications/" + id
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A desktop entry's text with the usual keys; `extra` lines are appended verbatim.
    public static func desktopEntry(name: String, exec: String, mimeTypes: [String] = [], extra: String = "") -> String {
        var text = "[Desktop Entry]\nType=Application\nName=\(name)\nExec=\(exec)\n"
        if !mimeTypes.isEmpty { text += "MimeType=" + mimeTypes.map { $0 + ";" }.joined() + "\n" }
        return text + extra
    }
}

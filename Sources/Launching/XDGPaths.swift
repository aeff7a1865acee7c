import Platform

/// The XDG Base Directory locations openurld uses, computed from an environment dictionary.
///
/// Every value follows the XDG Base Directory Specification: a variable that is unset, empty or
/// not absolute is ignored and the spec default (under `HOME`) is used instead.
public struct XDGPaths: Sendable, Equatable {
    /// The user's home directory (`HOME`).
    public var home: String
    /// `$XDG_CONFIG_HOME`, default `~/.config`.
    public var configHome: String
    /// `$XDG_CONFIG_DIRS`, default `/etc/xdg`.
    public var configDirs: [String]
    /// `$XDG_DATA_HOME`, default `~/.local/share`.
    public var dataHome: String
    /// `$XDG_DATA_DIRS`, default `/usr/local/share:/usr/share`.
    public var dataDirs: [String]
    /// `$XDG_STATE_HOME`, default `~/.local/state`.
    public var stateHome: String
    /// `$XDG_CACHE_HOME` (default `~/.cache`): what can be made again (compiled block lists).
    public var cacheHome: String
    /// `$XDG_RUNTIME_DIR`; nil when unset (the spec gives no default).
    public var runtimeDir: String?
    /// `$XDG_CURRENT_DESKTOP` split on `:`, lowercased (as used for `NAME-mimeapps.list`).
    public var currentDesktops: [String]
    /// Where system-wide Flatpak and Snap export their desktop entries (tests point these elsewhere).
    public var systemExportDirs = ["/var/lib/flatpak/exports/share/applications", "/var/lib/snapd/desktop/applications"]

    /// Reads the paths from `environment` (the process environment by default).
    public init(environment: [String: String] = Environment.current()) {
        func absolute(_ key: String) -> String? {
            guard let value = environment[key], value.hasPrefix("/") else { return nil }
            return value
        }
        func list(_ key: String, default fallback: [String]) -> [String] {
            let items = (environment[key] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
            return items.isEmpty ? fallback : items
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Environment.homeDirectory()
        self.home = home
        configHome = absolute("XDG_CONFIG_HOME") ?? home + "/.config"
        configDirs = list("XDG_CONFIG_DIRS", default: ["/etc/xdg"])
        dataHome = absolute("XDG_DATA_HOME") ?? home + "/.local/share"
        dataDirs = list("XDG_DATA_DIRS", default: ["/usr/local/share", "/usr/share"])
        stateHome = absolute("XDG_STATE_HOME") ?? home + "/.local/state"
        cacheHome = absolute("XDG_CACHE_HOME") ?? home + "/.cache"
        runtimeDir = absolute("XDG_RUNTIME_DIR")
        currentDesktops = (environment["XDG_CURRENT_DESKTOP"] ?? "")
            .split(separator: ":").map { $0.lowercased() }.filter { !$0.isEmpty }
    }

    /// `$XDG_CONFIG_HOME/openurld/config.toml`.
    public var configFile: String { configHome + "/openurld/config.toml" }
    /// `$XDG_STATE_HOME/openurld/` (with the trailing slash).
    public var stateDirectory: String { stateHome + "/openurld/" }
    /// The user's own `mimeapps.list`, the one `openurl install` edits: `$XDG_CONFIG_HOME/mimeapps.list`.
    public var userMimeappsList: String { configHome + "/mimeapps.list" }

    /// Directories holding desktop entries, most important first: `$XDG_DATA_HOME/applications`
    /// then each `$XDG_DATA_DIRS/applications`.
    public var applicationDirs: [String] { ([dataHome] + dataDirs).map { $0 + "/applications" } }

    /// Flatpak (per user, then system) and Snap entry directories, searched after
    /// `applicationDirs` so their apps are found even when the session's `XDG_DATA_DIRS` lacks them.
    public var exportedApplicationDirs: [String] {
        ([dataHome + "/flatpak/exports/share/applications"] + systemExportDirs).filter { !applicationDirs.contains($0) }
    }

    /// Every `mimeapps.list` in the order the spec consults them, desktop-specific files first
    /// within each directory.
    public var mimeappsListFiles: [String] {
        let dirs = [configHome] + configDirs + applicationDirs
        return dirs.flatMap { dir in
            currentDesktops.map { "\(dir)/\($0)-mimeapps.list" } + ["\(dir)/mimeapps.list"]
        }
    }
}

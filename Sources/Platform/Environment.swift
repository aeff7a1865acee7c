/// The process environment and identity.
public enum Environment {
    /// Every variable, as ProcessInfo's `environment` gave them (the first of duplicates wins).
    public static func current() -> [String: String] { Sys.environment() }

    /// One variable, or nil when unset.
    public static func value(_ name: String) -> String? { Sys.getenv(name) }

    /// This process's id.
    public static var processID: Int32 { Sys.processID() }
    /// Whether this process runs as root (effective user id 0).
    public static var isRoot: Bool { Sys.effectiveUserID() == 0 }

    /// Whether `environment` names a display a window can appear on (`DISPLAY` or `WAYLAND_DISPLAY`).
    public static func hasDisplay(_ environment: [String: String]) -> Bool {
        !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }
    /// This process's real user id (getuid).
    public static var userID: UInt32 { Sys.realUserID() }
    /// This machine's host name (gethostname), empty when it cannot be read.
    public static var hostName: String { Sys.hostName() }

    /// Sets the variable `name` for this process and the children it starts after; with
    /// `overwriting` false a value already set (by the user) wins.
    public static func set(_ name: String, _ value: String, overwriting: Bool = true) {
        Sys.setenv(name, value, overwriting: overwriting)
    }

    /// `$HOME` when set and not empty, else the password database's home directory, else "/".
    public static func homeDirectory(_ environment: [String: String]? = nil) -> String {
        let home = environment.map { $0["HOME"] } ?? value("HOME")
        if let home, !home.isEmpty { return home }
        return Sys.passwordHome() ?? "/"
    }
}

/// The process's command line.
public enum ProcessArguments {
    /// argv, program name first. Swift's `CommandLine.arguments` comes out empty under some
    /// `LD_PRELOAD` libraries (libfaketime: the binary then said it was run as ""), so the
    /// kernel's copy in `/proc/self/cmdline` stands in for it.
    public static var current: [String] {
        let given = CommandLine.arguments
        if let first = given.first, !first.isEmpty { return given }
        guard let bytes = FileSystem.contents("/proc/self/cmdline"), !bytes.isEmpty else { return given }
        var fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if fields.last == "" { fields.removeLast() }
        return fields.isEmpty ? given : fields
    }
}

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

    /// `$HOME` when set and not empty, else the password database's home directory, else "/".
    public static func homeDirectory(_ environment: [String: String]? = nil) -> String {
        let home = environment.map { $0["HOME"] } ?? value("HOME")
        if let home, !home.isEmpty { return home }
        return Sys.passwordHome() ?? "/"
    }
}

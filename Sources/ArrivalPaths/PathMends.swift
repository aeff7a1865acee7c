import DesktopDefaults
import Launching
import Platform

/// What `openurl doctor --fix` may change for one user, worked out from the paths that go
/// around openurld: a per-user `x-www-browser` and `sensible-browser` on a PATH directory of
/// theirs before `/usr/bin`, and `BROWSER=openurl` in `~/.config/environment.d/`. Each is a whole
/// file, written and recorded by `DefaultHandlers.mend` so `openurl uninstall` removes it.
public struct PathMends {
    /// The wrappers to write (programs: mode 0755).
    public var wrappers: [TakeoverFile] = []
    /// The `environment.d` entry that sets `$BROWSER`, when it points elsewhere.
    public var environmentEntry: TakeoverFile?
    /// Every file to write.
    public var files: [TakeoverFile] { wrappers + (environmentEntry.map { [$0] } ?? []) }
    /// What a person must do that no file here can (a PATH without a directory of theirs first,
    /// a shell file that sets `$BROWSER` after the session's environment).
    public var advice: [String] = []

    /// The first line of what `--fix` writes (after `#!` in a wrapper): how a wrapper is known as ours again.
    static let marker = "# openurld: written by `openurl doctor --fix`; `openurl uninstall` removes it."
    /// The environment.d file; sorted late, so it wins over the user's own files there.
    public static let environmentFile = "environment.d/90-openurld-browser.conf"

    /// Whether the file at `path` is a wrapper `openurl doctor --fix` wrote.
    public static func isOurWrapper(_ path: String) -> Bool {
        guard FileSystem.isRegularFile(path), let text = FileSystem.utf8Text(path), text.utf8.count < 4096 else { return false }
        return text.containsText(marker)
    }

    /// A wrapper that hands its arguments to `openurl`.
    static func wrapper(_ name: String, openurl: String) -> String {
        "#!/bin/sh\n\(marker)\n# \(name) for this user: every link goes to openurld.\nexec \(openurl) \"$@\"\n"
    }

    /// The first PATH directory before `/usr/bin` (and `/bin`) that the user owns (or
    /// `~/.local/bin` or `~/bin`, made when missing).
    public static func userDirectoryBeforeSystem(environment: [String: String], home: String, userID: UInt32) -> String? {
        for directory in (environment["PATH"] ?? "").split(separator: ":").map(String.init) {
            if ["/usr/bin", "/bin", "/usr/local/bin", "/usr/sbin", "/sbin"].contains(directory) { return nil }
            guard directory.hasPrefix(home + "/") else { continue }
            if let status = try? FileSystem.status(directory) {
                if status.kind == .directory, status.owner == userID { return directory }
            } else if directory == home + "/.local/bin" || directory == home + "/bin" {
                return directory
            }
        }
        return nil
    }

    /// The mends for `rows` (as `LinkArrivals` forecasts them), writing wrappers that run `openurl`.
    public init(rows: [ArrivalPath], paths: XDGPaths, environment: [String: String], openurl: String, userID: UInt32) {
        func goesAround(_ name: String) -> Bool {
            guard let row = rows.first(where: { $0.name == name }), case .goesAround = row.forecast else { return false }
            return true
        }
        let wrappers = ["x-www-browser", "sensible-browser"].filter(goesAround)
        if !wrappers.isEmpty {
            if let directory = Self.userDirectoryBeforeSystem(environment: environment, home: paths.home, userID: userID) {
                self.wrappers = wrappers.map { TakeoverFile(path: directory + "/" + $0, content: Self.wrapper($0, openurl: openurl)) }
            } else {
                advice.append("no directory of yours comes before /usr/bin on PATH, so no x-www-browser of yours can be found first: "
                              + "add `export PATH=\"$HOME/.local/bin:$PATH\"` to ~/.profile (Debian's does when ~/.local/bin exists at login), "
                              + "then run openurl doctor --fix again")
            }
        }
        if let row = rows.first(where: { $0.name == "$BROWSER" }), case .goesAround = row.forecast {
            environmentEntry = TakeoverFile(path: paths.configHome + "/" + Self.environmentFile, content: "\(Self.marker)\nBROWSER=\(openurl)\n")
            let shells = BrowserVariable.sources(paths: paths).filter { !$0.file.containsText("/environment.d/") && $0.file != "/etc/environment" }
            if !shells.isEmpty {
                advice.append("$BROWSER is also set in \(BrowserVariable.locations(shells)), which shells read after the session's environment: "
                              + "change it there to BROWSER=openurl (or remove it)")
            }
        }
    }
}

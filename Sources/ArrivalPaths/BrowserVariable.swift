import Launching
import Platform

/// Where `$BROWSER` is set: the files a session, a login shell or an interactive shell reads,
/// each line that assigns it (`BROWSER=`, `export BROWSER=`, fish's `set -gx BROWSER`).
public enum BrowserVariable {
    /// One assignment.
    public struct Source: Sendable, Equatable {
        /// The file.
        public var file: String
        /// Its 1-based line.
        public var line: Int
        /// The value as written (quotes and all).
        public var value: String
    }

    /// The files read, in the order a login reads them: systemd's environment.d (the graphical
    /// session's environment), /etc/environment, the profiles, then the shells' rc files.
    public static func files(paths: XDGPaths) -> [String] {
        let home = paths.home
        func conf(_ directory: String, suffix: String) -> [String] {
            ((try? FileSystem.listDirectory(directory)) ?? []).filter { $0.hasSuffix(suffix) }.sorted().map { directory + "/" + $0 }
        }
        return conf("/etc/environment.d", suffix: ".conf") + conf(paths.configHome + "/environment.d", suffix: ".conf")
            + ["/etc/environment", "/etc/profile"] + conf("/etc/profile.d", suffix: ".sh")
            + ["/etc/bash.bashrc", home + "/.profile", home + "/.bash_profile", home + "/.bash_login", home + "/.bashrc",
               home + "/.zshenv", home + "/.zprofile", home + "/.zshrc", paths.configHome + "/fish/config.fish"]
    }

    /// Every assignment of `BROWSER` in those files.
    public static func sources(paths: XDGPaths) -> [Source] {
        var found: [Source] = []
        for file in files(paths: paths) {
            guard let text = FileSystem.utf8Text(file) else { continue }
            for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if let value = assignment(String(raw).trimmingWhitespace()) { found.append(Source(file: file, line: index + 1, value: value)) }
            }
        }
        return found
    }

    /// The value a line gives `BROWSER`, nil when it gives none (a comment, another variable).
    static func assignment(_ line: String) -> String? {
        var rest = Substring(line)
        if rest.hasPrefix("#") { return nil }
        for prefix in ["export ", "declare -x ", "setenv "] where rest.hasPrefix(prefix) { rest = rest.dropFirst(prefix.count) }
        for prefix in ["set -gx ", "set -Ux ", "set -x "] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            guard rest.hasPrefix("BROWSER ") else { return nil }
            return String(rest.dropFirst("BROWSER ".count)).trimmingWhitespace()
        }
        guard rest.hasPrefix("BROWSER=") else { return nil }
        return String(rest.dropFirst("BROWSER=".count))
    }

    /// The words of `$BROWSER`'s first entry (entries are `:`-separated and tried in turn; `%s`
    /// stands for the link): what sensible-browser, xdg-open and Python run first.
    public static func firstCommand(_ value: String) -> [String] {
        (value.split(separator: ":").first { !$0.isEmpty }.map(String.init) ?? "").split(separator: " ").map(String.init)
    }

    /// ` (set in FILE:LINE, ...)`, or empty when no file sets it.
    public static func whereSet(_ sources: [Source]) -> String {
        sources.isEmpty ? "" : " (set in " + locations(sources) + ")"
    }

    /// `FILE:LINE, FILE:LINE`.
    public static func locations(_ sources: [Source]) -> String {
        sources.map { "\($0.file):\($0.line)" }.joined(separator: ", ")
    }
}

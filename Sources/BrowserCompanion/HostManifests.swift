import JSON
import Platform

/// Where Firefox and Chromium read the companion host's manifest (`io.github.openurld.json`)
/// and what the first one found names, for `openurl status`.
public enum HostManifests {
    /// The file name every browser looks for.
    public static let fileName = "io.github.openurld.json"

    /// One browser's manifest, as found.
    public struct Finding: Sendable, Equatable {
        /// `Firefox` or `Chromium`.
        public var browser: String
        /// The manifest read (the user's before the system's), or where `make install` puts the user's when none is.
        public var path: String
        /// Whether a manifest is there.
        public var installed: Bool
        /// The host it names (`path`), nil when none is named.
        public var host: String?
        /// What is wrong with it, nil when it names a host that can run.
        public var problem: String?
    }

    /// The manifests each browser would read, for a user whose home and config directory these are.
    public static func find(home: String, configHome: String, systemRoot: String = "") -> [Finding] {
        [finding("Firefox", user: home + "/.mozilla/native-messaging-hosts/" + fileName,
                 system: systemRoot + "/usr/lib/mozilla/native-messaging-hosts/" + fileName),
         finding("Chromium", user: configHome + "/chromium/NativeMessagingHosts/" + fileName,
                 system: systemRoot + "/etc/chromium/native-messaging-hosts/" + fileName)]
    }

    private static func finding(_ browser: String, user: String, system: String) -> Finding {
        guard let path = [user, system].first(where: { FileSystem.exists($0) }) else {
            return Finding(browser: browser, path: user, installed: false, host: nil, problem: nil)
        }
        guard let bytes = FileSystem.contents(path), let manifest = try? JSONValue(parsing: bytes) else {
            return Finding(browser: browser, path: path, installed: true, host: nil, problem: "not a JSON manifest")
        }
        guard let host = manifest["path"]?.string, host.hasPrefix("/") else {
            return Finding(browser: browser, path: path, installed: true, host: nil, problem: "names no host by absolute path")
        }
        let problem = FileSystem.isExecutable(host) ? nil : "names \(host), which is not an executable file"
        return Finding(browser: browser, path: path, installed: true, host: host, problem: problem)
    }
}

import Catalog
import Platform

/// The browser a native-messaging host serves: its parent process, which browsers start their
/// hosts from, and the profile that process has open when it can be told.
public struct HostBrowser: Sendable, Equatable {
    /// The browser process's id.
    public var pid: Int32
    /// Its program's name (`firefox-esr`, `chromium`).
    public var program: String
    /// The known browser it is (`firefox`, `chromium`), nil for another.
    public var key: String?
    /// Firefox family: the profile's directory; Chromium family: the profile's directory name
    /// under the user data directory (`Default`, `Work`). Nil when it cannot be told (a Chromium
    /// with several profiles open, until the extension's hello names its instance).
    public var profile: String?
    /// Chromium family: the user data directory.
    public var userData: String?

    /// A browser as described.
    public init(pid: Int32, program: String, key: String?, profile: String?, userData: String? = nil) {
        self.pid = pid
        self.program = program
        self.key = key
        self.profile = profile
        self.userData = userData
    }

    /// The Chromium profile whose storage for extension `extensionID` holds `instance` (the random
    /// id the companion keeps in `storage.local`, which LevelDB writes in plain bytes to
    /// `PROFILE/Local Extension Settings/ID/*.log`); nil unless exactly one does.
    public static func chromiumProfile(holding instance: String, extensionID: String, userData: String) -> String? {
        let needle = Array(instance.utf8)
        guard needle.count >= 8, !extensionID.contains("/"), !extensionID.isEmpty else { return nil }
        var holders: [String] = []
        for profile in (try? FileSystem.listDirectory(userData)) ?? [] {
            let storage = userData + "/" + profile + "/Local Extension Settings/" + extensionID
            let files = ((try? FileSystem.listDirectory(storage)) ?? []).filter { $0.hasSuffix(".log") || $0.hasSuffix(".ldb") }
            if files.contains(where: { contains(FileSystem.contents(storage + "/" + $0) ?? [], needle) }) { holders.append(profile) }
        }
        return holders.count == 1 ? holders[0] : nil
    }

    /// Whether `bytes` holds `needle` anywhere.
    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// The known browser a desktop id or program name (`firefox-esr.desktop`, `chromium`) names,
    /// as discovery identifies a native entry (`KnownBrowser.identify`).
    public static func knownKey(_ name: String) -> String? { known(name)?.key }

    private static func known(_ name: String) -> KnownBrowser? {
        KnownBrowser.identify(desktopID: name, program: nil, packaging: .native)
    }

    /// Reads the browser `pid` from `/proc` (`procRoot` in tests); `environment` gives the
    /// Chromium family's default user data directory.
    public static func read(pid: Int32, procRoot: String = "/proc", environment: [String: String]) -> HostBrowser {
        let base = procRoot + "/\(pid)"
        let arguments = (FileSystem.contents(base + "/cmdline") ?? []).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let exe = (try? FileSystem.symbolicLinkTarget(base + "/exe")) ?? arguments.first ?? ""
        var program = Path.lastComponent(exe)
        // Firefox's binary keeps the package's name; a `-bin` wrapper target is the same browser.
        if program.hasSuffix("-bin") { program = String(program.dropLast(4)) }
        let browser = known(program) ?? arguments.first.flatMap { known(Path.lastComponent($0)) }
        let openFiles = ((try? FileSystem.listDirectory(base + "/fd")) ?? []).compactMap { try? FileSystem.symbolicLinkTarget(base + "/fd/" + $0) }
        switch browser?.family {
        case .firefox?:
            let profile = Self.argument(after: ["--profile", "-profile"], in: arguments)
                ?? openFiles.first { $0.hasSuffix("/.parentlock") }.map { Path.parent($0) }
            return HostBrowser(pid: pid, program: program, key: browser?.key, profile: profile)
        case .chromium?:
            // Where discovery reads the same browser's profiles: $CHROME_CONFIG_HOME (else
            // $XDG_CONFIG_HOME) with the browser's own directory, unless the process names one.
            func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
            let configHome = variable("CHROME_CONFIG_HOME") ?? variable("XDG_CONFIG_HOME") ?? Environment.homeDirectory(environment) + "/.config"
            let userData = arguments.lazy.compactMap { $0.hasPrefix("--user-data-dir=") ? String($0.dropFirst(16)) : nil }.first
                ?? browser.map { $0.profileDirectories(packaging: .native, home: Environment.homeDirectory(environment), configHome: configHome).legacy }
                ?? configHome + "/chromium"
            return HostBrowser(pid: pid, program: program, key: browser?.key, profile: Self.onlyProfile(openFiles: openFiles, userData: userData),
                               userData: userData)
        default:
            return HostBrowser(pid: pid, program: program, key: browser?.key, profile: nil)
        }
    }

    /// The value after one of `names` (`--profile DIR`), or in `--profile=DIR`.
    static func argument(after names: [String], in arguments: [String]) -> String? {
        for (index, word) in arguments.enumerated() {
            for name in names {
                if word == name, index + 1 < arguments.count { return arguments[index + 1] }
                if word.hasPrefix(name + "=") { return String(word.dropFirst(name.count + 1)) }
            }
        }
        return nil
    }

    /// The one profile directory under `userData` the browser has files open in; nil for none
    /// or several (one Chromium process serves every open profile).
    static func onlyProfile(openFiles: [String], userData: String) -> String? {
        let prefix = userData.hasSuffix("/") ? userData : userData + "/"
        var profiles = Set<String>()
        for file in openFiles where file.hasPrefix(prefix) {
            let rest = file.dropFirst(prefix.count)
            // Files directly in the user data directory (Local State) belong to no profile.
            guard let slash = rest.firstIndex(of: "/") else { continue }
            let name = String(rest[..<slash])
            if FileSystem.isRegularFile(prefix + name + "/Preferences") { profiles.insert(name) }
        }
        return profiles.count == 1 ? profiles.first : nil
    }
}

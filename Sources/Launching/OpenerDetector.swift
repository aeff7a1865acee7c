import Platform
import RoutingCore

/// The app a link came from.
public struct OpenerProcess: Sendable, Equatable {
    /// The process that counts as the opener (the first one that is not a launcher or shell).
    public var pid: Int32
    /// Its name (`comm`, or argv[0]'s basename when `comm` was truncated to 15 bytes).
    public var processName: String?
    /// The application id from its systemd scope (`app-gnome-org.gnome.Evolution-1234.scope` →
    /// `org.gnome.Evolution`), without `.desktop`, with `\x2d` escapes decoded.
    public var desktopID: String?
    /// Its Flatpak application id (`[Application] name=` in `/proc/PID/root/.flatpak-info`, or
    /// the `app-flatpak-ID-N.scope` it runs in).
    public var flatpakID: String?
    /// Its Snap name (the `snap.NAME.APP-….scope` it runs in).
    public var snapID: String?

    /// Creates an opener description.
    public init(pid: Int32, processName: String? = nil, desktopID: String? = nil, flatpakID: String? = nil, snapID: String? = nil) {
        self.pid = pid
        self.processName = processName
        self.desktopID = desktopID
        self.flatpakID = flatpakID
        self.snapID = snapID
    }
}

/// Finds which app opened a link by walking a process's ancestry in `/proc`, past the launchers
/// and shells between the app and us.
public struct OpenerDetector: Sendable {
    /// Process names that only pass a link along; the walk continues to their parent.
    public static let intermediaries: Set<String> = [
        "xdg-open", "gio", "gio-launch-desktop", "sh", "bash", "dash", "zsh", "fish", "flatpak-spawn", "env",
        "openurl", "kde-open", "kde-open5", "exo-open",
    ]

    /// The proc filesystem root (a fake tree in tests).
    public var procRoot: String

    /// Reads process information under `procRoot`.
    public init(procRoot: String = "/proc") { self.procRoot = procRoot }

    /// The first non-intermediary process from `pid` upwards (pid itself if it is not one).
    /// When every ancestor is an intermediary, the result carries `pid` and no names.
    public func detect(pid: Int32) -> OpenerProcess {
        var current = pid
        var visited: Set<Int32> = []
        while current > 1, !visited.contains(current), let stat = readStat(current) {
            visited.insert(current)
            let name = processName(current, comm: stat.comm)
            if !Self.intermediaries.contains(name) {
                let units = cgroupUnits(current)
                let sandboxFlatpak = units.lazy.compactMap(Self.flatpakID(fromUnit:)).first
                return OpenerProcess(pid: current, processName: name, desktopID: units.lazy.compactMap(Self.appID(fromUnit:)).first,
                                     flatpakID: flatpakID(current) ?? sandboxFlatpak,
                                     snapID: units.lazy.compactMap(Self.snapName(fromUnit:)).first)
            }
            current = stat.parent
        }
        return OpenerProcess(pid: pid)
    }

    /// `comm` and the parent pid from `/proc/PID/stat`; `comm` may itself contain spaces and `)`.
    func readStat(_ pid: Int32) -> (comm: String, parent: Int32)? {
        guard let text = read("\(pid)/stat"), let open = text.firstIndex(of: "("),
              let close = text.lastIndex(of: ")") else { return nil }
        let comm = String(text[text.index(after: open)..<close])
        let rest = text[text.index(after: close)...].split(separator: " ")
        guard rest.count >= 2, let parent = Int32(rest[1]) else { return nil }
        return (comm, parent)
    }

    /// `comm` is cut to 15 bytes (`gio-launch-desk`); argv[0]'s basename gives the full name when
    /// it starts with `comm`. Scripts have the script's name as `comm` (`xdg-open`), which we keep.
    func processName(_ pid: Int32, comm: String) -> String {
        guard comm.utf8.count >= 15, let cmdline = read("\(pid)/cmdline"),
              let argv0 = cmdline.split(separator: "\0").first else { return comm }
        let base = Path.lastComponent(String(argv0))
        return base.hasPrefix(comm) ? base : comm
    }

    /// The application id of a systemd app unit the process runs in, per the XDG/systemd naming
    /// `app[-LAUNCHER]-APPID-RANDOM.scope` or `app[-LAUNCHER]-APPID[@RANDOM].service`.
    func scopeAppID(_ pid: Int32) -> String? {
        cgroupUnits(pid).lazy.compactMap(Self.appID(fromUnit:)).first
    }

    /// The units of the process's cgroup paths, innermost first.
    func cgroupUnits(_ pid: Int32) -> [String] {
        guard let text = read("\(pid)/cgroup") else { return [] }
        var units: [String] = []
        for line in text.split(separator: "\n") {
            guard let path = line.split(separator: ":", maxSplits: 2).last else { continue }
            units += path.split(separator: "/").reversed().map(String.init)
        }
        return units
    }

    /// The Flatpak app id of `app-flatpak-ID-N.scope` (Flatpak 1.12 and later), else nil.
    static func flatpakID(fromUnit unit: String) -> String? {
        guard unit.hasPrefix("app-flatpak-"), unit.hasSuffix(".scope") else { return nil }
        let body = unit.dropFirst("app-flatpak-".count).dropLast(".scope".count)
        guard let dash = body.lastIndex(of: "-"), dash != body.startIndex else { return nil }
        return unescape(String(body[..<dash]))
    }

    /// The Snap name of `snap.NAME.APP-UUID.scope` (or `snap.NAME.APP.service`), else nil.
    static func snapName(fromUnit unit: String) -> String? {
        guard unit.hasPrefix("snap."), unit.hasSuffix(".scope") || unit.hasSuffix(".service") else { return nil }
        let parts = unit.dropFirst(5).split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        return String(parts[0])
    }

    /// Parses one unit name; nil when it is not an app unit.
    static func appID(fromUnit unit: String) -> String? {
        guard unit.hasPrefix("app-") else { return nil }
        var body = String(unit.dropFirst(4))
        var parts: [Substring]
        if body.hasSuffix(".scope") {
            body.removeLast(6)
            parts = body.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count >= 2 else { return nil }
            parts.removeLast()  // the random suffix
        } else if body.hasSuffix(".service") {
            body.removeLast(8)
            if let at = body.firstIndex(of: "@") { body = String(body[..<at]) }
            parts = body.split(separator: "-", omittingEmptySubsequences: false)
        } else {
            return nil
        }
        // Dashes inside the id are escaped as \x2d, so what is left is [launcher, id] or [id].
        guard let last = parts.last, !last.isEmpty, parts.count <= 2 else { return nil }
        return unescape(String(last))
    }

    /// Decodes systemd's `\xNN` escapes.
    static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.first {
            if byte == UInt8(ascii: "\\"), utf8.count >= 4, utf8.dropFirst().first == UInt8(ascii: "x"),
               let value = UInt8(String(decoding: utf8.dropFirst(2).prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(4)
            } else {
                bytes.append(byte)
                utf8 = utf8.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The Flatpak app id from the sandbox's `.flatpak-info` (readable through `/proc/PID/root`).
    func flatpakID(_ pid: Int32) -> String? {
        guard let text = read("\(pid)/root/.flatpak-info") else { return nil }
        var inApplication = false
        for line in text.split(separator: "\n") {
            let trimmed = String(line).trimmingWhitespace()
            if trimmed.hasPrefix("[") { inApplication = trimmed == "[Application]"; continue }
            if inApplication, MimeAppsList.key(of: trimmed) == "name",
               let equals = trimmed.firstIndex(of: "=") {
                let value = String(trimmed[trimmed.index(after: equals)...]).trimmingWhitespace()
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }

    private func read(_ relative: String) -> String? {
        guard let data = FileSystem.contents(procRoot + "/" + relative) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

extension OpenerProcess {
    /// The names the rule engine's `match.opener` sees.
    public var routingOpener: RoutingCore.Opener {
        RoutingCore.Opener(desktopID: desktopID, flatpakID: flatpakID, processName: processName, snapID: snapID)
    }
}

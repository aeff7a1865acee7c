import DesktopDefaults
import Launching
import Platform

/// Reads what each tool reads to choose a program for a link, as that tool does: mimeapps.list
/// (with a desktop's own lists), KDE's `BrowserApplication`, XFCE's helpers, Debian's
/// alternatives, `$BROWSER` and `PATH`.
struct ArrivalReader {
    var paths: XDGPaths
    var environment: [String: String]

    static let ours = DefaultHandlers.ourDesktopID
    /// Program names that are openurld's own handler.
    static let ourPrograms: Set<String> = ["openurl", "openurld", "openurl-tool"]

    var hasDisplay: Bool { Environment.hasDisplay(environment) }

    func resolve(_ program: String) -> String? { ProcessLauncher.resolve(program, environment: environment) }

    /// Whether `program` (a name looked up on PATH, or a path) runs openurld's handler: it is
    /// `openurl` itself, a link to it, or a wrapper `openurl doctor --fix` wrote.
    func isOurs(_ program: String) -> Bool {
        guard let path = resolve(program) else { return false }
        let real = (try? FileSystem.resolvingSymbolicLinks(path)) ?? path
        if Self.ourPrograms.contains(Path.lastComponent(real)) || Self.ourPrograms.contains(Path.lastComponent(path)) { return true }
        return PathMends.isOurWrapper(path)
    }

    /// What `path` runs once Debian's alternatives are followed: the alternative's choice (a
    /// link through `/etc/alternatives`), and its name; `path` itself for any other program.
    func finalProgram(_ path: String) -> (program: String, alternative: String?) {
        var current = path
        for _ in 0..<8 {
            guard let target = try? FileSystem.symbolicLinkTarget(current) else { break }
            let next = Path.resolving(target, besides: current)
            if Path.parent(next) == "/etc/alternatives" {
                let value = (try? FileSystem.symbolicLinkTarget(next)).map { Path.resolving($0, besides: next) } ?? next
                return (value, Path.lastComponent(next))
            }
            current = next
        }
        return (path, nil)
    }

    /// What running `program` does: reaches openurld, or runs another program (named as the
    /// alternative that picked it, when one did).
    func programForecast(_ program: String, why: String, package: String = "") -> ArrivalForecast {
        guard let path = resolve(program) else {
            return package.isEmpty ? .fails("\(why), but \(program) is not installed") : .notInstalled(package: package)
        }
        if isOurs(path) { return .reaches("\(why): \(path) runs openurl") }
        let (final, alternative) = finalProgram(path)
        if let alternative {
            return .goesAround(program: final, why: "\(why); the Debian alternative \(alternative) points at \(final)\(alternativeMode(alternative))")
        }
        return .goesAround(program: final, why: why)
    }

    /// ` (auto: …)` or ` (chosen by hand)`, as `update-alternatives --query` tells it.
    func alternativeMode(_ name: String) -> String {
        guard let state = BrowserAlternatives.query(name, environment: environment) else { return "" }
        return state.manual ? " (chosen by hand)" : " (auto: the highest priority wins)"
    }

    /// The mimeapps.list default for `type` on `desktops` and the entry's program.
    func mimeForecast(_ type: String, desktops: [String]) -> ArrivalForecast? {
        var view = paths
        view.currentDesktops = desktops
        guard let (id, file) = DefaultHandlers(paths: view).currentDefaultAndFile(for: type) else { return nil }
        return entryForecast(id, why: "\(id) is the default for \(type) in \(file)")
    }

    /// What opening a link with desktop entry `id` runs.
    func entryForecast(_ id: String, why: String) -> ArrivalForecast {
        if id == Self.ours { return .reaches(why) }
        let entry = DesktopEntryDirectory(paths: paths).entry(id: id)
        let program = entry?.exec.flatMap { try? ExecLine.tokenize($0, entry: id) }?.first ?? id
        if isOurs(program) { return .reaches(why + " (its Exec runs openurl)") }
        return .goesAround(program: program, why: why)
    }

    /// KDE's choice for web links: `[General] BrowserApplication` in kdeglobals (a desktop id,
    /// or `!command`), else mimeapps.list with the lists of the desktop it runs under
    /// (`XDG_CURRENT_DESKTOP`: kde-open5 run in a GNOME session reads gnome-mimeapps.list).
    func kdeForecast(_ type: String, desktops: [String]) -> ArrivalForecast {
        let files = ([paths.configHome] + paths.configDirs).map { $0 + "/kdeglobals" }
        if type != "x-scheme-handler/mailto" {
            for file in files {
                guard let text = FileSystem.utf8Text(file),
                      let value = KeyFileText(text: text).value(section: "General", key: "BrowserApplication"), !value.isEmpty else { continue }
                let why = "BrowserApplication=\(value) in \(file)"
                if value.hasPrefix("!") {
                    let program = value.dropFirst().split(separator: " ").first.map(String.init) ?? ""
                    return isOurs(program) ? .reaches(why) : .goesAround(program: program, why: why)
                }
                return entryForecast(value.hasSuffix(".desktop") ? value : value + ".desktop", why: why)
            }
        }
        return mimeForecast(type, desktops: desktops) ?? .fails("no default for \(type) in any mimeapps.list, and no BrowserApplication")
    }

    /// XFCE's helper for `category` (`WebBrowser`, `MailReader`), from helpers.rc.
    func xfceForecast(_ category: String) -> ArrivalForecast {
        let files = ([paths.configHome] + paths.configDirs).map { $0 + "/xfce4/helpers.rc" }
        for file in files {
            guard let text = FileSystem.utf8Text(file), let name = KeyFileText(text: text).value(section: nil, key: category), !name.isEmpty else { continue }
            let why = "\(category)=\(name) in \(file)"
            if name == TakeoverPlan.xfceBrowserHelper || name == TakeoverPlan.xfceMailHelper { return .reaches(why) }
            let helperFiles = ([paths.dataHome] + paths.dataDirs).map { $0 + "/xfce4/helpers/\(name).desktop" }
            let command = helperFiles.lazy.compactMap { FileSystem.utf8Text($0) }.first
                .flatMap { KeyFileText(text: $0).value(section: "Desktop Entry", key: "X-XFCE-Commands") }
            let program = command?.split(separator: ";").first.map(String.init) ?? name
            return isOurs(program) ? .reaches(why) : .goesAround(program: program, why: why)
        }
        return .fails("no \(category) in any helpers.rc (exo-open asks the user)")
    }

    /// `$BROWSER`: its first entry's program (each entry is tried in turn until one succeeds).
    func browserForecast(_ value: String, why: String) -> ArrivalForecast {
        programForecast(BrowserVariable.firstCommand(value).first ?? "", why: why)
    }

    /// The `$BROWSER` to read, when set and not empty.
    var browserVariable: String? { environment["BROWSER"].flatMap { $0.isEmpty ? nil : $0 } }
}

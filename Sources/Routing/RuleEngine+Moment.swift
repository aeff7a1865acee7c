import RoutingCore
import Catalog
import ConfigLanguage

/// The engine's use of the moment's running programs: `open = [a, b]` picks the first target
/// whose program runs for this user.
extension RuleEngine {
    /// The first of `targets` whose program runs (by `moment.running`), else the first; the
    /// trace says which and why.
    func firstRunning(_ targets: [Target], moment: Moment, trace: inout [TraceStep]) -> Target {
        let listed = targets.map(\.description).joined(separator: ", ")
        guard let first = targets.first else { return .system }
        guard let running = moment.running.value else {
            if case .unknown(let why) = moment.running { trace.append(.moment("open = [\(listed)]: which programs run is unknown (\(why)); the first, \(first)")) }
            return first
        }
        var notes: [String] = []
        for target in targets {
            let names = programNames(of: target)
            if let found = names.first(where: running.contains) {
                trace.append(.moment("open = [\(listed)]: " + (notes + ["\(target) runs (\(found))"]).joined(separator: "; ")))
                return target
            }
            notes.append(names.isEmpty ? "\(target) has no program to look for" : "\(target) is not running (no \(names.joined(separator: " or ")))")
        }
        trace.append(.moment("open = [\(listed)]: " + notes.joined(separator: "; ") + "; none runs, so the first, \(first)"))
        return first
    }

    /// The process names a target's program runs as: its entry's program and, for a known
    /// browser, the names its packages use.
    func programNames(of target: Target) -> [String] {
        var names: [String] = []
        func add(_ name: String?) {
            guard let name, !name.isEmpty, !names.contains(name) else { return }
            names.append(name)
        }
        func addEntry(_ id: String) {
            let fileID = id.hasSuffix(".desktop") ? id : id + ".desktop"
            // A known browser runs under the names its packages give it (also inside a Flatpak
            // sandbox); any other entry under its Exec's program.
            if let known = config.catalog.browsers.first(where: { $0.desktopID == fileID })?.known {
                for name in known.nativeNames { add(name) }
            } else {
                add(config.catalog.entry(id: fileID)?.program)
            }
        }
        switch target {
        case .browser(let browser): addEntry(browser.desktopID)
        case .desktopEntry(let id, _): addEntry(id)
        case .app(let name):
            switch config.apps[name] {
            case .desktop(let id, _)?: addEntry(id)
            case .exec(let argv)?: add(argv.first.map { String($0.split(separator: "/").last ?? Substring($0)) })
            case .browser(let browser)?: addEntry(browser.desktopID)
            case .unavailable?, nil: break
            }
        case .mailer(let name):
            // A mail program runs under its installed entry's program, else under its own name.
            if let mailer = Mailer.named(name) {
                if let entry = mailer.entry(in: config.catalog) { addEntry(entry.id) } else { add(mailer.name) }
            }
        case .webmail, .system, .unavailable: break
        }
        return names
    }
}

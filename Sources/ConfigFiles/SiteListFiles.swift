import Hygiene
import Catalog
import Platform
import SiteLists
import ConfigLanguage
import RoutingCore
import TOML

/// A site list as it last read well: its bytes (an unchanged file is not parsed again) and entries.
struct SiteListMemory {
    var bytes: [UInt8]
    var list: SiteList
}

extension ConfigFile {
    /// Where a `[[sitelist]]` or `clearurls` path leads: `~/` is the home directory, a relative
    /// path is beside the config file that names it.
    static func resolve(_ written: String, besides configFile: String) -> String {
        let expanded = written.hasPrefix("~/") ? Environment.homeDirectory() + written.dropFirst() : written
        return expanded.hasPrefix("/") ? expanded : Path.parent(configFile) + "/" + expanded
    }

    /// Reads the list `source` names into it. The file is only read (openurld never fetches a
    /// list); one that cannot be read or parsed keeps its last good entries from `memory`, or
    /// none, and the problem (at the list's `file:line:column`) is in the status.
    static func readSiteList(_ source: inout SiteListSource, namedIn configFile: String, memory: ConfigMemory) -> ConfigSourceStatus {
        let path = resolve(source.path, besides: configFile)
        source.resolvedPath = path
        let key = path + "\u{0}" + source.format.rawValue
        let namedAt = "\(configFile):\(source.position.line)"
        var status = ConfigSourceStatus(layer: source.source.layer, path: path, rules: source.greylist ? 0 : 1)
        var problem: String?
        switch readStable(path: path, limit: SiteList.maximumBytes) {
        case .success(let bytes?):
            if let known = memory.siteLists[key], known.bytes == bytes {
                source.list = known.list
            } else {
                do {
                    source.list = try SiteList.parse(bytes, format: source.format)
                    memory.siteLists[key] = SiteListMemory(bytes: bytes, list: source.list)
                } catch {
                    problem = "\(path):\(error.line):\(error.column): \(error.message) (the [[sitelist]] at \(namedAt))"
                }
            }
        case .success(nil):
            problem = "\(configFile):\(source.position.line):\(source.position.column): sitelist.path: \(path): no such file (openurld reads site lists, it never fetches them)"
        case .failure(let error):
            problem = error.description + " (the [[sitelist]] at \(namedAt))"
        }
        if problem != nil, let known = memory.siteLists[key] {
            source.list = known.list
            status.usingLastGood = true
        }
        status.problem = problem
        status.siteList = SiteListSummary(label: source.label, format: source.format.rawValue, version: source.list.version,
                                          entries: source.list.entries.count, skipped: source.list.skippedNote, greylist: source.greylist, namedAt: namedAt)
        return status
    }

    /// What the load left out to stay within its limits, one sentence each, for `openurl check`
    /// and the daemon's log: a browser's profiles past the first 1,000, a site list's entries
    /// past the first 200,000.
    public static func skipped(in config: Config) -> [String] {
        config.catalog.warnings + config.siteLists.compactMap { source in
            source.list.skippedNote.map { "\(source.resolvedPath ?? source.path): \($0) (the [[sitelist]] at \(source.source.file):\(source.position.line))" }
        }
    }

    /// Reads the ClearURLs file `[settings] clearurls` names (set in `configFile`) into
    /// `config`; a file that cannot be read keeps its last good rules. The problem, if any.
    static func readClearURLs(_ config: inout Config, setIn configFile: String, memory: ConfigMemory,
                              compiling: ClearURLsRules.PatternCompilation) -> String? {
        guard let written = config.settings.clearURLsPath else { return nil }
        let position = config.settings.clearURLsPosition.map { "\($0.line):\($0.column)" } ?? "1:1"
        let resolved = resolve(written, besides: configFile)
        var problem: String?
        if let bytes = FileSystem.contents(resolved) {
            do {
                config.clearURLs = try ClearURLsRules(json: bytes, compiling: compiling)
                memory.clearURLs[resolved] = config.clearURLs
            } catch {
                problem = "\(configFile):\(position): settings.clearurls: \(resolved): \(error)"
            }
        } else {
            problem = "\(configFile):\(position): settings.clearurls: cannot read \(resolved)"
        }
        if problem != nil { config.clearURLs = memory.clearURLs[resolved] }
        return problem
    }
}

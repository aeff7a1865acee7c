import Platform
import LinkSafety
import Hygiene
import RoutingCore
import Catalog
import ConfigLanguage

/// The system configuration's files: `$XDG_CONFIG_DIRS/openurld/config.toml` and `config.d/*.toml`.
public enum SystemConfig {
    /// The folder of each config directory.
    public static func directories(configDirs: [String]) -> [String] { configDirs.map { $0 + "/openurld" } }

    /// The files in the order they are read, as systemd reads drop-ins: the `config.toml` of the
    /// first directory of `$XDG_CONFIG_DIRS` that has one, then every `config.d/*.toml` by file
    /// name, a name in an earlier (more important) directory hiding the same name in a later one.
    public static func files(configDirs: [String]) -> [String] {
        let folders = directories(configDirs: configDirs)
        var files: [String] = []
        if let main = folders.map({ $0 + "/config.toml" }).first(where: { FileSystem.exists($0) || FileSystem.isSymbolicLink($0) }) {
            files.append(main)
        }
        var dropIns: [String: String] = [:]
        for folder in folders {
            for name in (try? FileSystem.listDirectory(folder + "/config.d")) ?? [] where name.hasSuffix(".toml") && !name.hasPrefix(".") {
                if dropIns[name] == nil { dropIns[name] = folder + "/config.d/" + name }
            }
        }
        return files + dropIns.keys.sorted().compactMap { dropIns[$0] }
    }
}

/// What the files said when they last loaded, so a file that breaks (or a site list, or a
/// ClearURLs file) keeps its last good version in force instead of dropping out.
public final class ConfigMemory: @unchecked Sendable {
    var texts: [String: String] = [:]
    var siteLists: [String: SiteListMemory] = [:]
    var clearURLs: [String: ClearURLsRules] = [:]

    /// An empty memory (nothing has loaded yet).
    public init() {}
}

/// A file of the configuration and how it loaded.
public struct ConfigSourceStatus: Sendable {
    /// Its layer.
    public var layer: ConfigLayer
    /// The file.
    public var path: String
    /// What is wrong with it now (nil: it loaded as it is).
    public var problem: String?
    /// With a problem: whether its last good version is in force (else it is left out).
    public var usingLastGood = false
    /// The rules it adds (a site list counts as one).
    public var rules = 0
    /// For a site list: its format, version and entry count.
    public var siteList: SiteListSummary?
}

/// What `openurl status` shows of a site list.
public struct SiteListSummary: Sendable {
    /// `name`, or the file name.
    public var label: String
    /// `emie-v2`, `emie-v1` or `lines`.
    public var format: String
    /// The list's `version` attribute, if it has one.
    public var version: String?
    /// How many entries are in force.
    public var entries: Int
    /// What was left out past the entry limit (`SiteList.skippedNote`), if anything.
    public var skipped: String? = nil
    /// `greylist = true`.
    public var greylist: Bool
    /// The config file that names it, with the line.
    public var namedAt: String
}

/// Every layer loaded: the config to decide with, and how each file fared.
public struct LayeredConfig: Sendable {
    /// The config: each file as it is, or its last good version, or without it.
    public var config: Config
    /// Every file read, in order (system files, their site lists, the user's, remembered).
    public var sources: [ConfigSourceStatus] = []
    /// The system configuration's problems, one per line; empty when it is fine.
    public var systemError: String { sources.filter { $0.layer == .system }.compactMap(\.problem).joined(separator: "\n") }
    /// The user's config or remembered answers could not be used as they are.
    public var userFailure: ConfigFile.LoadError?
    /// True when the user's failure is the remembered answers alone: `config.toml` (and what it
    /// names) is in force, without them (a broken remembered.toml was once reported as "using
    /// built-in defaults").
    public var onlyRememberedFailed = false
    /// A file was empty and had just changed (an editor mid-save): load again in a moment.
    public var settling: String?
}

extension ConfigFile {
    /// Loads the system configuration (the files of `systemDirs`, see `SystemConfig.files`),
    /// then the user's config at `path` and the remembered answers beside it, each over the ones
    /// before it. A file that fails keeps its last good version from `memory` (none at start:
    /// it is left out); a site list that fails keeps its last good entries (none: it is empty).
    /// `userText` and `rememberedText` stand in for the user's files (to check a new version
    /// before writing it). With `blockListSnapshots`, the block lists keep their compiled form there.
    public static func loadLayers(path: String, required: Bool, systemDirs: [String], memory: ConfigMemory = ConfigMemory(),
                                  discover: () -> AppCatalog = { AppCatalog() }, describe: (([String]) -> [AppEntry])? = nil,
                                  rememberedText: String? = nil, userText: String? = nil,
                                  clearURLsPatterns: ClearURLsRules.PatternCompilation = .atLoad,
                                  blockListSnapshots: BlockListSnapshots? = nil) -> LayeredConfig {
        var config = Config(path: path)
        config.catalog = discover()
        var result = LayeredConfig(config: config)
        var clearURLsSetBy: (layer: ConfigLayer, file: String)?
        var blockListsSetBy: (layer: ConfigLayer, file: String)?
        func load(_ file: String, _ layer: ConfigLayer, given: String? = nil, required: Bool = false) -> String? {
            var problem: String?
            var text = given
            if text == nil {
                switch readStable(path: file) {
                case .success(let bytes?):
                    switch UTF8Position.decode(bytes, path: file) {
                    case .success(let decoded): text = decoded
                    case .failure(let bad): problem = bad.description
                    }
                case .success(nil):
                    if required { problem = "\(file): no such file" } else { return nil }
                case .failure(let error):
                    if error.isSettling { result.settling = error.description }
                    problem = error.description
                }
            }
            var status = ConfigSourceStatus(layer: layer, path: file)
            let before = config
            let siteListsBefore = config.siteLists.count
            if let text {
                do {
                    config = try ConfigLoader.load(text: text, path: file, layer: layer, over: config)
                    if given == nil { memory.texts[file] = text }
                } catch {
                    problem = error.description
                }
            }
            if problem != nil, let last = memory.texts[file], last != text {
                if let earlier = try? ConfigLoader.load(text: last, path: file, layer: layer, over: before) {
                    config = earlier
                    status.usingLastGood = true
                }
            }
            status.problem = problem
            status.rules = config.rules.count - before.rules.count
            if config.settings.clearURLsPath != before.settings.clearURLsPath { clearURLsSetBy = (layer, file) }
            if config.settings.blocklists != before.settings.blocklists { blockListsSetBy = (layer, file) }
            result.sources.append(status)
            for index in siteListsBefore..<config.siteLists.count {
                result.sources.append(readSiteList(&config.siteLists[index], namedIn: file, memory: memory))
            }
            return problem
        }
        for file in SystemConfig.files(configDirs: systemDirs) { _ = load(file, .system) }
        var userProblems: [String] = []
        if let problem = load(path, .user, given: userText, required: required) { userProblems.append(problem) }
        config.finishLayers()
        let remembered = rememberedPath(besides: path)
        let configProblems = userProblems.count
        var rememberedProblem = false
        if let problem = loadRemembered(remembered, given: rememberedText, into: &config, memory: memory, result: &result) {
            userProblems.append(problem)
            rememberedProblem = true
        }
        userProblems += result.sources.filter { $0.layer != .system && $0.siteList != nil }.compactMap(\.problem)
        if let (layer, file) = clearURLsSetBy, let problem = readClearURLs(&config, setIn: file, memory: memory, compiling: clearURLsPatterns) {
            if layer == .system {
                if let index = result.sources.lastIndex(where: { $0.path == file }) { result.sources[index].problem = problem }
            } else {
                userProblems.append(problem)
            }
        }
        // Block lists are found (and named files checked) here; a list is read on first use.
        if let error = SafetyFiles.attach(to: &config, path: blockListsSetBy?.file ?? path, snapshots: blockListSnapshots) {
            if blockListsSetBy?.layer == .system, let file = blockListsSetBy?.file,
               let index = result.sources.lastIndex(where: { $0.path == file }) {
                result.sources[index].problem = error.description
            } else {
                userProblems.append(error.description)
            }
        }
        if !userProblems.isEmpty {
            result.userFailure = LoadError(description: userProblems.joined(separator: "\n"), isSettling: result.settling != nil)
            result.onlyRememberedFailed = rememberedProblem && configProblems == 0 && userProblems.count == 1
        }
        // `describe` reads the entries the config names that discovery did not list (for their
        // names); those it does not find either are not installed (`Config.missingApps`).
        // Without it nothing is checked against what is installed.
        if let describe {
            let missing = config.referencedDesktopIDs.filter { config.catalog.entry(id: $0) == nil }
            if !missing.isEmpty { config.catalog.others = describe(missing) }
            let catalog = config.catalog
            config.markUninstalledEntries { catalog.entry(id: $0) != nil }
        }
        result.config = config
        return result
    }

    /// Adds the remembered answers (`given` stands in for the file); the problem, if any.
    private static func loadRemembered(_ path: String, given: String?, into config: inout Config, memory: ConfigMemory,
                                       result: inout LayeredConfig) -> String? {
        var text = given
        if text == nil {
            switch readStable(path: path) {
            case .success(let bytes?):
                switch UTF8Position.decode(bytes, path: path) {
                case .success(let decoded): text = decoded
                case .failure(let bad): return bad.description
                }
            case .success(nil): return nil
            case .failure(let error):
                if error.isSettling { result.settling = error.description }
                text = memory.texts[path]
                if let text { config = (try? ConfigLoader.loadRemembered(text: text, path: path, into: config)) ?? config }
                return error.description
            }
        }
        guard let text else { return nil }
        var status = ConfigSourceStatus(layer: .remembered, path: path)
        let before = config.rules.count
        defer { result.sources.append(status) }
        do {
            config = try ConfigLoader.loadRemembered(text: text, path: path, into: config)
            if given == nil { memory.texts[path] = text }
            status.rules = config.rules.count - before
            return nil
        } catch {
            status.problem = error.description
            if let last = memory.texts[path], let earlier = try? ConfigLoader.loadRemembered(text: last, path: path, into: config) {
                config = earlier
                status.usingLastGood = true
            }
            return error.description
        }
    }
}

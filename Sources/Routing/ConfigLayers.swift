import SiteLists
import URLModel

/// Where a config file sits among the layers openurld reads.
public enum ConfigLayer: String, Sendable, CaseIterable {
    /// The machine's policy: `$XDG_CONFIG_DIRS/openurld/config.toml` and `config.d/*.toml`.
    case system
    /// The user's `$XDG_CONFIG_HOME/openurld/config.toml`.
    case user
    /// The user's remembered answers, `remembered.toml` beside it.
    case remembered
}

/// Where a rule (or a locked setting) comes from, and what the system configuration said of it.
public struct RuleSource: Sendable, Equatable, CustomStringConvertible {
    /// The layer of its file.
    public var layer: ConfigLayer
    /// The file.
    public var file: String
    /// The 1-based line where it starts.
    public var line: Int
    /// `locked = true` (system rules only).
    public var locked = false
    /// `recommended = true` (system rules only).
    public var recommended = false

    /// A source.
    public init(layer: ConfigLayer, file: String, line: Int, locked: Bool = false, recommended: Bool = false) {
        self.layer = layer
        self.file = file
        self.line = line
        self.locked = locked
        self.recommended = recommended
    }

    /// `system /etc/xdg/openurld/config.toml:12, locked`.
    public var description: String {
        "\(layer.rawValue) \(file):\(line)" + (locked ? ", locked" : "") + (recommended ? ", recommended" : "")
    }
}

/// A `[[sitelist]]` of a config: its file, as written and as found, and the list once read.
public struct SiteListSource: Sendable {
    /// `name`, if given.
    public var name: String?
    /// `path` as written.
    public var path: String
    /// `format`.
    public var format: SiteListFormat
    /// `greylist = true`: its sites never switch.
    public var greylist: Bool
    /// The layer and config file that name it.
    public var source: RuleSource
    /// Where `path` is written, for errors.
    public var position: SourcePosition
    /// The file read (`path` resolved by whoever read it); nil until read.
    public var resolvedPath: String?
    /// The list, empty until the caller reads the file (the loader reads no files).
    public var list: SiteList

    /// The name, else the file name.
    public var label: String { name ?? String(path.split(separator: "/").last ?? Substring(path)) }
}

/// The site list a `[[sitelist]]` rule tries, with the greylists of its layer.
public struct SiteListMatch: Sendable {
    /// Which of `Config.siteLists` it is.
    public var source: Int
    /// The list.
    public var list: SiteList
    /// The greylist lists of the same layer.
    public var greylists: [SiteList]
    /// Which of `Config.siteLists` each of `greylists` is.
    public var greylistSources: [Int] = []
}

extension Config {
    /// The config ready for deciding once every layer is loaded: rules in the order they are
    /// tried (locked system rules, remembered answers, the other system rules, the user's rules,
    /// recommended system rules), numbered in that order (remembered answers are #0), and each
    /// site-list rule given its list and its layer's greylists.
    public func finishingLayers() -> Config {
        var config = self
        func group(_ rule: Rule) -> Int {
            switch rule.source.layer {
            case .system: return rule.source.locked ? 0 : (rule.source.recommended ? 4 : 2)
            case .remembered: return 1
            case .user: return 3
            }
        }
        // Stable: within a group, the order of the files and of the rules in them. A user's
        // config alone (the usual case) is in order already, and is not sorted again.
        let groups = rules.map(group)
        if zip(groups, groups.dropFirst()).contains(where: { $0 > $1 }) {
            config.rules = rules.enumerated().sorted { (groups[$0.offset], $0.offset) < (groups[$1.offset], $1.offset) }.map(\.element)
        }
        var next = 1
        for position in config.rules.indices {
            if config.rules[position].source.layer == .remembered {
                config.rules[position].index = 0
            } else {
                config.rules[position].index = next
                next += 1
            }
            guard !siteLists.isEmpty else { continue }
            config.rules[position].matchers = config.rules[position].matchers.map { matcher in
                guard case .siteList(var match) = matcher, siteLists.indices.contains(match.source) else { return matcher }
                let layer = siteLists[match.source].source.layer
                match.list = siteLists[match.source].list
                match.greylistSources = siteLists.indices.filter { siteLists[$0].greylist && siteLists[$0].source.layer == layer }
                match.greylists = match.greylistSources.map { siteLists[$0].list }
                return .siteList(match)
            }
        }
        return config
    }

    /// How many rules, from the first, are locked system rules (`finishingLayers` puts them first).
    public var lockedRuleCount: Int { rules.prefix { $0.source.locked }.count }
}

extension ConfigLoader {
    /// Loads `text` (the file `path` of `layer`) over `base`, the files of the layers before it
    /// loaded already: its settings, `[default]` and `[apps]` replace base's (unless the system
    /// configuration locked them, which is noted in `Config.notes`), its rules, rewrites,
    /// redirectors and site lists are added after base's. Targets resolve against everything
    /// loaded so far. Call `finishingLayers()` once the last file is in.
    public static func load(text: String, path: String, layer: ConfigLayer, over base: Config) throws(ConfigError) -> Config {
        try load(text: text, path: path, catalog: base.catalog, layer: layer, base: base)
    }
}

/// What a system configuration locked, for the files after it.
struct Locks: Sendable {
    /// `settings.KEY` and `default`, with where they were locked.
    var keys: [String: RuleSource] = [:]

    /// The names of apps and webmail targets that locked rules and a locked `[default]` open:
    /// a user's `[apps.NAME]` of the same name would change where a locked rule sends links.
    static func lockedTargets(of config: Config) -> Set<String> {
        var names = Set<String>()
        func add(_ action: Action) {
            switch action {
            case .open(.app(let name)), .open(.webmail(let name)): names.insert(name)
            case .ask(let choices):
                for case .open(let target) in choices {
                    if case .app(let name) = target { names.insert(name) }
                    if case .webmail(let name) = target { names.insert(name) }
                }
            default: break
            }
        }
        for rule in config.rules where rule.source.locked { add(rule.action) }
        if config.locks.keys["default"] != nil { add(config.defaultAction) }
        return names
    }
}

extension RuleEngine {
    /// The trace's account of a site list for `url`: which entry switched it or kept it.
    static func siteListStep(_ match: SiteListMatch, config: Config, url: ParsedURL) -> TraceStep {
        func path(of source: Int) -> String {
            config.siteLists.indices.contains(source) ? (config.siteLists[source].resolvedPath ?? config.siteLists[source].path) : "?"
        }
        var file = path(of: match.source)
        var greylisted = false
        let verdict = match.list.verdict(for: url, greylists: match.greylists)
        // A greylist entry may be another list's: name the file it is in.
        if case .stay(let entry?) = verdict, !match.list.entries.contains(entry),
           let other = zip(match.greylists, match.greylistSources).first(where: { $0.0.entries.contains(entry) }) {
            file = path(of: other.1)
            greylisted = true
        }
        switch verdict {
        case .go(let entry):
            return .siteList(file: file, entry: entry.pattern.text, line: entry.line, outcome: "switches")
        case .stay(let entry?):
            return .siteList(file: file, entry: entry.pattern.text, line: entry.line,
                             outcome: greylisted || entry.kind == .greylist ? "greylisted, does not switch" : "an exception, does not switch")
        case .stay(nil):
            return .siteList(file: file, entry: "", line: 0, outcome: "not listed")
        }
    }
}

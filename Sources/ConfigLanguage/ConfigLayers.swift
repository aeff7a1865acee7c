import SiteLists
import URLModel
import RoutingCore
import TOML

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
    public consuming func finishingLayers() -> Config {
        finishLayers()
        return self
    }

    /// `finishingLayers()` in place: a config held once is not copied, so its rules are renumbered
    /// where they are (the copy took each of 1,000 rules' value witness at every load).
    public mutating func finishLayers() {
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
            rules = rules.enumerated().sorted { (groups[$0.offset], $0.offset) < (groups[$1.offset], $1.offset) }.map(\.element)
        }
        var next = 1
        let siteLists = self.siteLists  // read while `rules` is written
        for position in rules.indices {
            if rules[position].source.layer == .remembered {
                rules[position].index = 0
            } else {
                rules[position].index = next
                next += 1
            }
            guard !siteLists.isEmpty else { continue }
            rules[position].matchers = rules[position].matchers.map { matcher in
                guard case .siteList(var match) = matcher, siteLists.indices.contains(match.source) else { return matcher }
                let layer = siteLists[match.source].source.layer
                match.list = siteLists[match.source].list
                match.greylistSources = siteLists.indices.filter { siteLists[$0].greylist && siteLists[$0].source.layer == layer }
                match.greylists = match.greylistSources.map { siteLists[$0].list }
                return .siteList(match)
            }
        }
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
        func add(_ action: Intent) {
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

import DBus

/// One entry of `ConfigSources() → aa{sv}`: a file of a layer (or a site list it names) and how
/// it loaded. The daemon builds it from its layers and `openurl status` reads it back; both go
/// through `dbusValue` and `init(dbusValue:)`, the one place its keys live.
///
/// Unlike `RuleDescription`, reading is tolerant field by field: `status` is what a user runs
/// when something is wrong, so a missing or mistyped field is nil (shown as `?`) and a bad entry
/// is left out, never the whole list.
public struct ConfigSourceDescription: Equatable, Sendable {
    /// The layer (`user`, `system`, `remembered`).
    public var layer: String?
    /// The file.
    public var path: String?
    /// `config` or `sitelist`.
    public var kind: String?
    /// Why it did not load as it is; empty when it did.
    public var problem: String?
    /// Whether its last good version is in force despite `problem`.
    public var lastGood: Bool?
    /// How many rules it holds.
    public var rules: UInt32?
    /// A site list's label, format (`lines`, `emie-v2`, …), version (empty when it has none),
    /// entry count, whether it is a greylist, and the config file and line naming it.
    public var name: String?, format: String?, version: String?, entries: UInt32?, greylist: Bool?, namedAt: String?

    /// The `kind` of a site list.
    public static let siteListKind = "sitelist"
    /// The `kind` of a config file.
    public static let configKind = "config"

    /// A description; the site-list fields stay nil for a config file, and are then not written.
    public init(layer: String?, path: String?, kind: String?, problem: String?, lastGood: Bool?, rules: UInt32?,
                name: String? = nil, format: String? = nil, version: String? = nil, entries: UInt32? = nil,
                greylist: Bool? = nil, namedAt: String? = nil) {
        self.layer = layer
        self.path = path
        self.kind = kind
        self.problem = problem
        self.lastGood = lastGood
        self.rules = rules
        self.name = name
        self.format = format
        self.version = version
        self.entries = entries
        self.greylist = greylist
        self.namedAt = namedAt
    }

    /// True for a site list.
    public var isSiteList: Bool { kind == Self.siteListKind }

    /// The keys, in the order they are written.
    enum Key {
        static let layer = "layer", path = "path", kind = "kind", problem = "problem", lastGood = "last_good", rules = "rules"
        static let name = "name", format = "format", version = "version", entries = "entries", greylist = "greylist", namedAt = "named_at"
    }

    /// The `a{sv}` entry; a nil field is left out.
    public var dbusValue: DBusValue {
        let pairs: [(String, DBusValue?)] = [
            (Key.layer, layer.map { .string($0) }), (Key.path, path.map { .string($0) }), (Key.kind, kind.map { .string($0) }),
            (Key.problem, problem.map { .string($0) }), (Key.lastGood, lastGood.map { .bool($0) }), (Key.rules, rules.map { .uint32($0) }),
            (Key.name, name.map { .string($0) }), (Key.format, format.map { .string($0) }), (Key.version, version.map { .string($0) }),
            (Key.entries, entries.map { .uint32($0) }), (Key.greylist, greylist.map { .bool($0) }), (Key.namedAt, namedAt.map { .string($0) }),
        ]
        return .vardict(pairs: pairs.compactMap { key, value in value.map { (key, $0) } })
    }

    /// Reads an entry; only a value that is not an `a{sv}` at all is an error, a missing or
    /// mistyped field is nil.
    public init(dbusValue value: DBusValue) throws(ContractError) {
        guard let fields = value.dictionary else { throw ContractError("ConfigSources entry", "must be a{sv}") }
        self.init(layer: fields[Key.layer]?.string, path: fields[Key.path]?.string, kind: fields[Key.kind]?.string,
                  problem: fields[Key.problem]?.string, lastGood: fields[Key.lastGood]?.bool, rules: fields[Key.rules]?.uint32,
                  name: fields[Key.name]?.string, format: fields[Key.format]?.string, version: fields[Key.version]?.string,
                  entries: fields[Key.entries]?.uint32, greylist: fields[Key.greylist]?.bool, namedAt: fields[Key.namedAt]?.string)
    }

    /// A whole `ConfigSources` reply: each entry that is an `a{sv}`, the others left out; no list
    /// at all (an older daemon, a failed call) is empty.
    public static func list(_ reply: DBusValue?) -> [ConfigSourceDescription] {
        (reply?.array ?? []).compactMap { try? ConfigSourceDescription(dbusValue: $0) }
    }
}

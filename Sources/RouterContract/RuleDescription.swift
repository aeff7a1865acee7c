import DBus

/// One entry of `DescribeRules() → aa{sv}`: a rule with where it comes from. The daemon builds
/// it from its config (plain fields, so this module needs no config types) and `openurl rules`
/// reads it back; both go through `dbusValue` and `init(dbusValue:)`, the one place its keys live.
public struct RuleDescription: Equatable, Sendable {
    /// The rule's position (1-based), 0 for a remembered answer.
    public var index: Int32
    /// Its name, empty when unnamed.
    public var name: String
    /// What it does, as `ListRules` summarises it (`open firefox.desktop`).
    public var action: String
    /// Whether it is on.
    public var enabled: Bool
    /// The layer it comes from (`user`, `system`, …).
    public var layer: String
    /// The file and line that define it.
    public var file: String, line: UInt32
    /// Whether the system configuration locked it; whether it is only recommended.
    public var locked: Bool, recommended: Bool
    /// What it matches, one line as its `match` keys read (`domain = "example.org"`); empty for every link.
    public var match: String
    /// Where it sends links, as written (`firefox-esr:Work`); empty when it opens nothing.
    public var target: String

    /// A description.
    public init(index: Int32, name: String, action: String, enabled: Bool, layer: String, file: String, line: UInt32, locked: Bool, recommended: Bool,
                match: String = "", target: String = "") {
        self.index = index
        self.name = name
        self.action = action
        self.enabled = enabled
        self.layer = layer
        self.file = file
        self.line = line
        self.locked = locked
        self.recommended = recommended
        self.match = match
        self.target = target
    }

    /// The keys, in the order they are written.
    enum Key {
        static let index = "index", name = "name", action = "action", enabled = "enabled", layer = "layer"
        static let file = "file", line = "line", locked = "locked", recommended = "recommended"
        static let match = "match", target = "target"
    }

    /// The `a{sv}` entry.
    public var dbusValue: DBusValue {
        .vardict(pairs: [
            (Key.index, .int32(index)), (Key.name, .string(name)), (Key.action, .string(action)),
            (Key.enabled, .bool(enabled)), (Key.layer, .string(layer)), (Key.file, .string(file)),
            (Key.line, .uint32(line)), (Key.locked, .bool(locked)), (Key.recommended, .bool(recommended)),
            (Key.match, .string(match)), (Key.target, .string(target)),
        ])
    }

    /// Reads an entry; a missing or mistyped key is a `ContractError` naming it, except that
    /// `match` and `target`, added later, may be missing (a daemon started before an upgrade
    /// leaves them out) and are then empty.
    public init(dbusValue value: DBusValue) throws(ContractError) {
        let reader = try VardictReader(value, "DescribeRules entry")
        self.init(index: try reader.int32(Key.index), name: try reader.string(Key.name), action: try reader.string(Key.action),
                  enabled: try reader.bool(Key.enabled), layer: try reader.string(Key.layer), file: try reader.string(Key.file),
                  line: try reader.uint32(Key.line), locked: try reader.bool(Key.locked), recommended: try reader.bool(Key.recommended),
                  match: try reader.optionalString(Key.match) ?? "", target: try reader.optionalString(Key.target) ?? "")
    }

    /// A whole `DescribeRules` reply.
    public static func list(_ reply: DBusValue?) throws(ContractError) -> [RuleDescription] {
        try decodeArray(reply, "DescribeRules") { (item: DBusValue) throws(ContractError) in try RuleDescription(dbusValue: item) }
    }
}

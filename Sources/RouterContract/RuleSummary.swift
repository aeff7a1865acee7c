import DBus

/// One entry of `ListRules() → a(sisb)`: a rule's name, position (0 for a remembered answer),
/// what it does and whether it is on. The daemon encodes it and completion of `openurl rules
/// enable/disable` decodes it; both go through `dbusValue` and `init(dbusValue:)`.
public struct RuleSummary: Equatable, Sendable {
    /// Its name, empty when unnamed.
    public var name: String
    /// Its position (1-based), 0 for a remembered answer.
    public var index: Int32
    /// What it does (`open firefox.desktop`).
    public var action: String
    /// Whether it is on.
    public var enabled: Bool

    /// A summary.
    public init(name: String, index: Int32, action: String, enabled: Bool) {
        self.name = name
        self.index = index
        self.action = action
        self.enabled = enabled
    }

    /// The element signature of the reply's array.
    public static let signature = "(sisb)"

    /// The `(sisb)` structure.
    public var dbusValue: DBusValue {
        .structure([.string(name), .int32(index), .string(action), .bool(enabled)])
    }

    /// Reads an entry; a missing or mistyped field is a `ContractError` naming it.
    public init(dbusValue value: DBusValue) throws(ContractError) {
        let what = "ListRules entry"
        guard let fields = value.fields, fields.count == 4 else { throw ContractError(what, "must be (sisb)") }
        guard let name = fields[0].string else { throw ContractError(what, key: "name", "must be a string (s)") }
        guard case .int32(let index) = fields[1] else { throw ContractError(what, key: "index", "must be an int32 (i)") }
        guard let action = fields[2].string else { throw ContractError(what, key: "action", "must be a string (s)") }
        guard case .bool(let enabled) = fields[3] else { throw ContractError(what, key: "enabled", "must be a boolean (b)") }
        self.init(name: name, index: index, action: action, enabled: enabled)
    }

    /// A whole `ListRules` reply.
    public static func list(_ reply: DBusValue?) throws(ContractError) -> [RuleSummary] {
        try decodeArray(reply, "ListRules") { (item: DBusValue) throws(ContractError) in try RuleSummary(dbusValue: item) }
    }
}

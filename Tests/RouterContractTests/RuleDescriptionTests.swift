import DBus
import RouterContract
import Testing

/// `DescribeRules`' entries: what the daemon encodes, the tool decodes back, and a reply missing
/// or mistyping a key is an error naming it, never a default.
@Suite struct RuleDescriptionTests {
    @Test(arguments: [
        RuleDescription(index: 1, name: "Zoom", action: "open firefox.desktop", enabled: true, layer: "user", file: "/c/config.toml", line: 4,
                        locked: false, recommended: false),
        RuleDescription(index: 0, name: "", action: "ask a, b", enabled: false, layer: "system", file: "/etc/x.toml", line: 0,
                        locked: true, recommended: true),
    ])
    func roundTrips(rule: RuleDescription) throws {
        #expect(try RuleDescription(dbusValue: rule.dbusValue) == rule)
        #expect(try RuleDescription.list(.array(elementSignature: "a{sv}", [rule.dbusValue, rule.dbusValue])) == [rule, rule])
    }

    static let sample = RuleDescription(index: 2, name: "n", action: "discard", enabled: true, layer: "user", file: "f", line: 1,
                                        locked: false, recommended: false)

    @Test(arguments: [
        ("name", nil, "DescribeRules entry: name: missing"),
        ("line", DBusValue.string("1"), "DescribeRules entry: line: must be a uint32 (u)"),
        ("index", DBusValue.uint32(2), "DescribeRules entry: index: must be an int32 (i)"),
        ("enabled", DBusValue.string("yes"), "DescribeRules entry: enabled: must be a boolean (b)"),
    ] as [(String, DBusValue?, String)])
    func aMissingOrMistypedKeyIsNamed(key: String, replacement: DBusValue?, message: String) {
        var entries = Self.sample.dbusValue.dictionary ?? [:]
        entries[key] = replacement
        #expect(throws: ContractError.self) { try RuleDescription(dbusValue: .vardict(entries)) }
        do { _ = try RuleDescription(dbusValue: .vardict(entries)) } catch { #expect(error.description == message) }
    }

    @Test func aReplyThatIsNotAListIsAnError() {
        #expect(throws: ContractError("DescribeRules", "must be an array")) { try RuleDescription.list(.string("x")) }
        #expect(throws: ContractError("DescribeRules entry", "must be a{sv}")) { try RuleDescription(dbusValue: .uint32(1)) }
    }
}

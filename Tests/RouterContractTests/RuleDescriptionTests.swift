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
        RuleDescription(index: 3, name: "Work", action: "open firefox-esr:Work", enabled: true, layer: "user", file: "/c/config.toml", line: 9,
                        locked: false, recommended: false, match: "host = \"a.example.org\", path = \"/x/*\"", target: "firefox-esr:Work"),
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
        ("match", DBusValue.bool(true), "DescribeRules entry: match: must be a string (s)"),
        ("target", DBusValue.uint32(1), "DescribeRules entry: target: must be a string (s)"),
    ] as [(String, DBusValue?, String)])
    func aMissingOrMistypedKeyIsNamed(key: String, replacement: DBusValue?, message: String) {
        var entries = Self.sample.dbusValue.dictionary ?? [:]
        entries[key] = replacement
        #expect(throws: ContractError.self) { try RuleDescription(dbusValue: .vardict(entries)) }
        do { _ = try RuleDescription(dbusValue: .vardict(entries)) } catch { #expect(error.description == message) }
    }

    /// `match` and `target` came later: a daemon started before an upgrade leaves them out, and
    /// `openurl rules` still reads its entries.
    @Test func matchAndTargetMayBeMissing() throws {
        var entries = Self.sample.dbusValue.dictionary ?? [:]
        entries["match"] = nil
        entries["target"] = nil
        let read = try RuleDescription(dbusValue: .vardict(entries))
        #expect(read == Self.sample && read.match.isEmpty && read.target.isEmpty)
    }

    @Test func aReplyThatIsNotAListIsAnError() {
        #expect(throws: ContractError("DescribeRules", "must be an array")) { try RuleDescription.list(.string("x")) }
        #expect(throws: ContractError("DescribeRules entry", "must be a{sv}")) { try RuleDescription(dbusValue: .uint32(1)) }
    }
}

import DBus
import RouterContract
import Testing

/// `ListRules`' entries: what the daemon encodes, completion decodes back, and a short or
/// mistyped structure is an error naming the field.
@Suite struct RuleSummaryTests {
    @Test(arguments: [
        RuleSummary(name: "Zoom", index: 3, action: "open zoom.desktop", enabled: true),
        RuleSummary(name: "", index: 0, action: "discard (answers an ask; remembered.toml:2)", enabled: false),
    ])
    func roundTrips(rule: RuleSummary) throws {
        #expect(try RuleSummary(dbusValue: rule.dbusValue) == rule)
        #expect(rule.dbusValue.signature == RuleSummary.signature)
        #expect(try RuleSummary.list(.array(elementSignature: RuleSummary.signature, [rule.dbusValue, rule.dbusValue])) == [rule, rule])
    }

    @Test(arguments: [
        (DBusValue.structure([.string("n"), .int32(1), .string("a")]), "ListRules entry: must be (sisb)"),
        (.structure([.uint32(1), .int32(1), .string("a"), .bool(true)]), "ListRules entry: name: must be a string (s)"),
        (.structure([.string("n"), .uint32(1), .string("a"), .bool(true)]), "ListRules entry: index: must be an int32 (i)"),
        (.structure([.string("n"), .int32(1), .bool(false), .bool(true)]), "ListRules entry: action: must be a string (s)"),
        (.structure([.string("n"), .int32(1), .string("a"), .string("on")]), "ListRules entry: enabled: must be a boolean (b)"),
        (.string("x"), "ListRules entry: must be (sisb)"),
    ])
    func aShortOrMistypedEntryIsNamed(value: DBusValue, message: String) {
        #expect(throws: ContractError.self) { try RuleSummary(dbusValue: value) }
        do { _ = try RuleSummary(dbusValue: value) } catch { #expect(error.description == message) }
    }

    @Test func aReplyThatIsNotAListIsAnError() {
        #expect(throws: ContractError("ListRules", "must be an array")) { try RuleSummary.list(.string("x")) }
    }
}

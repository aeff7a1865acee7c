import DBus
import RouterContract
import RoutingCore
import Testing

/// `Explain`'s `moment` option: its keys (one definition, in router1.h), what each replaces, and
/// bad values refused with `openurl test`'s wording.
@Suite struct MomentOptionTests {
    static func options(_ moment: [(String, DBusValue)], method: String = "Explain", dryRun: Bool = false) throws -> OpenOptions {
        try OpenOptions(.vardict(pairs: [("moment", .vardict(pairs: moment))] + (dryRun ? [("dry-run", .bool(true))] : [])), method: method)
    }

    @Test func theKeysAreTheDocumentedOnes() {
        #expect(Router1.Option.moment == "moment")
        #expect([Router1.MomentOption.network, Router1.MomentOption.vpn, Router1.MomentOption.vpnName, Router1.MomentOption.at,
                 Router1.MomentOption.modifiers, Router1.MomentOption.window] == ["network", "vpn", "vpn-name", "at", "modifiers", "window"])
        #expect(Router1.Method.forgetRemembered == "ForgetRemembered")
    }

    @Test(arguments: [
        ([("network", DBusValue.string("CorpWiFi"))], MomentOverride(network: "CorpWiFi")),
        ([("vpn", .bool(true)), ("vpn-name", .string("Corp"))], MomentOverride(vpn: true, vpnName: "Corp")),
        ([("vpn", .bool(false))], MomentOverride(vpn: false)),
        ([("at", .string("2026-12-01 18:30"))], MomentOverride(time: LocalTime(year: 2026, month: 12, day: 1, hour: 18, minute: 30))),
        ([("modifiers", .string("shift,Ctrl"))], MomentOverride(modifiers: [.shift, .ctrl])),
        ([("modifiers", .string("none"))], MomentOverride(modifiers: [])),
        ([("window", .string("PROJ-1 - Jira")), ("later", .uint32(1))], MomentOverride(window: "PROJ-1 - Jira")),
        ([], MomentOverride()),
    ] as [([(String, DBusValue)], MomentOverride)])
    func eachKeyGivesItsFact(pairs: [(String, DBusValue)], expected: MomentOverride) throws {
        #expect(try Self.options(pairs).moment == expected)
        #expect(try Self.options(pairs, method: "Open", dryRun: true).moment == expected)
    }

    @Test(arguments: [
        ([("at", DBusValue.string("x"))], "Explain: moment at \"x\": expected a local date and time like \"2026-12-01 18:30\""),
        ([("at", .string("2026-13-01 18:30"))], "Explain: moment at \"2026-13-01 18:30\": expected a local date and time like \"2026-12-01 18:30\""),
        ([("modifiers", .string("shift,hyper"))], "Explain: moment modifiers: unknown key \"hyper\" (expected a comma-separated list of shift, ctrl, alt, super, or none)"),
        ([("vpn", .string("yes"))], "Explain: moment vpn must be a boolean (b)"),
        ([("network", .bool(true))], "Explain: moment network must be a string (s)"),
        ([("vpn", .bool(false)), ("vpn-name", .string("Corp"))], "Explain: moment vpn-name: a VPN name says a VPN is up, but the VPN is given as down"),
    ] as [([(String, DBusValue)], String)])
    func badValuesAreRefusedAsOpenurlTestWordsThem(pairs: [(String, DBusValue)], message: String) {
        #expect(throws: DBusError.invalidArgs(message)) { try Self.options(pairs) }
    }

    @Test func aClickIsNeverCarriedOutInAMadeUpMoment() {
        let message = "Open: option moment is for Explain and a dry-run Open only"
        #expect(throws: DBusError.invalidArgs(message)) { try Self.options([("network", .string("x"))], method: "Open") }
        #expect(throws: DBusError.invalidArgs("Open: option moment must be a{sv}")) {
            try OpenOptions(.vardict(pairs: [("moment", .string("x")), ("dry-run", .bool(true))]), method: "Open")
        }
    }
}

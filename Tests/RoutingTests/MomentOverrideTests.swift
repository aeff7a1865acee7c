import Testing
@testable import RoutingCore

/// The moment given by hand (`openurl test --network …`, `Explain`'s `moment`): each given fact
/// replaces the one seen, the others stay as seen.
@Suite struct MomentOverrideTests {
    static let seen = Moment(network: .known(NetworkFacts(connections: [ActiveConnection(id: "Home", type: "802-11-wireless", ssid: "Home")])),
                             time: .known(LocalTime(year: 2026, month: 1, day: 5, hour: 9, minute: 0)),
                             window: .known("Terminal"), modifiers: .known([]), running: .known(["firefox"]))

    @Test(arguments: [
        (MomentOverride(), [] as MomentNeeds, [ActiveConnection(id: "Home", type: "802-11-wireless", ssid: "Home")]),
        (MomentOverride(network: "CorpWiFi"), .network, [ActiveConnection(id: "CorpWiFi", type: "802-11-wireless", ssid: "CorpWiFi")]),
        (MomentOverride(vpn: true), .network, [ActiveConnection(id: "VPN", type: "vpn", vpn: true)]),
        (MomentOverride(vpnName: "Corp"), .network, [ActiveConnection(id: "Corp", type: "vpn", vpn: true)]),
        (MomentOverride(network: "Cafe", vpn: false), .network, [ActiveConnection(id: "Cafe", type: "802-11-wireless", ssid: "Cafe")]),
        (MomentOverride(vpn: false), .network, []),
    ] as [(MomentOverride, MomentNeeds, [ActiveConnection])])
    func theNetworkAndVPNAreOneFact(given: MomentOverride, replaces: MomentNeeds, connections: [ActiveConnection]) {
        #expect(given.replaces == replaces)
        let moment = given.applied(to: Self.seen)
        #expect(moment.network.value?.connections == connections)
        #expect(moment.time == Self.seen.time && moment.window == Self.seen.window && moment.running == Self.seen.running)
    }

    @Test func eachOtherFactReplacesOnlyItself() {
        let time = LocalTime(year: 2026, month: 12, day: 1, hour: 18, minute: 30)
        let given = MomentOverride(time: time, modifiers: [.shift], window: "PROJ-1 - Jira")
        #expect(given.replaces == [.time, .window, .modifiers])
        let moment = given.applied(to: Self.seen)
        #expect(moment.time == .known(time) && moment.window == .known("PROJ-1 - Jira") && moment.modifiers == .known([.shift]))
        #expect(moment.network == Self.seen.network && moment.running == Self.seen.running)
    }

    @Test(arguments: [
        ("shift", [Modifier.shift]), ("Shift, CTRL", [.shift, .ctrl]), ("none", []), ("", []), ("alt,super,alt", [.alt, .super]),
    ] as [(String, Set<Modifier>)])
    func modifiersAreRead(text: String, held: Set<Modifier>) throws {
        #expect(try MomentOverride.modifiers(parsing: text) == held)
    }

    @Test(arguments: [
        (MomentOverride.ValueError.time("x"), "test: --at", "test: --at \"x\": expected a local date and time like \"2026-12-01 18:30\""),
        (.modifier("hyper"), "test: --modifiers", "test: --modifiers: unknown key \"hyper\" (expected a comma-separated list of shift, ctrl, alt, super, or none)"),
    ])
    func messagesNameTheOption(error: MomentOverride.ValueError, option: String, message: String) {
        #expect(error.message(option: option) == message)
    }

    @Test func badValuesAreErrors() {
        #expect(throws: MomentOverride.ValueError.time("18:30")) { try MomentOverride.time(parsing: "18:30") }
        #expect(throws: MomentOverride.ValueError.modifier("hyper")) { try MomentOverride.modifiers(parsing: "shift,hyper") }
        #expect(throws: Never.self) { try MomentOverride.time(parsing: "2026-12-01 18:30") }
    }
}

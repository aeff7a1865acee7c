import OpenurlCommands
import SessionState
import RoutingCore

/// `openurl test`'s moment: each fact from its option when given (`--network`, `--vpn`,
/// `--at`, `--modifiers`, `--window`), else as a click now would see it (NetworkManager, the
/// clock, the running programs); the window and keys of a click cannot be seen from a terminal,
/// so without their options they are unknown.
extension Client {
    struct MomentOptionError: Error { let message: String }

    func testMoment(_ parsed: ParsedCommand, needs: MomentNeeds) -> Result<Moment, MomentOptionError> {
        let network = parsed.value("--network")
        let vpnName = parsed.value("--vpn-name")
        let vpn = parsed.flag("--vpn") || vpnName != nil
        var live = needs
        if network != nil || vpn { live.remove(.network) }
        if parsed.value("--at") != nil { live.remove(.time) }
        live.subtract([.window, .modifiers])
        var moment = MomentSources(network: nil, environment: environment).moment(needs: live, click: [:])
        if network != nil || vpn {
            var connections: [ActiveConnection] = []
            if let network { connections.append(ActiveConnection(id: network, type: "802-11-wireless", ssid: network)) }
            if vpn { connections.append(ActiveConnection(id: vpnName ?? "VPN", type: "vpn", vpn: true)) }
            moment.network = .known(NetworkFacts(connections: connections))
        }
        if let at = parsed.value("--at") {
            guard let time = LocalTime(parsing: at) else {
                return .failure(MomentOptionError(message: "test: --at \"\(at)\": expected a local date and time like \"2026-12-01 18:30\""))
            }
            moment.time = .known(time)
        }
        if let title = parsed.value("--window") { moment.window = .known(title) } else {
            moment.window = .unknown("not given (openurl test --window TITLE)")
        }
        if let keys = parsed.value("--modifiers") {
            var held = Set<Modifier>()
            for word in keys.split(separator: ",").map({ String($0).lowercased() }) where word != "none" {
                guard let key = Modifier(rawValue: word) else {
                    return .failure(MomentOptionError(message: "test: --modifiers: unknown key \"\(word)\" (expected a comma-separated list of \(Modifier.allCases.map(\.rawValue).joined(separator: ", ")), or none)"))
                }
                held.insert(key)
            }
            moment.modifiers = .known(held)
        } else {
            moment.modifiers = .unknown("not given (openurl test --modifiers shift)")
        }
        return .success(moment)
    }
}

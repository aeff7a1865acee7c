import OpenurlCommands
import SessionState
import RoutingCore

/// `openurl test`'s moment: each fact from its option when given (`--network`, `--vpn`,
/// `--at`, `--modifiers`, `--window`), else as a click now would see it (NetworkManager, the
/// clock, the running programs); the window and keys of a click cannot be seen from a terminal,
/// so without their options they are unknown. The options are read by `MomentOverride`, as
/// `Explain`'s `moment` option is, so both decide by the same moment for the same words.
extension Client {
    struct MomentOptionError: Error { let message: String }

    func testMoment(_ parsed: ParsedCommand, needs: MomentNeeds) -> Result<Moment, MomentOptionError> {
        var given = MomentOverride(network: parsed.value("--network"), vpnName: parsed.value("--vpn-name"), window: parsed.value("--window"))
        if parsed.flag("--vpn") { given.vpn = true }
        if let at = parsed.value("--at") {
            do throws(MomentOverride.ValueError) { given.time = try MomentOverride.time(parsing: at) } catch {
                return .failure(MomentOptionError(message: error.message(option: "test: --at")))
            }
        }
        if let keys = parsed.value("--modifiers") {
            do throws(MomentOverride.ValueError) { given.modifiers = try MomentOverride.modifiers(parsing: keys) } catch {
                return .failure(MomentOptionError(message: error.message(option: "test: --modifiers")))
            }
        }
        let live = needs.subtracting(given.replaces).subtracting([.window, .modifiers])
        var moment = MomentSources(network: nil, environment: environment).moment(needs: live, click: [:])
        moment.window = .unknown("not given (openurl test --window TITLE)")
        moment.modifiers = .unknown("not given (openurl test --modifiers shift)")
        return .success(given.applied(to: moment))
    }
}

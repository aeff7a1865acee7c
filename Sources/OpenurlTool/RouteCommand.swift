import ConfigFiles
import DBus
import DesktopDefaults
import Execution
import Launching
import RouterContract
import Platform
import Routing
import URLModel

/// `openurl URL...`: hand each URL to the daemon, or route it in-process when there is none.
extension Client {
    static let busName = "io.github.openurld"
    static let objectPath = "/io/github/openurld"
    static let interface = "io.github.openurld.Router1"

    /// `noDaemon`: `openurl` found the daemon missing or too slow; do not ask it again.
    func runRoute(_ urls: [String], verbose: Bool, ask: Bool, noDaemon: Bool = false) -> Int32 {
        let token = environment["XDG_ACTIVATION_TOKEN"] ?? environment["DESKTOP_STARTUP_ID"]
        let openerProcess = OpenerDetector().detect(pid: Environment.parentProcessID)
        let display = ClickEnvironment.option { environment[$0] }
        if !noDaemon, let connection = try? DBusConnection.session() {
            var worst = ExitCode.success
            for (offset, url) in urls.enumerated() {
                var pairs: [(String, DBusValue)] = []
                // The token is for one window: only the first link raises it.
                if let token, offset == 0 { pairs.append(("activation-token", .string(token))) }
                if let name = openerProcess.processName { pairs.append(("opener", .string(name))) }
                if let id = openerProcess.desktopID { pairs.append(("opener-desktop-id", .string(id))) }
                if let id = openerProcess.flatpakID { pairs.append(("opener-flatpak-id", .string(id))) }
                if ask { pairs.append(("ask", .bool(true))) }
                if let display { pairs.append((ClickEnvironment.optionKey, display)) }
                pairs.append((ClickDeadline.optionKey, .uint64(ClickDeadline.forCallMadeNow())))
                do {
                    let reply = try connection.call(destination: Self.busName, path: Self.objectPath, interface: Self.interface,
                                                    method: "Open", arguments: [.string(url), .vardict(pairs: pairs)], timeout: ClickDeadline.clientTimeout)
                    let result = reply.first?.dictionary ?? [:]
                    let outcome = result["outcome"]?.string ?? ""
                    // The daemon answered, but past the deadline (a slow start): it did nothing.
                    if outcome == "abandoned" {
                        Output.error("openurl: openurld answered after the deadline; routing in-process")
                        return max(worst, routeEmbedded(Array(urls[offset...]), token: offset == 0 ? token : nil, opener: openerProcess.routingOpener, ask: ask, verbose: verbose))
                    }
                    if verbose { Output.error("openurl: \(result["decision"]?.string ?? "?") \(result["final_url"]?.string ?? url) (\(outcome), by openurld)") }
                    // The daemon has already notified about a failure it saw: one notification per failure.
                    if let error = result["error"]?.string {
                        Output.error("openurl: \(url): \(error)")
                        worst = max(worst, ExitCode.notCarriedOut)
                    } else if outcome.hasPrefix("failed") {
                        Output.error("openurl: \(url): \(outcome)")
                        worst = max(worst, ExitCode.notCarriedOut)
                    }
                } catch let error as DBusError where error.name == "org.freedesktop.DBus.Error.InvalidArgs" {
                    worst = max(worst, fail(error.message, code: ExitCode.usage))
                } catch let error as DBusError where ClickDeadline.isTimeout(error) {
                    Output.error("openurl: openurld did not answer within \(Int(ClickDeadline.clientTimeout)) s; routing in-process")
                    return max(worst, routeEmbedded(Array(urls[offset...]), token: offset == 0 ? token : nil, opener: openerProcess.routingOpener, ask: ask, verbose: verbose))
                } catch let error as DBusError where error.meansServiceUnavailable {
                    if verbose { Output.error("openurl: openurld is not available (\(error.message)); routing in-process (embedded mode)") }
                    return max(worst, routeEmbedded(Array(urls[offset...]), token: offset == 0 ? token : nil, opener: openerProcess.routingOpener, ask: ask, verbose: verbose))
                } catch {
                    worst = max(worst, fail("\(url): \(error)", code: ExitCode.notCarriedOut))
                }
            }
            return worst
        }
        if verbose, !noDaemon { Output.error("openurl: no session bus; routing in-process (embedded mode)") }
        return routeEmbedded(urls, token: token, opener: openerProcess.routingOpener, ask: ask, verbose: verbose)
    }

    /// Routes in this process with the same engine: a link is never lost for want of a daemon.
    func routeEmbedded(_ urls: [String], token: String?, opener: Opener?, ask: Bool, verbose: Bool) -> Int32 {
        // A broken config must not lose the click: route with the built-in defaults (the handler
        // that was the default before openurld) and say why, as the daemon does.
        let config: Config
        switch loadConfig(path: nil) {
        case .success(let loaded): config = loaded
        case .failure(let error):
            config = Config()
            _ = fail("config error, using built-in defaults (links go to the previous default handler):\n\(error.description)",
                     code: ExitCode.config, summary: "openurl: config error, using built-in defaults")
        }
        let executor = embeddedExecutor(config: config, verbose: verbose)
        var worst = ExitCode.success
        for (offset, url) in urls.enumerated() {
            do {
                let decision = try executor.engine.decide(url, opener: opener, forceAsk: ask)
                let outcome = executor.carryOut(decision, click: Click(activationToken: offset == 0 ? token : nil, opener: opener)).outcome
                if verbose { Output.error("openurl: \(decision.kind.rawValue) \(decision.finalURL) (\(outcome), embedded)") }
                if case .failed = outcome { worst = max(worst, ExitCode.notCarriedOut) }
            } catch {
                worst = max(worst, fail("\(url): \(error.message)", code: ExitCode.usage))
            }
        }
        _ = ChildReaper.reapAll()
        return worst
    }
}

import ConfigFiles
import ConfigLanguage
import DBus
import DesktopDefaults
import Execution
import Launching
import RouterContract
import Platform
import URLModel
import SessionState
import RoutingCore
import ConfigLanguage
import Routing

/// `openurl URL...`: hand each URL to the daemon, or route it in-process when there is none.
extension Client {
    /// `noDaemon`: `openurl` found the daemon missing or too slow; route in this process.
    /// Otherwise this process becomes the `openurl` handler: the click protocol (the `Open`
    /// call, its deadline, the fallback back to here) has one implementation, the handler's.
    func runRoute(_ urls: [String], verbose: Bool, ask: Bool, noDaemon: Bool = false) -> Int32 {
        let token = activationToken
        let opener = OpenerDetector().detect(pid: Environment.parentProcessID).routingOpener
        guard noDaemon else {
            let handler = Self.handlerPath
            let arguments = ["openurl"] + (verbose ? ["-v"] : []) + (ask ? ["--ask"] : []) + ["--"] + urls
            let error = replaceProcess(with: handler, arguments: arguments)
            Output.error("openurl: cannot run \(handler) (\(error)); routing in-process (embedded mode)")
            return routeEmbedded(urls, token: token, opener: opener, ask: ask, verbose: verbose)
        }
        return routeEmbedded(urls, token: token, opener: opener, ask: ask, verbose: verbose)
    }

    /// Routes in this process with the same engine: a link is never lost for want of a daemon.
    /// `contexts`, when given, holds each URL's link text and page, in order.
    func routeEmbedded(_ urls: [String], token: String?, opener: Opener?, ask: Bool, verbose: Bool, contexts: [LinkContext?] = []) -> Int32 {
        // A broken config must not lose the click: route with the built-in defaults (the handler
        // that was the default before openurld) and say why, as the daemon does.
        let config: Config
        let layers = loadLayers(path: nil)
        if let error = layers.userFailure, layers.onlyRememberedFailed {
            // The config itself loaded: it routes the click, without the remembered answers.
            config = layers.config
            _ = fail("remembered answers not loaded; the rules of the config are in force without them:\n\(error.description)",
                     code: ExitCode.config, summary: "openurl: remembered answers not loaded")
        } else if let error = layers.userFailure {
            config = Config()
            _ = fail("config error, using built-in defaults (links go to the previous default handler):\n\(error.description)",
                     code: ExitCode.config, summary: "openurl: config error, using built-in defaults")
        } else {
            config = layers.config
        }
        // Targets that are not installed: the rest of the config is used; say once which.
        let missing = config.missingApps.filter { !$0.remembered }
        if !missing.isEmpty {
            Output.error("openurl: warning: not installed, links to them are refused: " + MissingApp.listed(missing))
        }
        let executor = embeddedExecutor(config: config, verbose: verbose)
        var worst = ExitCode.success
        for (offset, url) in urls.enumerated() {
            let click = Click(activationToken: offset == 0 ? token : nil, opener: opener)
            // Without a loop the executor finishes before it returns.
            let context = offset < contexts.count ? contexts[offset] : nil
            executor.route(RouteRequest(url: url, click: click, forceAsk: ask, context: context)) { routed in
                switch routed {
                case .success(let routed):
                    if verbose { Output.error("openurl: \(routed.decision.kind.rawValue) \(routed.decision.finalURL) (\(routed.outcome), embedded)") }
                    if case .failed = routed.outcome { worst = max(worst, ExitCode.notCarriedOut) }
                case .failure(let error):
                    worst = max(worst, fail("\(url): \(error.message)", code: ExitCode.usage))
                }
            }
        }
        _ = ChildReaper.reapAll()
        return worst
    }
}

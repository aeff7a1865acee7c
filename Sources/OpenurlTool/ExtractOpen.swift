import DBus
import Execution
import Launching
import LinkExtraction
import OpenurlCommands
import Platform
import RouterContract
import RoutingCore

/// `openurl extract --open`: each link routed with the text it was shown as, so its safety
/// verdict is the one a click would get (`[paypal.com](https://evil.example/)` warns).
extension Client {
    /// Sends each link to the daemon's `Open` with its link text as `context`; without a daemon,
    /// routes them in this process (embedded mode) with the same context.
    func routeExtracted(_ links: [ExtractedLink]) -> Int32 {
        let token = activationToken
        let display = ClickEnvironment.option { environment[$0] }
        var worst = ExitCode.success
        func embedded(from offset: Int) -> Int32 {
            let rest = links[offset...]
            let contexts = rest.map { $0.linkText.map { LinkContext(linkText: $0) } }
            let opener = OpenerDetector().detect(pid: Environment.parentProcessID).routingOpener
            return max(worst, routeEmbedded(rest.map(\.url), token: offset == 0 ? token : nil, opener: opener, ask: false,
                                            verbose: false, contexts: contexts))
        }
        // No session bus: no daemon to ask; the links are routed here all the same.
        guard let connection = try? DBusConnection.session() else { return embedded(from: 0) }
        for (offset, link) in links.enumerated() {
            var options: [(String, DBusValue)] = []
            // A token raises one window: only the first link carries it.
            if let token, offset == 0 { options.append((Router1.Option.activationToken, .string(token))) }
            if let display { options.append((ClickEnvironment.optionKey, display)) }
            options.append((Router1.Option.processID, .uint32(UInt32(truncatingIfNeeded: Environment.processID))))
            if let text = link.linkText {
                options.append((Router1.Option.context, .vardict(pairs: [(Router1.Context.linkText, .string(text))])))
            }
            do {
                _ = try connection.call(destination: Router1.busName, path: Router1.objectPath, interface: Router1.interface,
                                        method: Router1.Method.open, arguments: [.string(link.url), .vardict(pairs: options)], timeout: 30)
            } catch let error as DBusError where error.meansNoDaemon {
                return embedded(from: offset)
            } catch {
                worst = max(worst, daemonFailure(error))
            }
        }
        return worst
    }
}

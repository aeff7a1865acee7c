import RoutingCore
import RouterContract
import DBus
import Launching
import ConfigLanguage
import Routing
import Catalog

/// `openurl __complete WHAT`: candidates for the shell completions, one per line, with a tab
/// before a description (fish shows it; bash and zsh completions cut or use it). It never fails
/// loudly: a Tab press with no daemon completes nothing rather than printing errors.
extension Client {
    func runComplete(_ what: String) -> Int32 {
        switch what {
        case "rules":
            // Rule names come from the daemon, so they match what `rules disable` will find.
            // Entry by entry: a Tab press completes what it can read.
            for entry in (try? askDaemon(Router1.Method.listRules))?.first?.array ?? [] {
                guard let rule = try? RuleSummary(dbusValue: entry), !rule.name.isEmpty else { continue }
                Output.print("\(rule.name)\t\(rule.enabled ? "on" : "off"), \(rule.action)")
            }
        case "recent":
            for link in RecentLink.list((try? askDaemon(Router1.Method.recent, [.uint32(20)]))?.first) {
                Output.print("\(link.id)\t\(link.finalURL)")
            }
        case "targets":
            for (target, description) in completionTargets() { Output.print("\(target)\t\(description)") }
        default:
            return fail("__complete: expected rules, recent or targets", code: ExitCode.usage)
        }
        return ExitCode.success
    }

    /// What `reopen N --with` accepts: the same list as `openurl apps` (browsers, profiles,
    /// desktop actions, the config's [apps], webmail), then the keywords.
    func completionTargets() -> [(String, String)] {
        var config = (try? loadConfig(path: nil).get()) ?? Config()
        if config.catalog.browsers.isEmpty && config.catalog.entries.isEmpty {
            // A broken config still completes what is installed, as `openurl apps` lists it.
            config.catalog = AppDiscovery(paths: paths, environment: environment).catalog()
        }
        var seen = Set<String>()
        var targets: [(String, String)] = []
        for listing in TargetListing.targets(for: nil, config: config, all: true) + TargetListing.targets(for: "mailto", config: config)
        where seen.insert(listing.target).inserted {
            targets.append((listing.target, "\(listing.kind.rawValue): \(listing.name)"))
        }
        targets += [("system", "the previous default handler"), ("copy", "copy to the clipboard")].filter { seen.insert($0.0).inserted }
        return targets
    }

    /// A daemon call for completions, with a short timeout: a Tab press must not hang.
    private func askDaemon(_ method: String, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
        let connection = try DBusConnection.session()
        return try connection.call(destination: Router1.busName, path: Router1.objectPath, interface: Router1.interface, method: method,
                                   arguments: arguments, timeout: 2)
    }
}

import DBus
import Desktop
import Foundation
import Routing

/// `openurl __complete WHAT`: candidates for the shell completions, one per line, with a tab
/// before a description (fish shows it; bash and zsh completions cut or use it). It never fails
/// loudly: a Tab press with no daemon completes nothing rather than printing errors.
extension Client {
    func runComplete(_ what: String) -> Int32 {
        switch what {
        case "rules":
            // Rule names come from the daemon, so they match what `rules disable` will find.
            let rules = (try? askDaemon("ListRules"))?.first?.array ?? []
            for rule in rules {
                guard let fields = rule.fields, fields.count == 4, let name = fields[0].string, !name.isEmpty else { continue }
                Output.print("\(name)\t\(fields[3].bool == true ? "on" : "off"), \(fields[2].string ?? "")")
            }
        case "recent":
            for entry in (try? askDaemon("Recent", [.uint32(20)]))?.first?.array ?? [] {
                let link = RecentLink(entry.dictionary ?? [:])
                Output.print("\(link.id)\t\(link.finalURL)")
            }
        case "targets":
            for (target, description) in completionTargets() { Output.print("\(target)\t\(description)") }
        default:
            return fail("__complete: expected rules, recent or targets", code: ExitCode.usage)
        }
        return ExitCode.success
    }

    /// What `reopen N --with` accepts: the config's apps and webmail, the built-in webmail,
    /// desktop entries for web links, and the keywords.
    func completionTargets() -> [(String, String)] {
        let config = (try? loadConfig(path: nil).get()) ?? Config()
        var targets: [(String, String)] = []
        targets += config.apps.keys.sorted().map { ($0, "app in config") }
        targets += Set(config.webmail.keys).union(Webmail.builtIn.keys).sorted().map { ($0, "webmail") }
        let launcher = AppLauncher(paths: paths, environment: environment, launcher: ProcessLauncher(workingDirectory: paths.home))
        var seen = Set<String>()
        for scheme in ["https", "mailto"] {
            for app in launcher.listApps(forScheme: scheme) where seen.insert(app.id).inserted { targets.append((app.id, app.name)) }
        }
        targets += [("system", "the previous default handler"), ("copy", "copy to the clipboard")]
        return targets
    }

    /// A daemon call for completions, with a short timeout: a Tab press must not hang.
    private func askDaemon(_ method: String, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
        let connection = try DBusConnection.session()
        return try connection.call(destination: Self.busName, path: Self.objectPath, interface: Self.interface, method: method,
                                   arguments: arguments, timeout: 2)
    }
}

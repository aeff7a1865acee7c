import Execution
import Launching
import DBus
import JSON
import RouterContract
import OpenurlCommands
import Platform
import RoutingCore
import ConfigLanguage

/// Commands that talk to the daemon: status, reload, rules, recent, reopen, copy.
extension Client {
    /// Calls a `Router1` method, auto-starting the daemon through D-Bus activation.
    func callDaemon(_ method: String, _ arguments: [DBusValue] = [], interface: String = Router1.interface) throws -> [DBusValue] {
        let connection = try DBusConnection.session()
        return try connection.call(destination: Router1.busName, path: Router1.objectPath, interface: interface, method: method,
                                   arguments: arguments, timeout: 30)
    }

    /// The click's activation token, as the desktop handed it to this process.
    var activationToken: String? { environment["XDG_ACTIVATION_TOKEN"] ?? environment["DESKTOP_STARTUP_ID"] }

    func daemonFailure(_ error: Error) -> Int32 {
        if let error = error as? ContractError { return fail("openurld answered what this openurl cannot read: \(error)", code: ExitCode.notCarriedOut) }
        if let error = error as? DBusError {
            if error.name == Router1.Error.configInvalid { return fail(error.message, code: ExitCode.config) }
            if error.name == Router1.Error.invalidArgs { return fail(error.message, code: ExitCode.usage) }
            if error.meansServiceUnavailable { return fail("openurld is not running (\(error.message))", code: ExitCode.notCarriedOut) }
            return fail(error.message, code: ExitCode.notCarriedOut)
        }
        return fail("cannot reach openurld: \(error)", code: ExitCode.notCarriedOut)
    }

    func runReload() -> Int32 {
        do {
            _ = try callDaemon(Router1.Method.reload)
            Output.print("reloaded")
            return ExitCode.success
        } catch {
            return daemonFailure(error)
        }
    }

    func runRules(_ arguments: [String]) -> Int32 {
        do {
            if let verb = arguments.first {
                guard ["enable", "disable", "forget"].contains(verb), arguments.count == 2 else {
                    return fail("usage: \(CommandTable.spec(.rules).synopsis)", code: ExitCode.usage)
                }
                if verb == "forget" {
                    _ = try callDaemon(Router1.Method.forgetRemembered, [.string(arguments[1])])
                    Output.print("forgot \"\(arguments[1])\"")
                    return ExitCode.success
                }
                _ = try callDaemon(Router1.Method.setRuleEnabled, [.string(arguments[1]), .bool(verb == "enable")])
                return ExitCode.success
            }
            for rule in try RuleDescription.list(try callDaemon(Router1.Method.describeRules).first) {
                let name = rule.name.isEmpty ? "(unnamed)" : rule.name
                let origin = LayerText.origin(layer: rule.layer, file: rule.file, line: Int(rule.line), locked: rule.locked, recommended: rule.recommended)
                Output.print("\(rule.index == 0 ? "remembered" : String(rule.index))\t\(rule.enabled ? "on " : "off")\t\(name)\t\(rule.action)\t\(origin)")
            }
            return ExitCode.success
        } catch {
            return daemonFailure(error)
        }
    }

    func runRecent(_ parsed: ParsedCommand) -> Int32 {
        if parsed.flag("--clear") { return clearRecent() }
        guard let limit = UInt32(parsed.positionals.first ?? "20") else {
            return fail("recent: N must be a number (usage: \(parsed.spec.synopsis))", code: ExitCode.usage)
        }
        do {
            // Probes are left out here, not by the daemon: all are asked for, so N counts clicks.
            let withProbes = parsed.flag("--probes")
            var links = RecentLink.list(try callDaemon(Router1.Method.recent, [.uint32(withProbes ? limit : 0)]).first)
            if !withProbes {
                links = links.filter { $0.outcome != ProbeLink.outcome }
                if limit > 0 { links = Array(links.prefix(Int(limit))) }
            }
            if parsed.flag("--json") {
                for link in links { Output.print(link.json.text) }
            } else {
                Output.print(RecentLink.table(links))
            }
            return ExitCode.success
        } catch {
            return daemonFailure(error)
        }
    }

    /// `openurl recent --clear`: the daemon forgets its list and removes the file; without a
    /// daemon the file is removed here.
    private func clearRecent() -> Int32 {
        do {
            _ = try callDaemon(Router1.Method.clearRecent)
        } catch let error as DBusError where error.meansServiceUnavailable {
            let path = paths.stateDirectory + "recent.tsv"
            do { try FileSystem.remove(path) } catch where !error.isNotFound {
                return fail("cannot remove \(path): \(error.message)", code: ExitCode.notCarriedOut)
            } catch {}
        } catch {
            return daemonFailure(error)
        }
        Output.print("recent links cleared")
        return ExitCode.success
    }

    func runReopen(_ parsed: ParsedCommand) -> Int32 {
        let target = parsed.value("--with") ?? ""
        guard let id = UInt32(parsed.positionals[0]) else {
            return fail("reopen: N must be the id of a recent link (see openurl recent)", code: ExitCode.usage)
        }
        // The caller's display and token go with it, as the handler sends them with a click: a
        // daemon without a display of its own then shows an ask's window here.
        var options: [(String, DBusValue)] = []
        if let display = ClickEnvironment.option({ environment[$0] }) { options.append((ClickEnvironment.optionKey, display)) }
        if let token = activationToken, !token.isEmpty {
            options.append((Router1.Option.activationToken, .string(token)))
        }
        do {
            _ = try callDaemon(Router1.Method.reopenWithOptions, [.uint32(id), .string(target), .vardict(pairs: options)])
            return ExitCode.success
        } catch let error as DBusError where error.name == "org.freedesktop.DBus.Error.UnknownMethod" {
            // A daemon older than ReopenWithOptions.
            do { _ = try callDaemon(Router1.Method.reopen, [.uint32(id), .string(target)]) } catch { return daemonFailure(error) }
            return ExitCode.success
        } catch {
            return daemonFailure(error)
        }
    }

    func runCopy(_ url: String) -> Int32 {
        do {
            let display = ClickEnvironment.option { environment[$0] }
            _ = try callDaemon(Router1.Method.copy, [.string(url), .vardict(pairs: display.map { [(ClickEnvironment.optionKey, $0)] } ?? [])])
            return ExitCode.success
        } catch let error as DBusError where error.meansNoDaemon {
            return copyEmbedded(url)
        } catch let error as DBusError {
            return daemonFailure(error)
        } catch {
            return copyEmbedded(url)
        }
    }

    private func copyEmbedded(_ url: String) -> Int32 {
        let config = (try? loadConfig(path: nil).get()) ?? Config()
        do {
            var outcome = Outcome.asking
            // Without a loop the executor finishes before it returns.
            try embeddedExecutor(config: config, verbose: false).copy(url, click: Click()) { outcome = $0 }
            return outcome == .done ? ExitCode.success : ExitCode.notCarriedOut
        } catch {
            return fail("copy failed: \(error)", code: ExitCode.notCarriedOut)
        }
    }
}

extension DBusError {
    /// True when no daemon can answer (none running and none activatable, or no session bus):
    /// the command does the work in this process instead.
    var meansNoDaemon: Bool {
        meansServiceUnavailable || name == "org.freedesktop.DBus.Error.NoServer" || name == "org.freedesktop.DBus.Error.FileNotFound"
    }
}

extension Client {
    /// `openurl settings`: becomes `openurl-settings` (the multi-call binary's GTK window),
    /// from the directory this binary was installed in, with the same arguments.
    func runSettings(_ arguments: [String]) -> Int32 {
        let own = (try? FileSystem.resolvingSymbolicLinks("/proc/self/exe")) ?? ""
        let program = Path.join(Path.parent(own), "openurl-settings")
        let problem = replaceProcess(with: program, arguments: ["openurl-settings"] + arguments)
        return fail("cannot start the settings window \(program): \(problem) (make install links it beside openurld)", code: ExitCode.notCarriedOut)
    }
}

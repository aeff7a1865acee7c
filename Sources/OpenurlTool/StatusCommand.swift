import BrowserCompanion
import RouterContract
import DBus
import Notifying
import DesktopDefaults
import Execution
import Launching
import OpenurlCommands
import Platform
import ConfigLanguage

/// `openurl status`: the daemon, its view of the session, and every path a click can take, each
/// with the file that decides it and what to run to fix it. Exit 4 when a path is broken, 3 when
/// the config is, else 0.
extension Client {
    func runStatus(_ parsed: ParsedCommand) -> Int32 {
        _ = parsed.flag("--check")  // accepted for scripts: status always checks every path
        var broken = 0
        var configBroken = false
        let loaded = try? loadConfig(path: nil).get()
        let settings = loaded?.settings ?? Config.Settings()
        func line(_ verdict: PathStatus.Verdict, _ label: String, _ detail: String, fix: String? = nil) {
            let mark: String
            switch verdict {
            case .ok: mark = "ok    "
            case .broken: mark = "BROKEN"; broken += 1
            case .unused: mark = "-     "
            case .note: mark = "note  "
            }
            Output.print("\(mark)  \(label): \(detail)")
            if let fix { Output.print("        fix: \(fix)") }
        }

        Output.print("daemon:")
        if let connection = try? DBusConnection.session() {
            do {
                let get = { (name: String) throws -> DBusValue? in
                    try connection.call(destination: Router1.busName, path: Router1.objectPath, interface: "org.freedesktop.DBus.Properties",
                                        method: "Get", arguments: [.string(Router1.interface), .string(name)], timeout: 10).first
                }
                let version = try get(Router1.Property.version)?.string ?? "?"
                let path = try get(Router1.Property.configPath)?.string ?? "?"
                let error = try get(Router1.Property.configError)?.string ?? ""
                let pid = try? connection.processID(of: Router1.busName)
                line(.ok, "openurld \(version)", "running\(pid.map { " (pid \($0))" } ?? "") on \(Router1.busName)")
                if error.isEmpty {
                    line(.ok, "config", path + (FileSystem.exists(path) ? "" : " (missing: built-in defaults)"))
                } else {
                    configBroken = true
                    line(.broken, "config", "\(path) failed to load; the daemon keeps the last config that loaded (the built-in defaults if none did):\n\(error)", fix: "openurl check, then openurl reload")
                }
                let sources = ConfigSourceDescription.list(try? connection.call(destination: Router1.busName, path: Router1.objectPath, interface: Router1.interface,
                                                                                method: Router1.Method.configSources, timeout: 10).first)
                for source in sources where source.layer == "system" || source.isSiteList {
                    layerLine(source, line: line)
                }
                if let systemError = try? get(Router1.Property.systemConfigError)?.string, !systemError.isEmpty {
                    configBroken = true
                    line(.broken, "system configuration", LayerText.systemProblem(systemError), fix: "tell your administrator (openurl check --system shows it)")
                }
                daemonEnvironment(try? get(Router1.Property.environment), line: line)
                daemonMoment(try? get(Router1.Property.moment), line: line)
            } catch let error as DBusError {
                line(.broken, "openurld", "cannot be reached or started over D-Bus (\(error.name): \(error.message))",
                     fix: "make install (the D-Bus service file), or see the daemon's log")
            } catch {
                line(.broken, "openurld", "cannot be reached: \(error)", fix: "make install")
            }
            notificationServer(connection, line: line)
        } else {
            line(.note, "session bus", "none: openurl routes each link in-process, and GIO apps run Exec=openurl")
        }
        let clipboard = ClipboardSelector.describe(setting: settings.clipboard, environment: environment, bus: try? DBusConnection.session())
        line(clipboard.hasPrefix("none") ? .note : .ok, "clipboard", clipboard)
        if let picker = settings.picker, let program = picker.first {
            let found = ProcessLauncher.resolve(program, environment: environment) != nil
            line(found ? .ok : .note, "picker", picker.joined(separator: " ") + (found ? "" : " (not on PATH: ask falls back to the chooser window, then notification buttons)"))
        } else {
            line(.ok, "picker", "not set (ask uses the chooser window, then notification buttons)")
        }
        if let loaded {
            for text in Self.safetyLines(loaded) {
                let (label, detail) = text.firstIndex(of: ":").map { (String(text[..<$0]), String(text[text.index($0, offsetBy: 2)...])) } ?? ("safety", text)
                line(text.containsText("cannot read") ? .broken : .ok, label, detail)
            }
        }
        let unitDirs = [paths.configHome + "/systemd/user", paths.dataHome + "/systemd/user", "/etc/systemd/user",
                        "/usr/local/lib/systemd/user", "/usr/lib/systemd/user"]
        if let unit = unitDirs.map({ $0 + "/openurld.service" }).first(where: { FileSystem.exists($0) }) {
            line(.ok, "systemd unit", unit)
        } else {
            line(.note, "systemd unit", "not installed: D-Bus starts openurld directly")
        }
        for found in HostManifests.find(home: paths.home, configHome: paths.configHome) {
            let label = "companion host (\(found.browser))"
            if let problem = found.problem {
                line(.broken, label, "\(found.path) \(problem)", fix: "make install (it writes the manifest naming openurl-native-host)")
            } else if let host = found.host {
                line(.ok, label, "\(found.path) → \(host)")
            } else {
                line(.note, label, "no manifest: links clicked inside \(found.browser) are not routed (make install puts it at \(found.path); "
                     + "then install the extension, README: Links clicked inside the browser)")
            }
        }

        Output.print("paths:")
        for status in PathCheck(paths: paths, environment: environment).run() {
            line(status.verdict, status.path, status.detail, fix: status.fix)
        }
        Output.print("These are read from the files; `openurl doctor` runs each tool with a probe link to prove it, and --fix mends what goes around.")
        if broken > 0 { return ExitCode.notCarriedOut }
        return configBroken ? ExitCode.config : ExitCode.success
    }

    /// One file of the daemon's `ConfigSources`: a system file, or a site list with its version and entries.
    private func layerLine(_ source: ConfigSourceDescription, line: (PathStatus.Verdict, String, String, String?) -> Void) {
        let (label, detail) = LayerText.sourceLine(source)
        if let problem = source.problem, !problem.isEmpty {
            let kept = source.lastGood == true ? "its last good version is in force" : "left out"
            line(.note, label, detail + "; \(kept):\n" + problem, nil)
        } else {
            line(.ok, label, detail, nil)
        }
    }

    /// The daemon's display variables, from its `Environment` property.
    private func daemonEnvironment(_ value: DBusValue?, line: (PathStatus.Verdict, String, String, String?) -> Void) {
        guard let entries = value?.dictionaryEntries else {
            line(.note, "daemon environment", "unknown (this openurld has no Environment property)", nil)
            return
        }
        var shown: [String: String] = [:]
        for entry in entries { if let key = entry.key.string, let value = entry.value.string { shown[key] = value } }
        let text = shown.keys.sorted().map { "\($0)=\(shown[$0] ?? "")" }.joined(separator: " ")
        if shown["DISPLAY"] == nil && shown["WAYLAND_DISPLAY"] == nil {
            // Not broken: each click's display is used (openurl sends it, a GIO caller's is read
            // from the caller), but whatever the daemon starts on its own has none.
            line(.note, "daemon environment", "no DISPLAY or WAYLAND_DISPLAY of its own: each click's display is used instead" + (text.isEmpty ? "" : " (\(text))"),
                 "run `dbus-update-activation-environment --systemd DISPLAY WAYLAND_DISPLAY XAUTHORITY XDG_SESSION_TYPE` when the session starts, then restart openurld")
            return
        }
        let mine = ["DISPLAY", "WAYLAND_DISPLAY"].filter { key in environment[key].map { !$0.isEmpty && shown[key] != $0 } ?? false }
        if mine.isEmpty {
            line(.ok, "daemon environment", text, nil)
        } else {
            line(.note, "daemon environment", text + " (this shell has " + mine.map { "\($0)=\(environment[$0] ?? "")" }.joined(separator: " ") + ")", nil)
        }
    }

    /// What the daemon sees of the moment: the network and VPN, and whether its display tells
    /// window titles and held keys (`match.network`, `vpn`, `window`, `modifiers`).
    private func daemonMoment(_ value: DBusValue?, line: (PathStatus.Verdict, String, String, String?) -> Void) {
        guard let entries = value?.dictionaryEntries else {
            line(.note, "moment", "unknown (this openurld has no Moment property)", nil)
            return
        }
        for entry in entries {
            guard let key = entry.key.string, let text = entry.value.string else { continue }
            let verdict: PathStatus.Verdict = text.hasPrefix("unknown") || text.hasPrefix("no ") ? .note : .ok
            line(verdict, key, text, nil)
        }
    }

    /// The notification server and its capabilities.
    private func notificationServer(_ connection: DBusConnection, line: (PathStatus.Verdict, String, String, String?) -> Void) {
        guard let client = try? NotificationClient(connection: connection), let info = try? client.serverInformation() else {
            line(.note, "notifications", "no server on the bus: copy confirmations are not shown, and ask needs [settings] picker", nil)
            return
        }
        let capabilities = ((try? client.capabilities()) ?? []).sorted().joined(separator: ", ")
        line(.ok, "notifications", "\(info.name) \(info.version): \(capabilities)", nil)
    }
}

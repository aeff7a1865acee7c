import RouterContract
import Platform

/// What to launch: the resolved form of an `open` target (templates already substituted).
public enum LaunchTarget: Sendable, Equatable {
    /// A desktop entry by id, optionally one of its desktop actions (`firefox.desktop:new-private-window`).
    case desktopEntry(id: String, action: String? = nil)
    /// A named app `[apps.NAME]` with `desktop` + `args`: the entry's program (its `Exec` up to the
    /// first field code) followed by `arguments`, which replace the `Exec`'s own arguments.
    case desktopEntryWithArguments(id: String, arguments: [String])
    /// A named app `[apps.NAME]` with a raw `exec` argv, run as given.
    case argv([String])
    /// A desktop entry's `Exec` with `arguments` inserted before the URL (a browser profile or a
    /// private window); always spawned, since D-Bus activation cannot carry arguments.
    case desktopEntryAdding(id: String, arguments: [String])

    /// Parses `ID.desktop` or `ID.desktop:ACTION` (as written in the config) into a target.
    public static func parse(desktopTarget text: String) -> LaunchTarget {
        if let range = text.firstRange(of: ".desktop:") {
            return .desktopEntry(id: String(text[..<range.upperBound].dropLast()),
                                 action: String(text[range.upperBound...]))
        }
        return .desktopEntry(id: text)
    }
}

/// A `DBusActivatable` entry's launch: call `org.freedesktop.Application.Open(uris, platformData)`
/// (or `ActivateAction(action, [], platformData)`) on `busName` at `objectPath`.
public struct DBusActivationRequest: Sendable, Equatable {
    /// The well-known bus name (the desktop id without `.desktop`).
    public var busName: String
    /// The object path derived from the bus name.
    public var objectPath: String
    /// The URIs to open.
    public var uris: [String]
    /// The desktop action to activate instead of `Open`, if any.
    public var action: String?
    /// `activation-token` and `desktop-startup-id` when a token was given.
    public var platformData: [String: String]
}

/// How a launch is carried out.
public enum LaunchPlan: Sendable, Equatable {
    /// Spawn this argv (detached, through `ProcessLauncher`).
    case spawn([String])
    /// Call the app over D-Bus; `fallback` is the argv from its `Exec`, used when no activator is given.
    case dbusActivation(DBusActivationRequest, fallback: [String]?)
}

/// Why a launch failed.
public enum LaunchError: Error, Equatable, CustomStringConvertible {
    /// No visible desktop entry with that id.
    case noSuchEntry(String)
    /// The entry has no action with that id.
    case noSuchAction(entry: String, action: String)
    /// The `Exec` line is missing or bad.
    case badExec(ExecLineError)
    /// Spawning failed.
    case spawn(SpawnError)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .noSuchEntry(let id): return "no desktop entry \(id)"
        case .noSuchAction(let entry, let action): return "\(entry) has no action \(action)"
        case .badExec(let error): return error.description
        case .spawn(let error): return error.description
        }
    }
}

/// Launches desktop entries, their actions and raw argvs with a URL, building the argv from the
/// `Exec` line ourselves (so the URL is one argv element and never meets a shell) and spawning it
/// detached with `ProcessLauncher`.
public struct AppLauncher: Sendable {
    /// Where desktop entries are looked up.
    public var entries: DesktopEntryDirectory
    /// The environment launched apps get (plus the activation token); `TERMINAL` and `PATH` are read from it.
    public var environment: [String: String]
    /// The spawner.
    public var launcher: ProcessLauncher

    /// Creates a launcher over the given XDG paths and child environment.
    public init(paths: XDGPaths, environment: [String: String], launcher: ProcessLauncher = ProcessLauncher()) {
        entries = DesktopEntryDirectory(paths: paths)
        self.environment = environment
        self.launcher = launcher
    }

    /// Works out how `target` would be launched with `url`, without launching anything.
    public func plan(_ target: LaunchTarget, url: String, activationToken: String? = nil) throws -> LaunchPlan {
        switch target {
        case .argv(let argv):
            return .spawn(argv)
        case .desktopEntryWithArguments(let id, let arguments):
            let entry = try lookup(id)
            let words = ExecLine.programPrefix(try words(of: entry.exec, entry: entry))
            return .spawn(wrapInTerminal(words + arguments, if: entry.isTerminal))
        case .desktopEntryAdding(let id, let arguments):
            let entry = try lookup(id)
            let words = ExecLine.inserting(arguments, beforeURLIn: try words(of: entry.exec, entry: entry))
            let expanded = ExecLine.expand(words, url: url, icon: entry.icon, name: entry.name, entryPath: entry.path)
            return .spawn(wrapInTerminal(expanded, if: entry.isTerminal))
        case .desktopEntry(let id, let actionID):
            let entry = try lookup(id)
            var exec = entry.exec
            if let actionID {
                guard let action = entry.actions.first(where: { $0.id == actionID }) else {
                    throw LaunchError.noSuchAction(entry: entry.id, action: actionID)
                }
                exec = action.exec
            }
            let argv = Result { () throws -> [String] in
                let expanded = ExecLine.expand(try words(of: exec, entry: entry), url: url, icon: entry.icon,
                                               name: entry.name, entryPath: entry.path)
                return wrapInTerminal(expanded, if: entry.isTerminal)
            }
            if entry.isDBusActivatable {
                var platformData: [String: String] = [:]
                if let token = activationToken, !token.isEmpty {
                    platformData = ["activation-token": token, "desktop-startup-id": token]
                }
                let request = DBusActivationRequest(busName: entry.busName, objectPath: entry.objectPath,
                                                    uris: [url], action: actionID, platformData: platformData)
                return .dbusActivation(request, fallback: try? argv.get())
            }
            return .spawn(try argv.get())
        }
    }

    /// Launches `target` with `url`. A `DBusActivatable` entry is handed to `dbusActivator` (the
    /// daemon owns the bus connection); without one its `Exec` line is spawned instead.
    /// Returns the spawned pid, or nil when the launch went over D-Bus.
    @discardableResult
    public func launch(_ target: LaunchTarget, url: String, activationToken: String? = nil,
                       dbusActivator: ((DBusActivationRequest) throws -> Void)? = nil) throws -> Int32? {
        let argv: [String]
        switch try plan(target, url: url, activationToken: activationToken) {
        case .spawn(let planned):
            argv = planned
        case .dbusActivation(let request, let fallback):
            if let dbusActivator {
                try dbusActivator(request)
                return nil
            }
            guard let fallback else { throw LaunchError.badExec(.missing(entry: request.busName)) }
            argv = fallback
        }
        do {
            return try launcher.spawn(argv, environment: ProcessLauncher.environment(environment,
                                                                                      activationToken: activationToken))
        } catch let error as SpawnError {
            throw LaunchError.spawn(error)
        }
    }

    /// Apps that declare `x-scheme-handler/SCHEME`, as (desktop id, name), excluding openurld itself.
    public func listApps(forScheme scheme: String) -> [(id: String, name: String)] {
        entries.entries(forScheme: scheme)
            .filter { $0.id != Router1.desktopID }
            .map { ($0.id, $0.name) }
    }

    /// The terminal used for `Terminal=true` entries: `$TERMINAL` (split into words, so
    /// `TERMINAL="foot --app-id x"` works) or `x-terminal-emulator` (Debian's alternative),
    /// always followed by `-e` and the command's argv, the convention both share.
    public func terminalCommand() -> [String] {
        if let value = environment["TERMINAL"], let words = try? ExecLine.tokenize(value, entry: "TERMINAL"),
           !words.isEmpty {
            return words + ["-e"]
        }
        return ["x-terminal-emulator", "-e"]
    }

    private func wrapInTerminal(_ argv: [String], if terminal: Bool) -> [String] {
        terminal ? terminalCommand() + argv : argv
    }

    private func lookup(_ id: String) throws -> DesktopEntry {
        guard let entry = entries.entry(id: id) else { throw LaunchError.noSuchEntry(id) }
        return entry
    }

    private func words(of exec: String?, entry: DesktopEntry) throws -> [String] {
        guard let exec else { throw LaunchError.badExec(.missing(entry: entry.id)) }
        do { return try ExecLine.tokenize(exec, entry: entry.id) } catch let error as ExecLineError {
            throw LaunchError.badExec(error)
        }
    }
}

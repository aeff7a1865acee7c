import RouterContract
import Platform
import RoutingCore

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
    /// There is no handler from before openurld to give the link to, with why.
    case noSystemHandler(String)
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
        case .noSystemHandler(let why): return why
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
    /// The desktop id of the handler that was the default for a scheme before openurld (for
    /// `system`); nil when there is none to ask.
    public var systemHandler: (@Sendable (String) throws -> String)?

    /// Creates a launcher over the given XDG paths and child environment.
    public init(paths: XDGPaths, environment: [String: String], launcher: ProcessLauncher = ProcessLauncher(),
                systemHandler: (@Sendable (String) throws -> String)? = nil) {
        entries = DesktopEntryDirectory(paths: paths)
        self.environment = environment
        self.launcher = launcher
        self.systemHandler = systemHandler
    }

    /// Works out how `launch` would be carried out, without launching anything.
    public func plan(_ launch: Launch, activationToken: String? = nil) throws -> LaunchPlan {
        switch launch {
        case .argv(let argv):
            return .spawn(argv)
        case .system(let url):
            let scheme = url.prefix(while: { $0 != ":" }).lowercased()
            guard let systemHandler else { throw LaunchError.noSystemHandler("no handler from before openurld is known for \(scheme)") }
            return try plan(.desktopEntry(id: try systemHandler(scheme), action: nil, url: url), activationToken: activationToken)
        case .desktopEntryWithArguments(let id, let arguments):
            let entry = try lookup(id)
            let words = ExecLine.programPrefix(try words(of: entry.exec, entry: entry))
            return .spawn(wrapInTerminal(words + arguments, if: entry.isTerminal))
        case .desktopEntryAdding(let id, let arguments, let url):
            let entry = try lookup(id)
            let words = ExecLine.inserting(arguments, beforeURLIn: try words(of: entry.exec, entry: entry))
            let expanded = ExecLine.expand(words, url: url, icon: entry.icon, name: entry.name, entryPath: entry.path)
            return .spawn(wrapInTerminal(expanded, if: entry.isTerminal))
        case .desktopEntryAppending(let id, let arguments):
            let entry = try lookup(id)
            let words = try words(of: entry.exec, entry: entry).filter { word in
                !(word.count == 2 && word.first == "%" && word.last.map { "uUfF".contains($0) } == true)
            }
            let expanded = ExecLine.expand(words, url: nil, icon: entry.icon, name: entry.name, entryPath: entry.path, appendURLIfMissing: false)
            return .spawn(wrapInTerminal(expanded + arguments, if: entry.isTerminal))
        case .desktopEntry(let id, let actionID, let url):
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
                if let token = ProcessLauncher.usableToken(activationToken) {
                    platformData = ["activation-token": token, "desktop-startup-id": token]
                }
                let request = DBusActivationRequest(busName: entry.busName, objectPath: entry.objectPath,
                                                    uris: [url], action: actionID, platformData: platformData)
                return .dbusActivation(request, fallback: try? argv.get())
            }
            return .spawn(try argv.get())
        }
    }

    /// Carries `launch` out. A `DBusActivatable` entry is handed to `dbusActivator` (the owner
    /// of the bus connection); without one its `Exec` line is spawned instead.
    /// Returns the spawned pid, or nil when the launch went over D-Bus.
    @discardableResult
    public func launch(_ launch: Launch, activationToken: String? = nil,
                       dbusActivator: ((DBusActivationRequest) throws -> Void)? = nil) throws -> Int32? {
        let argv: [String]
        switch try plan(launch, activationToken: activationToken) {
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

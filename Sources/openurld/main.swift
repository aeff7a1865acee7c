// openurld: the link-routing daemon. Owns io.github.openurld on the session bus.
#if canImport(Glibc)
import Glibc
#endif
import DBus
import Desktop
import Foundation

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--version") {
    print("openurld \(Daemon.version)")
    exit(0)
}
if let unknown = arguments.first(where: { !["--replace", "--verbose", "-v"].contains($0) }) {
    FileHandle.standardError.write(Data("usage: openurld [--replace] [--verbose] [--version]\nopenurld: unknown argument \(unknown)\n".utf8))
    exit(2)
}
Log.verbose = arguments.contains("--verbose") || arguments.contains("-v")

func start() throws -> Never {
    let environment = ProcessInfo.processInfo.environment
    _ = ChildReaper.becomeSubreaper()
    let loop = try EventLoop()
    let connection = try DBusConnection.session()
    let effects = DaemonEffects(connection: connection, loop: loop, environment: environment)
    let daemon = Daemon(connection: connection, loop: loop, environment: environment, effects: effects)
    effects.router = daemon.router
    let object = DBusObject(path: Daemon.objectPath, interfaces: [daemon.routerInterface, daemon.applicationInterface])
    try connection.export(object)
    daemon.object = object
    daemon.reload()
    // Always replaceable, so that `openurld --replace` (after an upgrade) can take over from us.
    let replacing = arguments.contains("--replace")
    let flags: DBusNameFlags = replacing ? [.doNotQueue, .allowReplacement, .replaceExisting] : [.doNotQueue, .allowReplacement]
    let nameLost = try connection.onSignal(interface: "org.freedesktop.DBus", member: "NameLost", path: "/org/freedesktop/DBus",
                                           sender: "org.freedesktop.DBus", arg0: Daemon.busName) { _ in
        Log.info("another openurld took over \(Daemon.busName) (openurld --replace); exiting")
        loop.stop()
    }
    let result = try connection.requestName(Daemon.busName, flags: flags)
    guard result.isOwner else {
        let owner = (try? connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                          method: "GetConnectionUnixProcessID", arguments: [.string(Daemon.busName)]).first?.uint32).flatMap { $0 }
        throw DaemonError("another openurld owns \(Daemon.busName)\(owner.map { " (pid \($0))" } ?? ""); use --replace to take over")
    }
    if replacing { Log.info("took over \(Daemon.busName)") }
    try loop.add(connection)
    connection.onDisconnect {
        Log.info("lost the session bus; exiting")
        loop.stop()
    }
    let watcher = try ConfigWatcher(path: daemon.configPath, loop: loop) { daemon.reload() }
    let defaultsGuard = try DefaultsGuard(handlers: DefaultHandlers(paths: daemon.paths), loop: loop,
                                          enabled: { daemon.router.engine.config.settings.guardDefaults },
                                          notify: { request, onAction in effects.show(request, kind: .defaults, onAction: onAction) })
    let signals = try SignalWatcher(signals: [SIGTERM, SIGINT, SIGHUP, SIGCHLD], loop: loop) { signal in
        switch signal {
        case SIGHUP: daemon.reload()
        case SIGCHLD: _ = ChildReaper.reapAll()
        default:
            Log.info("exiting on signal \(signal)")
            loop.stop()
        }
    }
    Log.info("openurld \(Daemon.version) serving \(Daemon.busName), config \(daemon.configPath)")
    _ = loop.run()
    withExtendedLifetime((signals, watcher, defaultsGuard, nameLost)) {}
    daemon.recent.save()
    if (try? connection.processID(of: Daemon.busName)) == UInt32(getpid()) { _ = try? connection.releaseName(Daemon.busName) }
    connection.flush()
    exit(0)
}

do {
    try start()
} catch {
    Log.error("\(error)")
    exit(1)
}

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
if let unknown = arguments.first(where: { $0 != "--replace" }) {
    FileHandle.standardError.write(Data("usage: openurld [--replace] [--version]\nopenurld: unknown argument \(unknown)\n".utf8))
    exit(2)
}

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
    let flags: DBusNameFlags = arguments.contains("--replace") ? [.doNotQueue, .replaceExisting] : [.doNotQueue]
    let result = try connection.requestName(Daemon.busName, flags: flags)
    guard result.isOwner else {
        let owner = (try? connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                          method: "GetConnectionUnixProcessID", arguments: [.string(Daemon.busName)]).first?.uint32).flatMap { $0 }
        throw DaemonError("another openurld owns \(Daemon.busName)\(owner.map { " (pid \($0))" } ?? ""); use --replace to take over")
    }
    try loop.add(connection)
    // Losing the bus is a failure (exit 1), so systemd's Restart=on-failure brings us back.
    nonisolated(unsafe) var lostBus = false
    connection.onDisconnect {
        Log.error("lost the session bus; exiting")
        lostBus = true
        loop.stop()
    }
    let watcher = try ConfigWatcher(path: daemon.configPath, loop: loop) { daemon.reload() }
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
    withExtendedLifetime((signals, watcher)) {}
    daemon.recent.save()
    _ = try? connection.releaseName(Daemon.busName)
    connection.flush()
    exit(lostBus ? 1 : 0)
}

do {
    try start()
} catch {
    Log.error("\(error)")
    exit(1)
}

// openurld: the link-routing daemon. Owns io.github.openurld on the session bus.
import Records
import RouterContract
import ConfigFiles
import Execution
import Notifying
import DBus
import DesktopDefaults
import Launching
import LinkSafety
import Platform
import ConfigLanguage
import Routing

/// `openurld --help`.
let usage = """
    usage: openurld [--replace] [--verbose] [--log FILE] [--version] [--help]
    The link-routing daemon behind openurl; D-Bus activation starts it (see openurld(1)).
      --replace    take the bus name over from a running openurld
      -v, --verbose  log copied text and whole mailto links (kept out of the log by default)
      --log FILE   append log lines to FILE (default: stderr, plus $XDG_STATE_HOME/openurld/log
                   when stderr is not the journal)
      --version    print the version
      -h, --help   show this help
    """

/// The daemon's entry point: `openurld` in the multi-call binary.
public enum DaemonMain {
    /// Parses `arguments` (argv, program name first), serves the bus until told to stop, and exits.
    public static func run(arguments: [String]) -> Never {
        // The wrapper that ties a question's child to the daemon (see ParentDeath); not a daemon.
        if arguments.dropFirst().first == ParentDeath.flag { ParentDeath.runTied(Array(arguments.dropFirst(2))) }
        var replace = false
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--version":
                print("openurld \(Daemon.version)")
                exitProcess(0)
            case "-h", "--help":
                print(usage)
                exitProcess(0)
            case "--replace": replace = true
            case "-v", "--verbose": Log.verbose = true
            case "--log":
                guard let file = rest.popFirst() else {
                    StandardStream.error.write("openurld: --log needs a file name\n\(usage)\n")
                    exitProcess(2)
                }
                Log.useFile(file)
            case let other where other.hasPrefix("--log="): Log.useFile(String(other.dropFirst("--log=".count)))
            default:
                StandardStream.error.write("openurld: unknown argument \(argument)\n\(usage)\n")
                exitProcess(2)
            }
        }
        if Log.file == nil, !Log.toJournal, !StandardStream.error.isTerminal {
            Log.useFile(XDGPaths(environment: Environment.current()).stateDirectory + "log", alsoStderr: true, own: true)
        }
        do {
            try start(replace: replace)
        } catch {
            Log.error("\(error)")
            exitProcess(1)
        }
    }
}

func start(replace: Bool) throws -> Never {
    let environment = Environment.current()
    Memory.shareOneHeap()
    _ = ChildReaper.becomeSubreaper()
    // Pickers and the chooser are spawned through this binary so the kernel ends them with us.
    QuestionChildren.shared.tie()
    let loop = try EventLoop()
    let connection = try DBusConnection.session()
    let daemon = try Daemon(connection: connection, loop: loop, environment: environment)
    try connection.export(DBusObject(path: Router1.objectPath, interfaces: [daemon.routerInterface, daemon.applicationInterface]))
    daemon.reload()
    // Always replaceable, so that `openurld --replace` (after an upgrade) can take over from us.
    let flags: DBusNameFlags = replace ? [.doNotQueue, .allowReplacement, .replaceExisting] : [.doNotQueue, .allowReplacement]
    let nameLost = try connection.onSignal(interface: "org.freedesktop.DBus", member: "NameLost", path: "/org/freedesktop/DBus",
                                           sender: "org.freedesktop.DBus", arg0: Router1.busName) { _ in
        Log.info("another openurld took over \(Router1.busName) (openurld --replace); exiting")
        loop.stop()
    }
    let result = try connection.requestName(Router1.busName, flags: flags)
    guard result.isOwner else {
        let owner = try? connection.processID(of: Router1.busName)
        throw DaemonError("another openurld owns \(Router1.busName)\(owner.map { " (pid \($0))" } ?? ""); use --replace to take over")
    }
    if replace { Log.info("took over \(Router1.busName)") }
    try loop.add(connection)
    let burstTrim = BurstTrim(loop: loop)
    connection.onMethodCall { event in burstTrim.note(event) }
    burstTrim.afterStart()
    // Losing the bus is a failure (exit 1), so systemd's Restart=on-failure brings us back.
    nonisolated(unsafe) var lostBus = false
    connection.onDisconnect {
        Log.error("lost the session bus; exiting")
        lostBus = true
        loop.stop()
    }
    keepPrivate([Path.parent(daemon.configPath), String(daemon.paths.stateDirectory.dropLast())])
    let defaultsGuard: DefaultsGuard
    do {
        defaultsGuard = try DefaultsGuard(handlers: DefaultHandlers(paths: daemon.paths), loop: loop,
                                          enabled: { daemon.rules.engine.config.settings.guardDefaults },
                                          offer: { taken in daemon.offer(taken) })
    } catch {
        throw DaemonError("inotify_init1: \(error.message)")
    }
    let signals = try SignalWatcher(signals: [.terminate, .interrupt, .hangUp, .child], loop: loop) { signal in
        switch signal {
        case .hangUp: daemon.reloadInBackground()
        case .child: _ = ChildReaper.reapAll()
        default:
            Log.info("exiting on signal \(signal)")
            loop.stop()
        }
    }
    Log.info("openurld \(Daemon.version) serving \(Router1.busName), config \(daemon.configPath), system configuration in \(daemon.paths.configDirs.map { $0 + "/openurld" }.joined(separator: ", "))")
    loop.perform { daemon.resumePendingAsksWhenAlone() }
    _ = loop.run()
    withExtendedLifetime((signals, defaultsGuard, nameLost)) {}
    // Whatever stopped us (SIGTERM, a replacement, a lost bus), the record says what became of
    // each question: interrupted, and the pending file keeps it for the next daemon.
    daemon.executor.interruptPendingAsks()
    // A picker still asking would be answered for nobody, and the next daemon asks again.
    let leftOver = QuestionChildren.shared.running
    if !leftOver.isEmpty { Log.info("ending the question's programs still running (pid \(leftOver.map(String.init).joined(separator: ", ")))") }
    QuestionChildren.shared.endAll()
    daemon.recent.save()
    if (try? connection.processID(of: Router1.busName)) == UInt32(bitPattern: Environment.processID) { _ = try? connection.releaseName(Router1.busName) }
    connection.flush()
    // With the name free (a new daemon can start meanwhile), a compiled list still being written
    // is let finish: the next start reads it instead of parsing the list (a few milliseconds).
    BlockListSnapshots.finishWrites(within: 1)
    exitProcess(lostBus ? 1 : 0)
}

extension Daemon {
    /// Offers to take the defaults back from an app that took them: "Take back" or "Keep APP".
    func offer(_ taken: DefaultsTaken) {
        notices.show(NotificationText.defaultsTaken(app: taken.appName, schemes: taken.schemes, files: taken.files), kind: .defaults) { key in
            do {
                switch key {
                case NotificationText.takeBackActionKey: try taken.takeBack()
                case NotificationText.keepActionKey: try taken.keep()
                default: return
                }
            } catch {
                Log.error("could not change the defaults: \(error)")
            }
        }
    }
}

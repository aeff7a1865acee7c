import ArrivalPaths
import DBus
import Launching
import Platform
import RouterContract
import RoutingCore

/// Runs `openurl doctor`'s live probes: each path that should reach openurld is run at once (in
/// parallel, so the whole run stays short) with a probe link of its own, and the daemon's
/// `Routed` signals say which arrived and when. The daemon records probes and never launches
/// them; a probe that does not arrive is a path that goes around openurld after all.
struct DoctorProbes {
    /// What became of one probe.
    enum Result: Equatable {
        /// It reached openurld this many milliseconds after it was sent.
        case arrived(milliseconds: Double)
        /// It did not arrive, with what is known (the tool's exit status and first error line).
        case missing(String)
    }

    let connection: DBusConnection
    let environment: [String: String]
    /// How long a probe may take to arrive: a tool that exits at once may hand the link on from a
    /// child still starting (exo-open's helper), so exiting is no sign it went elsewhere.
    var timeout = 5.0

    /// A running probe.
    private final class Running {
        let index: Int
        let token: String
        var started: Double
        var retried = false
        var command: (argv: [String], link: String, changes: [String: String?])?
        var pid: Int32?
        var errorOutput: Int32 = -1
        var exitStatus: Int32?
        var exitedAt: Double?
        /// What the tool has written so far (read as it comes, up to 4 KiB).
        var output: [UInt8] = []
        var failure: String?

        init(index: Int, token: String) {
            self.index = index
            self.token = token
            started = MonotonicClock.seconds()
        }
    }

    /// Probes every row whose forecast reaches openurld; the results by row index.
    func run(_ rows: [ArrivalPath], nonce: String) throws -> [Int: Result] {
        let arrivals = Lock<[String: Double]>([:])
        let subscription = try connection.onSignal(interface: Router1.interface, member: RoutedSignal.name, path: Router1.objectPath) { signal in
            guard let routed = try? RoutedSignal(arguments: signal.arguments), let token = ProbeLink.token(in: routed.url) else { return }
            let now = MonotonicClock.seconds()
            arrivals.withLock { if $0[token] == nil { $0[token] = now } }
        }
        defer { connection.cancel(subscription) }
        // Started (by activation) before the clock runs: a probe measures the path, not a cold daemon.
        _ = try connection.call(destination: Router1.busName, path: Router1.objectPath, interface: "org.freedesktop.DBus.Properties",
                                method: "Get", arguments: [.string(Router1.interface), .string(Router1.Property.version)], timeout: 25)

        var running: [Running] = []
        for (index, row) in rows.enumerated() {
            let token = "\(nonce)-\(index)"
            let link = row.isMail ? ProbeLink.mail(token) : ProbeLink.web(token)
            switch row.probeToRun {
            case .none:
                continue
            case .command(let argv, let changes):
                let probe = Running(index: index, token: token)
                probe.command = (argv, link, changes)
                start(probe, argv: argv, link: link, changes: changes)
                running.append(probe)
            case .portal:
                let probe = Running(index: index, token: token)
                running.append(probe)
                let started = BackgroundThread.start(name: "openurl-doctor-portal") {
                    let failure = Self.callPortal(link: link, token: token)
                    arrivals.withLock { _ in probe.failure = failure }
                }
                if !started { probe.failure = "could not start a thread to call the portal" }
            }
        }

        let deadline = Deadline(after: timeout)
        while !deadline.hasPassed {
            _ = connection.readWriteDispatch(timeout: 0.01)
            let seen = arrivals.withLock { $0 }
            var waiting = false
            for probe in running where seen[probe.token] == nil {
                if let pid = probe.pid, probe.exitStatus == nil, case .exited(let status) = ChildProcesses.status(of: pid) {
                    probe.exitStatus = status
                    probe.exitedAt = MonotonicClock.seconds()
                }
                // A tool that failed, or exited well but whose link has not come 1.5 s later, is
                // run once more: GUI tools started side by side now and then fail to connect to
                // the display (seen with Xvfb: Qt's tools exit 4, exo-open's helper fails after
                // exo-open exited 0). A probe is never launched, so a second arrival is harmless.
                // Only when its output says so: a tool that went around after all must not open
                // the probe a second time.
                let silent = probe.exitedAt.map { MonotonicClock.seconds() - $0 > 1.5 } ?? false
                if let status = probe.exitStatus, status != 0 || silent, !probe.retried, deadline.remainingSeconds > 1,
                   let command = probe.command, Self.collect(probe), Self.saysNoDisplay(probe.output) {
                    probe.retried = true
                    probe.exitStatus = nil
                    probe.exitedAt = nil
                    Descriptor.close(probe.errorOutput)
                    probe.errorOutput = -1
                    probe.output = []
                    probe.started = MonotonicClock.seconds()
                    start(probe, argv: command.argv, link: command.link, changes: command.changes)
                    waiting = true
                    continue
                }
                // A tool that failed (twice) is done; one that exited well may still hand it on.
                let failed = probe.exitStatus.map { $0 != 0 } ?? false
                let portalFailed = arrivals.withLock { _ in probe.pid == nil && probe.failure != nil }
                if !(failed || portalFailed) { waiting = true }
            }
            if !waiting { break }
        }
        let seen = arrivals.withLock { $0 }
        var results: [Int: Result] = [:]
        for probe in running {
            if let pid = probe.pid, probe.exitStatus == nil {
                if case .exited(let status) = ChildProcesses.status(of: pid) { probe.exitStatus = status } else {
                    ChildProcesses.killWithGroup(pid)
                    ChildProcesses.waitUntilExited(pid)
                }
            }
            _ = Self.collect(probe)
            let errorText = String(decoding: probe.output, as: UTF8.self)
            Descriptor.close(probe.errorOutput)
            if let arrived = seen[probe.token] {
                results[probe.index] = .arrived(milliseconds: (arrived - probe.started) * 1000)
                continue
            }
            var why: [String] = ["the probe did not reach openurld within \(timeout) s"]
            if let failure = arrivals.withLock({ _ in probe.failure }) { why.append(failure) }
            if let status = probe.exitStatus { why.append("it exited with status \(status)") } else if probe.pid != nil { why.append("it was still running") }
            let lines = errorText.split(separator: "\n").filter { !$0.isEmpty }.map { String($0.prefix(200)) }
            if let first = lines.first, let last = lines.last {
                why.append("it said: " + (first == last ? first : "\(first) … \(last)"))
            }
            results[probe.index] = .missing(why.joined(separator: "; "))
        }
        return results
    }

    /// Spawns one probe: `argv` with the link for `%s`, or after it; its output kept for the report.
    private func start(_ probe: Running, argv: [String], link: String, changes: [String: String?]) {
        var environment = self.environment
        for (key, value) in changes { environment[key] = value }
        var words = argv.map { $0.containsText("%s") ? $0.replacingEvery("%s", with: link) : $0 }
        if !argv.contains(where: { $0.containsText("%s") }) { words.append(link) }
        guard let program = words.first, let path = ProcessLauncher.resolve(program, environment: environment) else {
            probe.failure = "\(argv.first ?? "?") is not on PATH"
            return
        }
        do {
            let pipe = try Descriptor.pipe(nonBlocking: true)
            defer { Descriptor.close(pipe.write) }
            probe.pid = try ProcessSpawn.spawn(path: path, argv: words, environment: environment, stdout: pipe.write, stderr: pipe.write)
            probe.errorOutput = pipe.read
        } catch {
            probe.failure = "could not run \(path): \(error)"
        }
    }

    /// Reads what `probe`'s tool has written since, keeping up to 4 KiB; always true (so it reads
    /// as a step of a condition).
    private static func collect(_ probe: Running) -> Bool {
        guard probe.errorOutput >= 0 else { return true }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case .bytes(let count) = Descriptor.read(probe.errorOutput, into: &buffer) {
            probe.output += buffer[..<min(count, max(0, 4096 - probe.output.count))]
        }
        return true
    }

    /// Whether a tool (or a child it ran) said it could not reach the display: Qt's "could not
    /// connect to display", GTK's "cannot open display".
    static func saysNoDisplay(_ output: [UInt8]) -> Bool {
        let text = String(decoding: output, as: UTF8.self).lowercased()
        return text.containsText("connect to display") || text.containsText("cannot open display")
    }

    /// `org.freedesktop.portal.OpenURI.OpenURI("", link, {handle_token})`, as a sandboxed app
    /// calls it, on a connection of its own; nil when the portal took the call.
    static func callPortal(link: String, token: String) -> String? {
        do {
            let bus = try DBusConnection.session()
            let handle = "openurl_doctor_" + token.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            _ = try bus.call(destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
                             interface: "org.freedesktop.portal.OpenURI", method: "OpenURI",
                             arguments: [.string(""), .string(link), .vardict(["handle_token": .string(handle)])], timeout: 20)
            return nil
        } catch let error as DBusError {
            return "the portal answered \(error.name): \(String(error.message.prefix(200)))"
        } catch {
            return "the portal could not be called: \(error)"
        }
    }
}

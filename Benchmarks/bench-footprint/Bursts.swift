// The daemon's CPU per warm click under a burst (issue 32's first figure): `count` Opens of
// discarded links, the pipe kept full (100 in flight per connection), from one connection and from ten;
// the daemon's CPU (every thread, ProcFS.cpuSeconds) before and after, and clicks per second.
// Beside them, the peers on the same bus: dbus-daemon answering the same burst itself (Peer.Ping,
// the bus's own ceiling) and `dbus-send` run back to back (a process per call, as a click is).
import BenchSupport
import DBus
import Foundation
import TestSupport

struct Burst {
    /// The answering process's CPU seconds per call.
    var cpuPerClick: Double
    /// Replies per wall second, from the first send to the last reply.
    var clicksPerSecond: Double
}

/// One burst of `count` Opens over `clients` connections of their own; fails unless every call
/// gets a reply that is not an error.
func measureBurst(_ session: Session, count: Int, clients: Int) throws -> Burst {
    try session.ping()
    guard let pid = session.daemonPID() else { throw BenchError("openurld is not running") }
    return try burst(session, count: count, clients: clients, pid: pid) { sent in
        // Each link its own, so no look-up is reused from the click before.
        (Session.busName, "/io/github/openurld", "io.github.openurld.Router1", "Open",
         [.string("https://burst.example/\(clients)/\(sent)?utm_source=feed"), .vardict([:])])
    }
}

/// The same burst answered by dbus-daemon itself (org.freedesktop.DBus.Peer.Ping): what the bus
/// carries at most, the ceiling any service on it shares.
func measureBusBurst(_ session: Session, count: Int, clients: Int) throws -> Burst {
    try burst(session, count: count, clients: clients, pid: session.bus.pid) { _ in
        ("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Peer", "Ping", [])
    }
}

/// `count` runs of `dbus-send --print-reply` (Peer.Ping to the daemon), `clients` at a time:
/// calls per second the way a click arrives, a process each.
func measureDBusSendRate(_ session: Session, count: Int, clients: Int) throws -> Double {
    try session.ping()
    let argv = ["dbus-send", "--session", "--print-reply", "--dest=\(Session.busName)", "/io/github/openurld", "org.freedesktop.DBus.Peer.Ping"]
    let start = now()
    var running: [Spawned] = []
    for _ in 0..<count {
        if running.count == clients {
            let (status, _) = running.removeFirst().wait()
            guard status == 0 else { throw BenchError("dbus-send exited \(status)") }
        }
        running.append(try Spawned(argv, environment: session.environment))
    }
    for child in running {
        guard child.wait().status == 0 else { throw BenchError("dbus-send failed") }
    }
    return Double(count) / (now() - start)
}

/// A full pipe of the calls `message(n)` names, over `clients` connections, and the CPU `pid` spent.
private func burst(_ session: Session, count: Int, clients: Int, pid: pid_t,
                   message: (Int) -> (destination: String, path: String, interface: String, method: String, arguments: [DBusValue])) throws -> Burst {
    let buses = try (0..<clients).map { _ in try session.bus.connect() }
    let before = ProcFS.cpuSeconds(pid)
    let start = now()
    var replies = 0, errors = 0
    var firstError = ""
    // At most `window` calls in flight per connection: the bus refuses more pending replies than
    // its limit (LimitsExceeded), so a burst is a full pipe, not every call at once.
    let window = 100
    var inFlight = [Int](repeating: 0, count: clients)
    var sent = 0
    while replies < count {
        guard now() - start < 120 else { throw BenchError("\(replies) of \(count) replies in 120 s") }
        while sent < count, inFlight[sent % clients] < window {
            let client = sent % clients
            let call = message(sent)
            try buses[client].callAsync(destination: call.destination, path: call.path, interface: call.interface,
                                        method: call.method, arguments: call.arguments, timeout: 120) { result in
                replies += 1
                inFlight[client] -= 1
                if case .failure(let error) = result {
                    errors += 1
                    if firstError.isEmpty { firstError = "\(error)" }
                }
            }
            inFlight[client] += 1
            sent += 1
        }
        for bus in buses { _ = bus.readWriteDispatch(timeout: 0.001) }
    }
    let wall = now() - start
    let cpu = ProcFS.cpuSeconds(pid) - before
    guard errors == 0 else { throw BenchError("\(errors) of \(count) calls failed; the first: \(firstError)") }
    return Burst(cpuPerClick: cpu / Double(count), clicksPerSecond: Double(count) / wall)
}

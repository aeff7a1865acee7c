// The daemon's CPU per warm click under a burst (issue 32's first figure): `count` Opens of
// discarded links, the pipe kept full (100 in flight per connection), from one connection and from ten;
// the daemon's CPU (every thread, ProcFS.cpuSeconds) before and after, and clicks per second.
import BenchSupport
import DBus
import Foundation
import TestSupport

struct Burst {
    /// The daemon's CPU seconds per click.
    var cpuPerClick: Double
    /// Replies per wall second, from the first send to the last reply.
    var clicksPerSecond: Double
}

/// One burst of `count` Opens over `clients` connections of their own; fails unless every call
/// gets a reply that is not an error.
func measureBurst(_ session: Session, count: Int, clients: Int) throws -> Burst {
    try session.ping()
    guard let pid = session.daemonPID() else { throw BenchError("openurld is not running") }
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
            // Each link its own, so no look-up is reused from the click before.
            try buses[client].callAsync(destination: Session.busName, path: "/io/github/openurld", interface: "io.github.openurld.Router1",
                                        method: "Open", arguments: [.string("https://burst.example/\(clients)/\(sent)?utm_source=feed"), .vardict([:])],
                                        timeout: 120) { result in
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
    guard errors == 0 else { throw BenchError("\(errors) of \(count) Opens failed; the first: \(firstError)") }
    return Burst(cpuPerClick: cpu / Double(count), clicksPerSecond: Double(count) / wall)
}

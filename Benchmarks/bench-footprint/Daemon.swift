// The daemon's start-up CPU and its idle memory, on the session's private bus.
import BenchSupport
import DBus
import Foundation
import TestSupport

struct StartupSample {
    /// CPU seconds from exec until it answered the first call (Peer.Ping, right after it owned its name).
    var serving: Double
    /// CPU seconds from exec until it answered the first decision (Router1.Explain of a URL that ClearURLs and the rules see).
    var firstDecision: Double
    /// Wall seconds from spawn until serving.
    var wall: Double
}

/// Starts openurld directly (not activated, so its pid is known at exec) `runs` times.
func measureStartup(_ session: Session, runs: Int) throws -> [StartupSample] {
    try session.stopDaemon()
    var owned = false
    let subscription = try session.connection.onSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                                                        sender: "org.freedesktop.DBus", arg0: Session.busName) { signal in
        if signal.arguments.count == 3, signal.arguments[2].string?.isEmpty == false { owned = true }
    }
    defer { session.connection.cancel(subscription) }
    var samples: [StartupSample] = []
    for run in 0..<runs {
        owned = false
        let start = now()
        let daemon = try ChildProcess([session.openurld], environment: session.environment, captureOutput: false,
                                      logPath: session.desktop.root + "/daemon.log")
        while !owned {
            guard now() - start < 20, daemon.poll() == nil else { throw BenchError("openurld did not take its name (see \(session.desktop.root)/daemon.log)") }
            _ = session.connection.readWriteDispatch(timeout: 0.05)
        }
        try session.ping()
        let serving = ProcFS.cpuSeconds(daemon.pid)
        let wall = now() - start
        _ = try session.call("Explain", [.string("https://www.amazon.com/dp/B0\(run)?tag=x&ref_=nav&utm_source=mail"), .vardict([:])])
        let firstDecision = ProcFS.cpuSeconds(daemon.pid)
        samples.append(StartupSample(serving: serving, firstDecision: firstDecision, wall: wall))
        guard daemon.terminate(grace: 5) != nil else { throw BenchError("openurld did not exit") }
        while (try? session.connection.nameHasOwner(Session.busName)) == true { usleep(1000) }
    }
    return samples
}

struct IdleMemory {
    var rollup: [String: Int]
    var mappings: [(name: String, rss: Int, anonymous: Int)]
    var busRollup: [String: Int]
    var idleCPUDelta: Double
}

/// Activates the daemon (its block lists compiled by an earlier start, as at every start but the
/// first after an install), routes a few links (one launch, a discard, a ClearURLs clean, a
/// mailto), waits until it is idle (no CPU for half a second), then reads its memory.
func measureIdleMemory(_ session: Session) throws -> IdleMemory {
    try session.compileBlockLists()
    // What of the binary the page cache holds decides how many neighbouring pages the kernel's
    // fault-around maps with each one touched: the same build measured 12.2 or 13.3 MiB with
    // what happened to be cached. Evicted first, every run starts from the same state.
    evictFromPageCache(session.openurld)
    try session.ping()
    let launches = session.browser.records().count
    for url in ["https://click.example/idle", "https://noop.example/?utm_source=feed", "https://www.amazon.com/dp/B01?tag=x&ref_=nav",
                "mailto:someone@corp1.example?subject=Hi", "https://site42.example/app/x"] {
        _ = try session.call("Open", [.string(url), .vardict([:])])
    }
    try session.waitForBrowser(after: launches)
    // The daemon gives back what its start freed once it has had a quiet second (BurstTrim):
    // idle is after that, not in the half second a sample below may catch before it.
    usleep(2_000_000)
    guard let pid = session.daemonPID() else { throw BenchError("openurld is not running") }
    var previous = ProcFS.cpuSeconds(pid)
    var delta = 1.0
    let start = now()
    repeat {
        usleep(500_000)
        let current = ProcFS.cpuSeconds(pid)
        delta = current - previous
        previous = current
    } while delta > 0.0001 && now() - start < 15
    return IdleMemory(rollup: ProcFS.rollup(pid), mappings: ProcFS.mappings(pid), busRollup: ProcFS.rollup(session.bus.pid), idleCPUDelta: delta)
}

/// The daemon's Rss right after `count` Opens over `clients` connections, and `settle` seconds
/// later: whether memory a burst took is given back (issue 32: within 1.2× of idle after 30 s).
/// Rss right after a burst of `count` calls and `settle` seconds later, with the anonymous part
/// of the latter (the rest is file pages, mostly the binary's code the burst ran).
func measureMemoryAfterBurst(_ session: Session, count: Int, clients: Int, settle: Double) throws -> (afterBurst: Int, settled: Int, settledAnonymous: Int) {
    _ = try measureBurst(session, count: count, clients: clients)
    guard let pid = session.daemonPID() else { throw BenchError("openurld is not running") }
    let afterBurst = ProcFS.rollup(pid)["Rss"] ?? 0
    usleep(useconds_t(settle * 1e6))
    let settled = ProcFS.rollup(pid)
    return (afterBurst, settled["Rss"] ?? 0, settled["Anonymous"] ?? 0)
}

/// How many of the functions Sources/openurld/openurld.order lists the daemon binary still has:
/// the release link puts those first, and a list gone stale (`make order-file` renews it) shows
/// here as fewer found, and in the idle memory as more of the binary resident.
func orderedFunctions(root: String, products: String) -> String {
    guard let listed = try? String(contentsOfFile: root + "/Sources/openurld/openurld.order", encoding: .utf8) else { return "no order file" }
    let names = Set(listed.split(separator: "\n").map(String.init))
    guard let symbols = try? Command.run(["nm", "--defined-only", products + "/openurld"], timeout: 60).stdout else { return "nm failed" }
    let found = Set(symbols.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }).intersection(names).count
    return "\(found) of the \(names.count) functions in the order file are in this build" + (found == 0 ? " (stripped, or not this daemon)" : "")
}

/// Drops `path`'s pages from the page cache (posix_fadvise DONTNEED: no root needed; pages a
/// running process maps stay). Best effort: a file that cannot be opened is left as it is.
func evictFromPageCache(_ path: String) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
    close(fd)
}

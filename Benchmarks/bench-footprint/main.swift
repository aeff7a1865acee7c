// bench-footprint: issues 15 and 32's table from one run — installed size, Foundation per binary,
// the daemon's idle memory (and after a burst) and start-up CPU (ClearURLs + 1,000 rules, default
// safety, Debian's lists), its CPU per click in bursts beside dbus-daemon and dbus-send on the same
// bus, cold vs warm clicks, openurl vs dbus-send, and the figures of bench-routing, bench-hygiene
// and bench-gio. Each row shows issue 32's "one day earlier" figure where that issue measured one.
//
//   make bench        (or: make release; swift build -c release --product bench-footprint ...)
//   .build/release/bench-footprint [--products DIR] [--root DIR] [--runs N] [--cold-runs N]
//                                  [--startup-runs N] [--no-engines] [--bursts N] [--startup-only] [--memory-only [--after-burst]] [--cold-only]
// --bursts N: only the per-click bursts, N rounds of them (to profile the daemon meanwhile).
// --startup-only: only the daemon's CPU from exec to serving and to its first decision.
// --memory-only: only the daemon's idle memory, with its top mappings; with --after-burst, also
// after 10,000 calls and 30 s, mapping by mapping.
// --cold-only: only cold clicks against warm ones (--cold-runs rounds).
// --products and --root measure another checkout's release build (e.g. the "before" figures).
import BenchSupport
import Foundation
import TestSupport

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let ownDirectory = (CommandLine.arguments[0] as NSString).deletingLastPathComponent
/// An absolute path: `make -C ROOT` and the daemons run from other directories.
func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
}
let products = absolute(option("--products") ?? (ownDirectory.isEmpty ? "." : ownDirectory))
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let root = absolute(option("--root") ?? packageRoot)
let runs = option("--runs").flatMap(Int.init) ?? 30
let coldRuns = option("--cold-runs").flatMap(Int.init) ?? 10
let startupRuns = option("--startup-runs").flatMap(Int.init) ?? 15
let clearURLs = URL(fileURLWithPath: root + "/../shared/conformance/clearurls/data.min.json").standardized.path

func fail(_ message: String) -> Never {
    fputs("bench-footprint: \(message)\n", stderr)
    exit(1)
}

print("bench-footprint: issues 15 and 32 (release build in \(products); load average \(String((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.prefix(14) ?? "?")))")
let engines = CommandLine.arguments.contains("--no-engines") || option("--bursts") != nil || CommandLine.arguments.contains("--startup-only") || CommandLine.arguments.contains("--memory-only") || CommandLine.arguments.contains("--cold-only") ? EngineFigures() : runEngineBenchmarks(products: products)
var rows: [Row] = []
if CommandLine.arguments.contains("--startup-only") {
    let session: Session
    do { session = try Session(products: products, clearURLs: clearURLs) } catch { fail("\(error)") }
    do {
        try session.compileBlockLists()
        let samples = try measureStartup(session, runs: startupRuns)
        print("exec → serving: median \(fixed(median(samples.map(\.serving)) * 1000)) ms CPU (min \(fixed((samples.map(\.serving).min() ?? .nan) * 1000)), p90 \(fixed(p90(samples.map(\.serving)) * 1000))); exec → first decision \(fixed(median(samples.map(\.firstDecision)) * 1000)) ms")
    } catch { fail("\(error)") }
    session.stop()
    exit(0)
}
if CommandLine.arguments.contains("--memory-only") {
    let session: Session
    do { session = try Session(products: products, clearURLs: clearURLs) } catch { fail("\(error)") }
    do {
        let memory = try measureIdleMemory(session)
        let rss = memory.rollup["Rss"] ?? 0, pss = memory.rollup["Pss"] ?? 0, anonymous = memory.rollup["Anonymous"] ?? 0
        print("idle: Rss \(mib(rss)), Pss \(mib(pss)), anonymous \(mib(anonymous)); dbus-daemon Rss \(mib(memory.busRollup["Rss"] ?? 0))")
        printMappings(memory.mappings, count: 14, indent: "  ")
        print("hot functions first: \(orderedFunctions(root: root, products: products))")
        // --after-burst: the same after 10,000 calls from 10 clients and 30 s, mapping by mapping
        // (which part of what a burst leaves behind is heap, thread arenas, or code it ran).
        if CommandLine.arguments.contains("--after-burst"), let pid = session.daemonPID() {
            let (afterBurst, settled, settledAnonymous) = try measureMemoryAfterBurst(session, count: 10_000, clients: 10, settle: 30)
            let threads = (ProcFS.read("/proc/\(pid)/status") ?? "").split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? "Threads: ?"
            print("after 10,000 calls: Rss \(mib(afterBurst)); 30 s later \(mib(settled)), anonymous \(mib(settledAnonymous)); \(threads)")
            printMappings(ProcFS.mappings(pid), count: 14, indent: "  ")
        }
        // The whole /proc/PID/smaps, to see which of the binary's segments are resident.
        if let path = ProcessInfo.processInfo.environment["OPENURLD_BENCH_SMAPS"], let pid = session.daemonPID() {
            // ProcFS.read: Foundation's reader stops short on a /proc file (its size reads as 0).
            try (ProcFS.read("/proc/\(pid)/smaps") ?? "").write(toFile: path, atomically: true, encoding: .utf8)
            // And which pages of each mapping are present (pagemap's bit 63), as "start-end page…".
            var present = ""
            let fd = open("/proc/\(pid)/pagemap", O_RDONLY)
            for line in (ProcFS.read("/proc/\(pid)/maps") ?? "").split(separator: "\n") where line.hasSuffix("/openurld") {
                let range = line.split(separator: " ")[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
                guard range.count == 2, fd >= 0 else { continue }
                present += String(line) + "\n"
                var page = range[0]
                while page < range[1] {
                    var entry: UInt64 = 0
                    if pread(fd, &entry, 8, off_t(page / 4096 * 8)) == 8, entry >> 63 == 1 { present += String(page, radix: 16) + "\n" }
                    page += 4096
                }
            }
            close(fd)
            try present.write(toFile: path + ".pages", atomically: true, encoding: .utf8)
        }
    } catch { fail("\(error)") }
    session.stop()
    exit(0)
}
if CommandLine.arguments.contains("--cold-only") {
    let session: Session
    do { session = try Session(products: products, clearURLs: clearURLs) } catch { fail("\(error)") }
    do {
        let (cold, second, warm) = try measureColdVsWarm(session, runs: coldRuns)
        for (name, clicks) in [("cold", cold), ("second", second), ("warm", warm)] {
            print("\(name): openurl exits after median \(fixed(median(clicks.wall) * 1000)) ms, browser has the link after \(fixed(median(clicks.toBrowser) * 1000)) ms")
        }
    } catch { fail("\(error)") }
    session.stop()
    exit(0)
}
if let rounds = option("--bursts").flatMap(Int.init) {
    let session: Session
    do { session = try Session(products: products, clearURLs: clearURLs) } catch { fail("\(error)") }
    for round in 0..<rounds {
        for clients in [1, 10] {
            do {
                let burst = try measureBurst(session, count: 2_000, clients: clients)
                print("round \(round), \(clients) client(s): \(fixed(burst.cpuPerClick * 1e6, 0)) µs daemon CPU per click, \(fixed(burst.clicksPerSecond, 0)) clicks/s")
            } catch { fail("\(error)") }
        }
    }
    session.stop()
    exit(0)
}

print("\n--- installed binaries (make install-files DESTDIR=… PREFIX=/usr) ---")
var template = Array((NSTemporaryDirectory() + "openurld-stage-XXXXXX").utf8CString)
guard let made = mkdtemp(&template) else { fail("mkdtemp failed") }
let stage = String(cString: made)
defer { try? FileManager.default.removeItem(atPath: stage) }
do {
    let installed = try InstalledBinaries.stage(root: root, products: products, into: stage)
    for file in installed.files {
        print("  \(file.name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(file.symlinkTo.map { "symlink → \($0) (0 MB)" } ?? fixed(Double(file.bytes) / 1e6, 1) + " MB")")
    }
    let total = Double(installed.totalBytes) / 1e6
    rows.append(Row(figure: "installed binaries, total (stripped)", measured: fixed(total, 2) + " MB", earlier: "10.28 MB", goal: "≤ 10 MB", met: total <= 10))
    print("\n--- Foundation linked (installed files; a symlink is its target) ---")
    // One row per file on disk, named by the file, with the symlinks to it in brackets.
    var reports: [(report: LinkReport, names: [String])] = []
    for file in installed.files {
        let report = try BinaryInspection.inspect(installed.directory + "/" + file.name)
        print("  Foundation linked: \(file.name): \(report.summary)")
        if let index = reports.firstIndex(where: { $0.report.path == report.path }) {
            reports[index].names.append(file.name)
        } else {
            reports.append((report, [file.name]))
        }
    }
    for (report, names) in reports {
        let own = (report.path as NSString).lastPathComponent
        let others = names.filter { $0 != own }
        let label = names.contains(own) ? own + (others.isEmpty ? "" : " (+ \(others.count) multi-call links)") : names.joined(separator: ", ")
        rows.append(Row(figure: "Foundation linked: \(label)", measured: report.linksFoundation ? "yes" : "no", goal: "no", met: !report.linksFoundation))
    }
} catch { print("  \(error)"); rows.append(Row(figure: "installed binaries, total", measured: "failed", goal: "≤ 10 MB", met: false)) }

let session: Session
do { session = try Session(products: products, clearURLs: clearURLs) } catch { fail("\(error)") }
defer { session.stop() }

print("\n--- daemon CPU from exec to serving (ClearURLs + 1,000 rules), \(startupRuns) runs ---")
do {
    // Every start but the first after an install reads the lists compiled: the first run was that one.
    try session.compileBlockLists()
    let samples = try measureStartup(session, runs: startupRuns)
    let serving = median(samples.map(\.serving)) * 1000, decision = median(samples.map(\.firstDecision)) * 1000
    let peer = try (0..<startupRuns).map { _ in try timed(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                         "org.freedesktop.DBus.Peer.Ping"], environment: session.environment).cpu * 1000 }
    print("  until Peer.Ping answered: median \(fixed(serving)) ms CPU (min \(fixed((samples.map(\.serving).min() ?? .nan) * 1000)), p90 \(fixed(p90(samples.map(\.serving)) * 1000))), wall \(fixed(median(samples.map(\.wall)) * 1000)) ms")
    print("  until the first decision (Explain): median \(fixed(decision)) ms CPU")
    print("  peer: dbus-send (C, libdbus) from exec to its reply: median \(fixed(median(peer))) ms CPU")
    rows.append(Row(figure: "daemon CPU, exec → serving", measured: fixed(serving) + " ms", peer: "dbus-send \(fixed(median(peer))) ms (\(fixed(serving / median(peer), 1))×)",
                    earlier: "27.4 ms", goal: "≤ 10 ms", met: serving <= 10))
    rows.append(Row(figure: "daemon CPU, exec → first decision", measured: fixed(decision) + " ms"))
} catch { print("  \(error)"); rows.append(Row(figure: "daemon CPU, exec → serving", measured: "failed", goal: "≤ 10 ms", met: false)) }

print("\n--- daemon idle memory (ClearURLs + 1,000 rules, Debian's lists read compiled, after routing 5 links) ---")
var idleRSS = 0, idleAnonymous = 0
do {
    let memory = try measureIdleMemory(session)
    let rss = memory.rollup["Rss"] ?? 0, pss = memory.rollup["Pss"] ?? 0, anonymous = memory.rollup["Anonymous"] ?? 0
    let busRSS = memory.busRollup["Rss"] ?? 0
    print("  Rss \(mib(rss)), Pss \(mib(pss)); anonymous \(mib(anonymous)), file-backed \(mib(rss - anonymous)) (Pss_Anon \(mib(memory.rollup["Pss_Anon"] ?? 0)), Pss_File \(mib(memory.rollup["Pss_File"] ?? 0)))")
    print("  idle CPU over the last 0.5 s: \(fixed(memory.idleCPUDelta * 1e6, 0)) µs; peer: the private dbus-daemon Rss \(mib(busRSS))")
    print("  top mappings by Rss:")
    printMappings(memory.mappings, count: 10, indent: "    ")
    print("  hot functions first: \(orderedFunctions(root: root, products: products))")
    idleRSS = rss
    idleAnonymous = anonymous
    rows.append(Row(figure: "daemon idle RSS", measured: mib(rss), peer: "dbus-daemon \(mib(busRSS)) (\(fixed(Double(rss) / Double(max(busRSS, 1)), 1))×)",
                    earlier: "16.8 MiB", goal: "≤ 12 MiB", met: rss <= 12 * 1024))
    rows.append(Row(figure: "daemon idle PSS", measured: mib(pss), peer: "file-backed \(mib(rss - anonymous))", earlier: "9.2 MiB", goal: "≤ 8 MiB", met: pss <= 8 * 1024))
    rows.append(Row(figure: "daemon idle anonymous memory", measured: mib(anonymous), earlier: "2.5 MiB"))
} catch { print("  \(error)"); rows.append(Row(figure: "daemon idle RSS", measured: "failed", goal: "≤ 12 MiB", met: false)) }

print("\n--- daemon CPU per warm click: bursts of discarded links (ClearURLs + 1,000 rules, default safety, Debian's lists), median of 3 ---")
do {
    let earlier = [1: (cpu: "205 µs", rate: "1,448/s"), 10: (cpu: "124 µs", rate: "2,621/s")]
    for clients in [1, 10] {
        var bursts: [Burst] = [], bus: [Burst] = []
        for _ in 0..<3 {
            bursts.append(try measureBurst(session, count: 2_000, clients: clients))
            bus.append(try measureBusBurst(session, count: 2_000, clients: clients))
        }
        let dbusSend = try measureDBusSendRate(session, count: 200, clients: clients)
        let cpu = median(bursts.map(\.cpuPerClick)) * 1e6, rate = median(bursts.map(\.clicksPerSecond))
        let busRate = median(bus.map(\.clicksPerSecond)), busCPU = median(bus.map(\.cpuPerClick)) * 1e6
        let from = clients == 1 ? "1 client" : "\(clients) clients"
        print("  2,000 clicks from \(from): \(fixed(cpu, 0)) µs daemon CPU per click, \(fixed(rate, 0)) clicks/s")
        print("    peers: dbus-daemon answering the same burst (Peer.Ping) \(fixed(busRate, 0))/s at \(fixed(busCPU, 0)) µs CPU each; dbus-send, \(clients) at a time, \(fixed(dbusSend, 0))/s")
        rows.append(Row(figure: "daemon CPU per warm click, burst from \(from)", measured: fixed(cpu, 0) + " µs",
                        peer: "dbus-daemon \(fixed(busCPU, 0)) µs per Ping", earlier: earlier[clients]?.cpu ?? "—", goal: "≤ 150 µs", met: cpu <= 150))
        rows.append(Row(figure: "clicks/s, burst from \(from)", measured: grouped(rate) + "/s",
                        peer: "bus Ping \(grouped(busRate))/s; dbus-send \(grouped(dbusSend))/s (\(fixed(rate / dbusSend, 1))×)", earlier: earlier[clients]?.rate ?? "—"))
    }
} catch { print("  \(error)"); rows.append(Row(figure: "daemon CPU per warm click", measured: "failed", goal: "≤ 150 µs", met: false)) }

print("\n--- daemon memory after 10,000 calls from 10 clients, and 30 s later ---")
do {
    let (afterBurst, settled, settledAnonymous) = try measureMemoryAfterBurst(session, count: 10_000, clients: 10, settle: 30)
    let ratio = Double(settled) / Double(max(idleRSS, 1))
    print("  Rss idle \(mib(idleRSS)); right after the burst \(mib(afterBurst)); 30 s later \(mib(settled)) (\(fixed(ratio))× idle; "
          + "anonymous \(mib(settledAnonymous)) against \(mib(idleAnonymous)) idle, file-backed \(mib(settled - settledAnonymous)) against \(mib(idleRSS - idleAnonymous)))")
    rows.append(Row(figure: "daemon RSS 30 s after 10,000 calls", measured: mib(settled), peer: "idle \(mib(idleRSS)) (\(fixed(ratio))×)", goal: "≤ 1.2× idle", met: ratio <= 1.2))
} catch { print("  \(error)"); rows.append(Row(figure: "daemon RSS after a burst", measured: "failed", goal: "≤ 1.2× idle", met: false)) }

print("\n--- openurl URL (warm) vs dbus-send round trip, \(runs) interleaved runs each ---")
do {
    let (openurl, peer) = try measureWarmVsDBusSend(session, runs: runs)
    let ratio = median(openurl.wall) / median(peer.wall)
    print("  openurl URL:            median \(fixed(median(openurl.wall) * 1000)) ms wall (p90 \(fixed(p90(openurl.wall) * 1000))), \(fixed(median(openurl.cpu) * 1000)) ms CPU")
    print("  dbus-send Properties.Get: median \(fixed(median(peer.wall) * 1000)) ms wall (p90 \(fixed(p90(peer.wall) * 1000))), \(fixed(median(peer.cpu) * 1000)) ms CPU")
    rows.append(Row(figure: "openurl URL (warm) vs dbus-send", measured: fixed(median(openurl.wall) * 1000) + " ms",
                    peer: "dbus-send \(fixed(median(peer.wall) * 1000)) ms (\(fixed(ratio))×)", goal: "≤ 1.3×", met: ratio <= 1.3))
} catch { print("  \(error)"); rows.append(Row(figure: "openurl URL (warm) vs dbus-send", measured: "failed", goal: "≤ 1.3×", met: false)) }

print("\n--- bus round trips per warm click (method calls seen by dbus-monitor), \(runs) runs each ---")
do {
    let trips = try measureRoundTrips(session, runs: runs)
    print("  openurl URL: \(fixed(trips.plain, 1)) calls; with a match.opener rule: \(fixed(trips.opener, 1)); with rules on the moment: \(fixed(trips.moment, 1)); dbus-send: \(fixed(trips.dbusSend, 1))")
    rows.append(Row(figure: "bus calls per warm click", measured: fixed(trips.plain, 1), peer: "dbus-send \(fixed(trips.dbusSend, 1))",
                    goal: "= dbus-send", met: trips.plain <= trips.dbusSend))
    rows.append(Row(figure: "bus calls per warm click, opener rule", measured: fixed(trips.opener, 1), peer: "dbus-send \(fixed(trips.dbusSend, 1))",
                    goal: "= dbus-send", met: trips.opener <= trips.dbusSend))
    rows.append(Row(figure: "bus calls per warm click, moment rules", measured: fixed(trips.moment, 1), peer: "dbus-send \(fixed(trips.dbusSend, 1))",
                    goal: "= dbus-send", met: trips.moment <= trips.dbusSend))
} catch { print("  \(error)"); rows.append(Row(figure: "bus calls per warm click", measured: "failed")) }

print("\n--- cold click (daemon not running, D-Bus activation) vs warm click (the third after the start), \(coldRuns) rounds ---")
do {
    let (cold, second, warm) = try measureColdVsWarm(session, runs: coldRuns)
    let ratio = median(cold.wall) / median(warm.wall)
    for (name, clicks) in [("cold", cold), ("second", second), ("warm", warm)] {
        print("  \(name.padding(toLength: 6, withPad: " ", startingAt: 0)): openurl exits after median \(fixed(median(clicks.wall) * 1000)) ms, browser has the link after \(fixed(median(clicks.toBrowser) * 1000)) ms")
    }
    let arrivalRatio = median(cold.toBrowser) / median(warm.toBrowser)
    rows.append(Row(figure: "cold click vs warm, openurl exits", measured: fixed(median(cold.wall) * 1000) + " ms",
                    peer: "warm \(fixed(median(warm.wall) * 1000)) ms (\(fixed(ratio))×)", earlier: "39.9 / 4.6 ms (8.9×)", goal: "≤ 2×", met: ratio <= 2))
    rows.append(Row(figure: "cold click vs warm, browser has it", measured: fixed(median(cold.toBrowser) * 1000) + " ms",
                    peer: "warm \(fixed(median(warm.toBrowser) * 1000)) ms (\(fixed(arrivalRatio))×)", goal: "≤ 3×", met: arrivalRatio <= 3))
} catch { print("  \(error)"); rows.append(Row(figure: "cold click vs warm", measured: "failed", goal: "≤ 2×", met: false)) }

if let activation = engines.gioActivationMilliseconds, let exec = engines.gioExecMilliseconds {
    rows.append(Row(figure: "gio open → link arrives, Exec=openurl %u", measured: fixed(exec, 1) + " ms",
                    peer: "D-Bus activation \(fixed(activation, 1)) ms (\(fixed(exec / activation))×)", earlier: "12.5 ms", goal: "≤ 1.2×", met: exec / activation <= 1.2))
} else {
    rows.append(Row(figure: "gio open → link arrives", measured: "not found in bench-gio's output", goal: "≤ 1.2×", met: false))
}
/// A decisions/s row of bench-routing's figures; a figure missing from its output fails the row.
func decisionRow(_ figure: String, _ rate: Double?, earlier: String = "—", goal: Double) -> Row {
    guard let rate else { return Row(figure: figure, measured: "not found in bench-routing's output", goal: "≥ \(grouped(goal))", met: false) }
    return Row(figure: figure, measured: grouped(rate), earlier: earlier, goal: "≥ \(grouped(goal))", met: rate >= goal)
}
rows.append(decisionRow("decisions/s, 1,000 rules, hygiene, default safety", engines.decisionsPerSecond, goal: 500_000))
rows.append(decisionRow("decisions/s, … with Debian's block lists", engines.listsDecisionsPerSecond, goal: 400_000))
rows.append(decisionRow("decisions/s, … with the lists and link text", engines.linkTextDecisionsPerSecond, goal: 200_000))
if let rulesOnly = engines.rulesOnlyDecisionsPerSecond {
    rows.append(Row(figure: "decisions/s, 1,000 rules (rules only)", measured: grouped(rulesOnly), earlier: "292,000–403,000"))
}
if let hygiene = engines.hygieneMicroseconds {
    let peer = engines.urlUnwrapMicroseconds.map { "url-unwrap \(fixed($0)) µs (\(fixed($0 / hygiene, 0))× slower)" } ?? "—"
    rows.append(Row(figure: "ClearURLs hygiene per URL", measured: fixed(hygiene) + " µs", peer: peer, goal: "≤ 2 µs", met: hygiene <= 2))
} else {
    rows.append(Row(figure: "ClearURLs hygiene per URL", measured: "not found in bench-hygiene's output", goal: "≤ 2 µs"))
}

print("\n=== issues 15 and 32: footprint, cold start, install size, per-click cost (release; medians; same run) ===")
printTable(rows)

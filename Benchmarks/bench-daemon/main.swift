// Daemon and click-to-spawn benchmark, side by side with dbus-send, gio open and xdg-open in
// the same run, on a private bus and an isolated desktop. Run in release mode after `make release`:
//   swift build -c release --product bench-daemon && .build/release/bench-daemon [idle-seconds]
import BenchSupport
import DBus
import Foundation
import TestSupport

let ms = Milliseconds(decimals: 2)

/// Spawns argv and waits for it to exit (no shell); returns the wall time.
func timed(_ argv: [String], environment: [String: String]) throws -> Double {
    let start = now()
    let result = try Command.run(argv, environment: environment, timeout: 20)
    guard result.status == 0 else { throw HarnessError("\(argv[0]) failed: \(result)") }
    return now() - start
}

/// Time from starting argv until the recording browser logged one more launch.
func clickToSpawn(_ argv: [String], environment: [String: String], browser: RecordingBrowser) throws -> Double {
    let before = browser.records().count
    let start = now()
    let child = try ChildProcess(argv, environment: environment, stdin: nil)
    while browser.records().count <= before {
        guard now() - start < 10 else { throw HarnessError("\(argv.joined(separator: " ")) never reached the browser") }
        usleep(100)
    }
    let elapsed = now() - start
    _ = child.waitForExit(timeout: 10)
    return elapsed
}

func rssKiB(_ pid: UInt32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}

func cpuTicks(_ pid: UInt32) -> Int {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return -1 }
    let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
    return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
}

let idleSeconds = Double(CommandLine.arguments.dropFirst().first ?? "30") ?? 30
let runs = 40
let desktop = try IsolatedDesktop(name: "bench")
let browser = try RecordingBrowser(logFile: desktop.root + "/browser.log")
let openurl = try BuiltProduct.path("openurl")
let openurld = try BuiltProduct.path("openurld")
try desktop.writeDesktopEntry(id: "browser.desktop", contents: IsolatedDesktop.desktopEntry(
    name: "Browser", exec: "\(browser.executable) %u", mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"]))
try desktop.writeDesktopEntry(id: "trivial.desktop", contents: IsolatedDesktop.desktopEntry(
    name: "Trivial", exec: "/bin/true %u", mimeTypes: ["x-scheme-handler/https"]))
var rules = "[settings]\ndedupe_ms = 0\n[default]\ndiscard = true\n"
for i in 0..<1000 { rules += "[[rules]]\nmatch.domain = \"site\(i).example\"\nopen = \"browser.desktop\"\n" }
rules += "[[rules]]\nmatch.domain = \"click.example\"\nopen = \"browser.desktop\"\n"
try FileManager.default.createDirectory(atPath: desktop.configHome + "/openurld", withIntermediateDirectories: true)
try rules.write(toFile: desktop.configHome + "/openurld/config.toml", atomically: true, encoding: .utf8)
var base = desktop.environment
for (key, value) in browser.environment { base[key] = value }
let bus = try PrivateBus(environment: base)
try bus.addService(name: "io.github.openurld", exec: [openurld])
let environment = bus.environment(base)
let connection = try bus.connect()
func call(_ method: String, _ args: [DBusValue]) throws -> [DBusValue] {
    try connection.call(destination: "io.github.openurld", path: "/io/github/openurld", interface: "io.github.openurld.Router1",
                        method: method, arguments: args, timeout: 20)
}
_ = try call("Explain", [.string("https://warm.example/"), .vardict([:])])
let pid = try connection.processID(of: "io.github.openurld")

print("openurld daemon benchmark (release; private bus; 1,001-rule config)\n")
print("1. One link, process start to reply (no-op action: discard), \(runs) runs each")
func setDefault(_ id: String) throws {
    try "[Default Applications]\nx-scheme-handler/https=\(id)\nx-scheme-handler/http=\(id)\n"
        .write(toFile: desktop.configHome + "/mimeapps.list", atomically: true, encoding: .utf8)
}
try setDefault("trivial.desktop")
var table: [(String, [Double])] = []
table.append(("openurl URL", try (0..<runs).map { try timed([openurl, "https://noop.example/\($0)"], environment: environment) }))
// dbus-send cannot build a{sv} with variants, so it measures a bare round trip to the same daemon.
table.append(("dbus-send Properties.Get", try (0..<runs).map { _ in try timed(["dbus-send", "--session", "--print-reply", "--dest=io.github.openurld", "/io/github/openurld",
    "org.freedesktop.DBus.Properties.Get", "string:io.github.openurld.Router1", "string:Version"], environment: environment) }))
table.append(("gdbus call Open", try (0..<runs).map { try timed(["gdbus", "call", "--session", "--dest", "io.github.openurld", "--object-path", "/io/github/openurld",
    "--method", "io.github.openurld.Router1.Open", "https://noop.example/d\($0)", "{}"], environment: environment) }))
table.append(("gio open (trivial handler)", try (0..<runs).map { try timed(["gio", "open", "https://noop.example/g\($0)"], environment: environment) }))
table.append(("xdg-open (trivial handler)", try (0..<runs).map { try timed(["xdg-open", "https://noop.example/x\($0)"], environment: environment) }))
let openurlMedian = median(table[0].1)
for (name, values) in table {
    print("  \(name.padding(toLength: 28, withPad: " ", startingAt: 0)) median \(ms(median(values)))  p90 \(ms(p90(values)))  \(String(format: "%.2f", median(values) / openurlMedian))× openurl")
}
print("  goal: openurl median ≤ 3 ms → \(openurlMedian <= 0.003 ? "met" : "missed")\n")

print("2. Open with dry-run over one connection")
var latencies: [Double] = []
for i in 0..<2000 {
    let start = now()
    _ = try call("Open", [.string("https://site\(i % 1000).example/p"), .vardict(["dry-run": .bool(true)])])
    latencies.append(now() - start)
}
print("  median \(ms(median(latencies)))  p90 \(ms(p90(latencies)))  goal ≤ 0.3 ms → \(median(latencies) <= 0.0003 ? "met" : "missed")")
let perClient = 5000
let clients = 4
let errors = Locked(0)
let group = DispatchGroup()
let sustainedStart = now()
for c in 0..<clients {
    group.enter()
    Thread.detachNewThread {
        defer { group.leave() }
        guard let own = try? bus.connect() else { errors.update { $0 += perClient }; return }
        for i in 0..<perClient {
            do {
                _ = try own.call(destination: "io.github.openurld", path: "/io/github/openurld", interface: "io.github.openurld.Router1",
                                 method: "Open", arguments: [.string("https://site\((i + c) % 1000).example/\(i)"), .vardict(["dry-run": .bool(true)])], timeout: 20)
            } catch { errors.update { $0 += 1 } }
        }
    }
}
group.wait()
let rate = Double(clients * perClient) / (now() - sustainedStart)
print("  sustained: \(Int(rate)) calls/s from \(clients) clients, \(errors.value) errors; goal ≥ 10,000/s → \(rate >= 10_000 && errors.value == 0 ? "met" : "missed")\n")

print("3. Idle footprint")
let rss = rssKiB(pid)
let cpuBefore = cpuTicks(pid)
Thread.sleep(forTimeInterval: idleSeconds)
let cpuAfter = cpuTicks(pid)
print("  RSS \(rss / 1024) MB with 1,001 rules (goal ≤ 20 MB → \(rss <= 20 * 1024 ? "met" : "missed")); CPU ticks over \(Int(idleSeconds)) idle s: \(cpuAfter - cpuBefore) (goal 0 → \(cpuAfter == cpuBefore ? "met" : "missed"))\n")

print("4. Click to spawn: until the recording browser has the link, \(runs) runs each")
let installed = try String(contentsOfFile: FileManager.default.currentDirectoryPath + "/desktop/io.github.openurld.desktop", encoding: .utf8)
    .replacingOccurrences(of: "Exec=openurl %u", with: "Exec=\(openurl) %u")
try desktop.writeDesktopEntry(id: "io.github.openurld.desktop", contents: installed)
var clicks: [(String, [Double])] = []
try setDefault("browser.desktop")
clicks.append(("xdg-open → browser", try (0..<runs).map { try clickToSpawn(["xdg-open", "https://click.example/a\($0)"], environment: environment, browser: browser) }))
clicks.append(("gio open → browser", try (0..<runs).map { try clickToSpawn(["gio", "open", "https://click.example/b\($0)"], environment: environment, browser: browser) }))
try setDefault("io.github.openurld.desktop")
clicks.append(("xdg-open → openurl → openurld", try (0..<runs).map { try clickToSpawn(["xdg-open", "https://click.example/c\($0)"], environment: environment, browser: browser) }))
clicks.append(("gio open → D-Bus → openurld", try (0..<runs).map { try clickToSpawn(["gio", "open", "https://click.example/d\($0)"], environment: environment, browser: browser) }))
for (name, values) in clicks {
    print("  \(name.padding(toLength: 30, withPad: " ", startingAt: 0)) median \(ms(median(values)))  p90 \(ms(p90(values)))")
}
let addedXdg = median(clicks[2].1) - median(clicks[0].1)
let addedGio = median(clicks[3].1) - median(clicks[1].1)
print("  openurld adds \(ms(addedXdg)) to xdg-open and \(ms(addedGio)) to gio open (goal ≤ 3 ms each → \(addedXdg <= 0.003 && addedGio <= 0.003 ? "met" : "missed"))")
print("  D-Bus path vs xdg-open without openurld: \(String(format: "%.2f", median(clicks[0].1) / median(clicks[3].1)))× faster (goal > 1 → \(median(clicks[3].1) < median(clicks[0].1) ? "met" : "missed"))")
bus.stop()

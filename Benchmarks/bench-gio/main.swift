// Issue 21, case 4: what the GIO path costs per click, and what each way of giving it a deadline
// does when the daemon is stopped (SIGSTOP). Same run, same private bus and isolated desktop:
//   A. `DBusActivatable=true`: GIO calls org.freedesktop.Application.Open itself (no deadline);
//   B. no `DBusActivatable`: GIO spawns `Exec=openurl %u`, the 73 KB handler with its 2 s deadline
//      and in-process fallback;
//   C. A plus a watchdog that kills a daemon that misses a ping (what systemd's WatchdogSec does);
//   D. A with the daemon resumed after 3 s (what dropping calls that waited too long would see).
//   swift build -c release --product bench-gio && .build/release/bench-gio [RUNS]
import BenchSupport
import Foundation
import TestSupport
import DBus

let ms = Milliseconds(decimals: 1)

/// A `gio open URL`: when it exited (and how), and when the browser had the link (nil: never, within `limit`).
struct Click { var exited: Double; var status: Int32?; var arrived: Double? }

func gioOpen(_ url: String, environment: [String: String], browser: RecordingBrowser, limit: Double, during: (Double) -> Void = { _ in }) throws -> Click {
    let start = now()
    let child = try ChildProcess(["gio", "open", url], environment: environment, stdin: nil)
    var exited: Double?
    var status: Int32?
    var arrived: Double?
    while now() - start < limit, exited == nil || arrived == nil {
        if exited == nil, let code = child.poll() { exited = now() - start; status = code }
        if arrived == nil, browser.records().contains([url]) { arrived = now() - start }
        during(now() - start)
        usleep(200)
    }
    if exited == nil { _ = child.terminate(grace: 1) }
    return Click(exited: exited ?? limit, status: status, arrived: arrived)
}

let runs = Int(CommandLine.arguments.dropFirst().first ?? "40") ?? 40
let desktop = try IsolatedDesktop(name: "bench-gio")
let browser = try RecordingBrowser(logFile: desktop.root + "/browser.log")
let openurl = try BuiltProduct.path("openurl")
let openurld = try BuiltProduct.path("openurld")
try desktop.writeDesktopEntry(id: "browser.desktop", contents: IsolatedDesktop.desktopEntry(
    name: "Browser", exec: "\(browser.executable) %u", mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"]))
try FileManager.default.createDirectory(atPath: desktop.configHome + "/openurld", withIntermediateDirectories: true)
try "[settings]\ndedupe_ms = 0\n[default]\nopen = \"browser.desktop\"\n".write(toFile: desktop.configHome + "/openurld/config.toml", atomically: true, encoding: .utf8)
try "[Default Applications]\nx-scheme-handler/https=io.github.openurld.desktop\nx-scheme-handler/http=io.github.openurld.desktop\n"
    .write(toFile: desktop.configHome + "/mimeapps.list", atomically: true, encoding: .utf8)
var base = desktop.environment
for (key, value) in browser.environment { base[key] = value }
let bus = try PrivateBus(environment: base)
try bus.addService(name: "io.github.openurld", exec: [openurld])
let environment = bus.environment(base)
let connection = try bus.connect()

/// Our desktop entry as installed, with or without `DBusActivatable=true`.
func installEntry(dbusActivatable: Bool) throws {
    var lines = ["[Desktop Entry]", "Type=Application", "Name=openurld", "Exec=\(openurl) %u", "NoDisplay=true",
                 "MimeType=x-scheme-handler/http;x-scheme-handler/https;x-scheme-handler/mailto;"]
    if dbusActivatable { lines.append("DBusActivatable=true") }
    try desktop.writeDesktopEntry(id: "io.github.openurld.desktop", contents: lines.joined(separator: "\n") + "\n")
}
func daemonPID() throws -> pid_t {
    _ = try connection.call(destination: "io.github.openurld", path: "/io/github/openurld", interface: "org.freedesktop.DBus.Peer", method: "Ping", timeout: 10)
    return pid_t(try connection.processID(of: "io.github.openurld"))
}

print("GIO path of a click (release; private bus; gio open → openurld → recording browser)\n")
print("1. Warm clicks, \(runs) runs each, interleaved: until gio exits / until the browser has the link")
var warm: [Bool: (exit: [Double], arrive: [Double])] = [true: ([], []), false: ([], [])]
_ = try daemonPID()
for run in 0..<runs {
    for activatable in [true, false] {
        try installEntry(dbusActivatable: activatable)
        let click = try gioOpen("https://warm.example/\(activatable ? "a" : "b")\(run)", environment: environment, browser: browser, limit: 10)
        guard let arrived = click.arrived, click.status == 0 else { throw HarnessError("warm click \(run) failed: \(click)") }
        warm[activatable]?.exit.append(click.exited)
        warm[activatable]?.arrive.append(arrived)
    }
}
for activatable in [true, false] {
    let values = warm[activatable] ?? ([], [])
    print("  \((activatable ? "A. DBusActivatable (Application.Open)" : "B. Exec=openurl %u (spawned)").padding(toLength: 40, withPad: " ", startingAt: 0))"
          + " gio exits \(ms(median(values.exit))) (p90 \(ms(p90(values.exit))))  link arrives \(ms(median(values.arrive))) (p90 \(ms(p90(values.arrive))))")
}
let cost = median(warm[false]?.arrive ?? [0]) - median(warm[true]?.arrive ?? [0])
print("  B costs \(ms(cost)) more per click than A until the link arrives (median against median)\n")

print("2. The daemon stopped (SIGSTOP): one click each (the promise: reaches an app within 3 s, exactly once)")
func stopped(_ name: String, activatable: Bool, limit: Double, resumeAt: Double? = nil, killAt: Double? = nil) throws {
    try installEntry(dbusActivatable: activatable)
    let pid = try daemonPID()
    let url = "https://stopped.example/\(name.prefix(1))"
    kill(pid, SIGSTOP)
    var acted = false
    let click = try gioOpen(url, environment: environment, browser: browser, limit: limit) { elapsed in
        if !acted, let at = resumeAt, elapsed >= at { kill(pid, SIGCONT); acted = true }
        if !acted, let at = killAt, elapsed >= at { kill(pid, SIGKILL); acted = true }
    }
    let resumed = now()
    if killAt == nil { kill(pid, SIGCONT) }
    // The daemon, resumed (or a new one), answers this Ping after what waited for it; a launch
    // it made then shows within a second or two.
    _ = try? daemonPID()
    var late: Double?
    if click.arrived == nil {
        while now() - resumed < 3, late == nil {
            if browser.records().contains([url]) { late = now() - resumed }
            usleep(1000)
        }
    }
    let opened = browser.records().filter { $0 == [url] }.count
    let arrival = click.arrived.map { ms($0) } ?? late.map { "only after the daemon resumed (+\(ms($0)))" } ?? "never"
    print("  \(name.padding(toLength: 34, withPad: " ", startingAt: 0)) gio exits after \(ms(click.exited)) (status \(click.status.map(String.init) ?? "killed")); link arrives \(arrival); opened \(opened)×")
}
try stopped("A. DBusActivatable", activatable: true, limit: 30)
try stopped("B. Exec=openurl %u", activatable: false, limit: 30)
try stopped("C. A + watchdog kills it at 2 s", activatable: true, limit: 30, killAt: 2)
try stopped("D. A, daemon resumed at 3 s", activatable: true, limit: 30, resumeAt: 3)
bus.stop()

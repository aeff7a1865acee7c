// Chooser start-up benchmark: from the click (`openurl URL`, through the daemon) to the chooser
// window mapped, beside `zenity --list` (GTK) and the chooser started directly, in one run on one
// Xvfb with no window manager; then the settings window (`openurl settings`, issue 35) from exec
// to its window mapped, the first start of the run and the median, beside the same zenity. "Mapped" is the MapNotify that `xev -root -event substructure`
// reports for a new top-level window. Run in release mode:
//   make release && swift build -c release --product bench-chooser   (openurl-chooser is a symlink to openurld)
//   .build/release/bench-chooser [runs]
import BenchSupport
import Foundation
import TestSupport

let ms = Milliseconds(width: 7, decimals: 1)

/// MapNotify times from xev, read on a thread as they come.
final class MapWatcher {
    private let xev: ChildProcess
    private let lock = NSLock()
    private var maps: [Double] = []

    init(environment: [String: String]) throws {
        xev = try ChildProcess(["stdbuf", "-oL", "xev", "-root", "-event", "substructure"], environment: environment)
        guard let fd = xev.stdoutFD else { throw HarnessError("xev stdout not captured") }
        let thread = Thread { [weak self] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 8192)
            while true {
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { return }
                let at = now()
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: 0x0A) {
                    if String(decoding: pending[..<newline], as: UTF8.self).hasPrefix("MapNotify event") {
                        self?.lock.withLock { self?.maps.append(at) }
                    }
                    pending.removeSubrange(...newline)
                }
            }
        }
        thread.start()
        usleep(300_000)  // xev selects its events before the first run
    }

    /// The time of the first map after `start`, waiting up to 10 s.
    func firstMap(after start: Double) throws -> Double {
        while now() - start < 10 {
            if let time = lock.withLock({ maps.first { $0 >= start } }) { return time }
            usleep(200)
        }
        throw HarnessError("no window was mapped within 10 s")
    }

    func stop() { _ = xev.terminate(grace: 0.5) }
}

let runs = Int(CommandLine.arguments.dropFirst().first ?? "20") ?? 20
let desktop = try IsolatedDesktop(name: "benchchooser")
let display = try VirtualDisplay()
let openurl = try BuiltProduct.path("openurl")
let openurld = try BuiltProduct.path("openurld")
let chooser = try BuiltProduct.path("openurl-chooser")
try desktop.writeDesktopEntry(id: "browser.desktop", contents: IsolatedDesktop.desktopEntry(
    name: "Browser", exec: "/bin/true %u", mimeTypes: ["x-scheme-handler/http", "x-scheme-handler/https"]))
try desktop.writeDesktopEntry(id: "work.desktop", contents: IsolatedDesktop.desktopEntry(name: "Work Browser", exec: "/bin/true %u"))
let config = """
    [settings]
    dedupe_ms = 0
    ask_with = "window"

    [[rules]]
    match.domain = "ask.example"
    ask = ["browser.desktop", "work.desktop", "copy", "discard"]
    """
try FileManager.default.createDirectory(atPath: desktop.configHome + "/openurld", withIntermediateDirectories: true)
try config.write(toFile: desktop.configHome + "/openurld/config.toml", atomically: true, encoding: .utf8)
let base = display.environment(desktop.environment)
let bus = try PrivateBus(environment: base)
try bus.addService(name: "io.github.openurld", exec: [openurld])
let environment = bus.environment(base)
let watcher = try MapWatcher(environment: environment)

/// Closes whatever chooser or zenity window is up and waits until none is.
func closeWindows(_ child: ChildProcess?) throws {
    if let child { _ = child.terminate(grace: 1) }
    for _ in 0..<200 {
        let found = try Command.run(["xdotool", "search", "--onlyvisible", "--name", "^(Open link|Pick|Link routing)"], environment: environment)
        guard let window = found.stdout.split(separator: "\n").first else { return }
        _ = try Command.run(["xdotool", "windowfocus", "--sync", String(window), "key", "Escape"], environment: environment)
        usleep(20_000)
    }
    throw HarnessError("a window would not close")
}

/// One timed start: from spawning `argv` to the first window mapped.
func timeToMap(_ argv: [String], keepChild: Bool) throws -> Double {
    let start = now()
    let child = try ChildProcess(argv, environment: environment, captureOutput: false)
    let mapped = try watcher.firstMap(after: start)
    try closeWindows(keepChild ? child : nil)
    if !keepChild { _ = child.waitForExit(timeout: 5) }
    return mapped - start
}

let url = "https://ask.example/some/page?id=42"
let zenity = ["zenity", "--list", "--title=Pick", "--column=Open with", "Browser", "Work Browser", "Copy", "Discard"]
let direct = [chooser, "--url", url] + ["browser.desktop\tBrowser\tweb-browser", "work.desktop\tWork Browser\tweb-browser", "copy\tCopy\tedit-copy", "discard\tDiscard\tuser-trash"].flatMap { ["--choice", $0] }
// Warm up: fill the page cache for GTK, zenity and the chooser. The first click also starts the
// daemon and the resident chooser (`openurl-chooser --serve`): that is the cold click.
let settingsWindow = [openurl, "settings"]
// Before anything else of this binary's GTK side has run in this process tree: the first start.
let coldSettings = try timeToMap(settingsWindow, keepChild: true)
let coldClick = try timeToMap([openurl, url], keepChild: false)
_ = try timeToMap(zenity, keepChild: true)
_ = try timeToMap(direct, keepChild: true)

var clicks: [Double] = [], zenityTimes: [Double] = [], directTimes: [Double] = [], settingsTimes: [Double] = []
for _ in 0..<runs {
    clicks.append(try timeToMap([openurl, url], keepChild: false))
    settingsTimes.append(try timeToMap(settingsWindow, keepChild: true))
    zenityTimes.append(try timeToMap(zenity, keepChild: true))
    directTimes.append(try timeToMap(direct, keepChild: true))
}

// The timing table itself (a later change kept only the goal line, and the figures went unseen).
print("Chooser start-up (release; Xvfb, no window manager; \(runs) runs each, interleaved; GSK_RENDERER=\(ProcessInfo.processInfo.environment["GSK_RENDERER"] ?? "default"))\n")
print("| path | median | p90 | vs zenity |")
print("|---|---|---|---|")
for (name, values) in [("`openurl URL` → openurld → resident chooser → window mapped", clicks),
                       ("openurl-chooser cold start (one process per question) → window mapped", directTimes),
                       ("`zenity --list` (GTK 3) → window mapped", zenityTimes)] {
    print("| \(name) | \(ms(median(values))) | \(ms(p90(values))) | \(String(format: "%.2f×", median(values) / median(zenityTimes))) |")
}
print("| first click of the run (starts openurld and the chooser server; one sample) | \(ms(coldClick)) | | \(String(format: "%.2f×", coldClick / median(zenityTimes))) |")

// Issue 35: the settings window reads the rules and recent clicks over the bus before it maps.
print("\nSettings window start-up (`openurl settings` → its window mapped, the daemon running)\n")
print("| path | median | p90 | vs zenity |")
print("|---|---|---|---|")
print("| `openurl settings` (the handler execs openurl-tool, which execs openurl-settings) | \(ms(median(settingsTimes))) | \(ms(p90(settingsTimes))) | \(String(format: "%.2f×", median(settingsTimes) / median(zenityTimes))) |")
print("| the first start of the run (one sample; starts openurld by activation) | \(ms(coldSettings)) | | \(String(format: "%.2f×", coldSettings / median(zenityTimes))) |")
print("| `zenity --list` (GTK 3) | \(ms(median(zenityTimes))) | \(ms(p90(zenityTimes))) | 1.00× |")
print("goal: settings window ≤ 300 ms from a cold start: \(coldSettings <= 0.300 ? "met" : "MISSED") (\(ms(coldSettings))); median \(median(settingsTimes) <= 0.300 ? "met" : "MISSED")")

/// `VmRSS`, `RssAnon` and `RssFile` from /proc/PID/status and `Pss` from smaps_rollup, in MiB.
func memory(_ pid: Int32) -> [String: Double] {
    var figures: [String: Double] = [:]
    for file in ["status", "smaps_rollup"] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let kib = Double(parts[1]) else { continue }
            let name = String(parts[0].dropLast())
            if ["VmRSS", "RssAnon", "RssFile", "Pss"].contains(name) { figures[name] = kib / 1024 }
        }
    }
    return figures
}

/// The resident chooser (`openurl-chooser --serve`) this run's daemon started, found in /proc
/// by its command line and this run's config directory in its environment.
func residentChooser() -> Int32? {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    let ours = Array("XDG_CONFIG_HOME=\(desktop.configHome)".utf8)
    for entry in entries {
        guard let pid = Int32(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
        let argv = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard argv.count == 2, argv[0].hasSuffix("/openurl-chooser"), argv[1] == "--serve",
              let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { continue }
        if environ.split(separator: 0).contains(where: { Array($0) == ours }) { return pid }
    }
    return nil
}

// Case 7 of issue 26: what the resident chooser holds while kept (`chooser_idle`).
if let pid = residentChooser() {
    func row(_ name: String, _ figures: [String: Double]) -> String {
        "| \(name) | " + ["VmRSS", "RssAnon", "RssFile", "Pss"].map { String(format: "%.0f MiB", figures[$0] ?? 0) }.joined(separator: " | ") + " |"
    }
    print("\nMemory held (after \(runs + 1) windows through the daemon)\n")
    print("| process | resident | anonymous (its own) | file-backed (shared libraries) | proportional |")
    print("|---|---|---|---|---|")
    print(row("resident chooser, idle at once", memory(pid)))
    sleep(10)  // idle time is the thing measured
    print(row("resident chooser, idle 10 s", memory(pid)))
}
print("\ngoal: click → window ≤ zenity and < 150 ms median: \(median(clicks) <= median(zenityTimes) && median(clicks) < 0.150 ? "met" : "MISSED")")
watcher.stop()
bus.stop()
display.stop()

// Issue 33: how long `openurl doctor` takes, every row probed (goal: the whole run under 3 s),
// beside `openurl status`, which reads the same files without running anything, from one run on
// one private bus, Xvfb display and isolated desktop where openurld is the default.
//   swift build -c release --product bench-doctor && .build/release/bench-doctor [RUNS]
import BenchSupport
import Foundation
import TestSupport

let runs = Int(CommandLine.arguments.dropFirst().first ?? "5") ?? 5
let ms = Milliseconds(decimals: 0)
let desktop = try IsolatedDesktop(name: "bench-doctor")
let openurl = try BuiltProduct.path("openurl")
let openurld = try BuiltProduct.path("openurld")
let entry = try String(contentsOfFile: "desktop/io.github.openurld.desktop", encoding: .utf8)
    .replacingOccurrences(of: "Exec=openurl %u", with: "Exec=\(openurl) %u")
try desktop.writeDesktopEntry(id: "io.github.openurld.desktop", contents: entry)
let display = try VirtualDisplay()
var base = display.environment(desktop.environment)
base["XDG_CURRENT_DESKTOP"] = "GNOME"
base["XDG_DATA_DIRS"] = desktop.dataDir + ":/usr/local/share:/usr/share"
base["XDG_CONFIG_DIRS"] = "/etc/xdg"
base["NO_AT_BRIDGE"] = "1"
let bus = try PrivateBus(serviceDirectories: ["/usr/share/dbus-1/services"], environment: base)
try bus.addService(name: "io.github.openurld", exec: [openurld])
let environment = bus.environment(base)

func run(_ argv: [String]) throws -> (seconds: Double, result: ToolResult) {
    let start = now()
    let result = try Command.run(argv, environment: environment, timeout: 60)
    return (now() - start, result)
}

guard try run([openurl, "install", "--force"]).result.status == 0 else { throw HarnessError("openurl install failed") }
// The first run starts the daemon and the portal; it is not counted.
_ = try run([openurl, "doctor"])
var doctor: [Double] = []
var status: [Double] = []
var rows: [String: [Double]] = [:]
var probed = 0
for _ in 0..<runs {
    let (seconds, result) = try run([openurl, "doctor", "--json"])
    doctor.append(seconds)
    status.append(try run([openurl, "status"]).seconds)
    probed = 0
    for line in result.stdout.split(separator: "\n") {
        guard let data = line.data(using: .utf8), let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let path = object["path"] as? String else { continue }
        if let value = object["milliseconds"] as? Double { rows[path, default: []].append(value / 1000); probed += 1 }
    }
}
display.stop()
bus.stop()
print("openurl doctor (release; \(runs) runs; private bus, Xvfb, the real tools; \(probed) rows probed in parallel)\n")
print("  whole run      median \(ms(median(doctor))), slowest \(ms(doctor.max() ?? 0))   (goal: under 3000 ms)")
print("  openurl status median \(ms(median(status))) (reads the files, runs nothing)   doctor/status: \(fixed(median(doctor) / median(status), 1))×")
print("\n  each probe, launch to arrival at openurld (median):")
for (path, values) in rows.sorted(by: { median($0.value) > median($1.value) }) {
    print("    \(path.padding(toLength: 44, withPad: " ", startingAt: 0)) \(ms(median(values)))")
}
if median(doctor) >= 3 { print("\nFAIL: the doctor's whole run is over 3 s"); exit(1) }

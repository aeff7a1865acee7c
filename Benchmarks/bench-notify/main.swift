// Clipboard and notification benchmark, against the tools a user would run by hand, on a private
// Xvfb + dunst + dbus-daemon (never the user's session). Run in release mode:
//   swift build -c release --product bench-notify && .build/release/bench-notify
import BenchSupport
import DBus
import Notifying
import Execution
import Launching
import Foundation
import TestSupport
import ConfigLanguage

struct Stats {
    let median: Double, p90: Double
    init(_ samples: [Double]) {
        median = BenchSupport.median(samples)
        p90 = BenchSupport.p90(samples)
    }
}

let ms = Milliseconds(width: 8, decimals: 3)

func row(_ name: String, ours: [Double], peerName: String, peer: [Double]) {
    let a = Stats(ours), b = Stats(peer)
    print("\(name)")
    print("  openurld          median \(ms(a.median))  p90 \(ms(a.p90))")
    print("  \(peerName.padding(toLength: 17, withPad: " ", startingAt: 0)) median \(ms(b.median))  p90 \(ms(b.p90))")
    print(String(format: "  ratio peer/ours  median %.2fx  p90 %.2fx\n", b.median / a.median, b.p90 / a.p90))
}

/// Spawns argv and blocks in waitpid until it exits: the peer's process cost as a shell pays it,
/// with no polling interval added.
func runToExit(_ argv: [String], environment: [String: String]) throws {
    let pid = try ProcessLauncher().spawn(argv, environment: environment)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    guard status == 0 else { throw HarnessError("\(argv[0]) failed with wait status \(status)") }
}

/// Runs `xclip -o` until it prints `text` (a reader that does not fork, so its pipe's end-of-file
/// marks its exit at once).
func waitReadable(_ text: String, environment: [String: String]) throws {
    let end = now() + 3
    while now() < end {
        let result = try ProcessLauncher().run(["xclip", "-o", "-selection", "clipboard"], environment: environment, timeout: 5)
        if result.outputText == text { return }
    }
    throw HarnessError("clipboard never held \(text)")
}

let iterations = Int(ProcessInfo.processInfo.environment["BENCH_ITERATIONS"] ?? "") ?? 40

do {
    let bus = try PrivateBus()
    let server = try NotificationServer(bus: bus)
    let env = server.environment

    // Clipboard: copy until `xclip -o` reads it back, ours (posix_spawn of xclip, text on a pipe)
    // against the same copy typed in a shell: sh -c 'printf %s "$1" | xclip -selection clipboard'.
    let writer = try ClipboardSelector.writer(setting: .auto, environment: env, bus: nil)
    var oursCopy: [Double] = [], peerCopy: [Double] = [], oursReadable: [Double] = [], peerReadable: [Double] = []
    for i in 0..<iterations {
        let a = "https://example.org/ours/\(i)"
        var start = now()
        try writer.copy(a)
        oursCopy.append(now() - start)
        try waitReadable(a, environment: env)
        oursReadable.append(now() - start)

        let b = "https://example.org/peer/\(i)"
        start = now()
        try runToExit(["sh", "-c", "printf %s \"$1\" | xclip -selection clipboard", "sh", b], environment: env)
        peerCopy.append(now() - start)
        try waitReadable(b, environment: env)
        peerReadable.append(now() - start)
        ChildReaper.reapAll()
    }
    print("clipboard via \(ClipboardSelector.describe(setting: .auto, environment: env, bus: nil)), \(iterations) runs each\n")
    row("copy returns", ours: oursCopy, peerName: "sh | xclip", peer: peerCopy)
    row("copy until `xclip -o` reads it", ours: oursReadable, peerName: "sh | xclip", peer: peerReadable)

    // Notify: a round trip on the daemon's existing connection against a notify-send process.
    let connection = try bus.connect()
    let client = try NotificationClient(connection: connection)
    _ = try client.capabilities()
    func closeAll() throws {
        _ = try connection.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                interface: "org.dunstproject.cmd0", method: "NotificationCloseAll", timeout: 5)
    }
    var oursNotify: [Double] = [], peerNotify: [Double] = []
    for i in 0..<iterations {
        let request = NotificationRequest(summary: "Copied link", body: "example.org\nhttps://example.org/\(i)")
        var start = now()
        _ = try client.notify(request)
        oursNotify.append(now() - start)
        start = now()
        try runToExit(["notify-send", "-a", "openurld", "Copied link", "example.org\nhttps://example.org/\(i)"], environment: env)
        peerNotify.append(now() - start)
        if i % 10 == 9 { try closeAll() }
        _ = connection.readWriteDispatch(timeout: 0)
    }
    try closeAll()
    row("notify (server: \(try client.serverInformation()))", ours: oursNotify, peerName: "notify-send", peer: peerNotify)
    server.stop()
    bus.stop()
} catch {
    print("bench-notify: \(error)")
    exit(1)
}

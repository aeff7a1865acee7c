// Bus round trips per click, counted by `dbus-monitor --profile` on the private bus: every
// method call made while a warm `openurl URL` runs (its Hello and Open, and whatever the daemon
// asks the bus or other services for that click), beside `dbus-send` (Hello and one call).
import BenchSupport
import Foundation
import TestSupport

/// The method calls seen on the bus per run of `argv`, over `runs` runs.
func methodCallsPerRun(_ session: Session, _ argv: [String], runs: Int) throws -> Double {
    let address = session.environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
    let log = NSTemporaryDirectory() + "openurld-monitor-\(getpid()).txt"
    FileManager.default.createFile(atPath: log, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: log) }
    let monitor = Process()
    monitor.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // Line-buffered, so each message is in the log as it happens.
    monitor.arguments = ["stdbuf", "-oL", "dbus-monitor", "--address", address, "--profile"]
    monitor.standardOutput = FileHandle(forWritingAtPath: log)
    try monitor.run()
    defer { monitor.terminate(); monitor.waitUntilExit() }
    // The monitor is ready once it has printed its header.
    let start = now()
    while !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("#type") {
        guard now() - start < 5 else { throw BenchError("dbus-monitor did not start") }
        usleep(2000)
    }
    let before = try countedCalls(log)
    for _ in 0..<runs { _ = try timed(argv, environment: session.environment) }
    usleep(100_000)  // the last messages reach the monitor's log
    return Double(try countedCalls(log) - before) / Double(runs)
}

/// Method calls (`mc` lines) in the monitor's log.
private func countedCalls(_ log: String) throws -> Int {
    try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("mc\t") }.count
}

/// Round trips of a warm click, with the bench's config and with a `match.opener` rule (which
/// needs the caller's process), beside dbus-send.
func measureRoundTrips(_ session: Session, runs: Int) throws -> (plain: Double, opener: Double, moment: Double, dbusSend: Double) {
    try session.ping()
    let dbusSend = ["dbus-send", "--session", "--print-reply", "--dest=\(Session.busName)", "/io/github/openurld",
                    "org.freedesktop.DBus.Properties.Get", "string:io.github.openurld.Router1", "string:Version"]
    for run in 0..<3 { _ = try timed([session.openurl, "https://noop.example/rt-warm\(run)"], environment: session.environment) }
    let plain = try methodCallsPerRun(session, [session.openurl, "https://noop.example/rt"], runs: runs)
    let peer = try methodCallsPerRun(session, dbusSend, runs: runs)
    let config = session.desktop.configHome + "/openurld/config.toml"
    let original = try String(contentsOfFile: config, encoding: .utf8)
    defer {
        try? original.write(toFile: config, atomically: true, encoding: .utf8)
        _ = try? session.call("Reload", [])
    }
    try (original + "[[rules]]\nmatch.opener = \"no-such-app\"\ndiscard = true\n").write(toFile: config, atomically: true, encoding: .utf8)
    _ = try session.call("Reload", [])
    let opener = try methodCallsPerRun(session, [session.openurl, "https://noop.example/rt-opener"], runs: runs)
    // Issue 24: rules on the moment (network, VPN, time, days, window, keys, any/not) read the
    // watcher's state, the clock and the click's X11 display: no call on the session bus.
    try (original + """
        [[rules]]
        match.any = [{ network = "no-such-net" }, { window = "no-such-window" }]
        match.not = { time = "00:00-24:00" }
        discard = true
        [[rules]]
        match.modifiers = "super"
        match.days = "mon-sun"
        match.vpn = "no-such-vpn"
        discard = true

        """).write(toFile: config, atomically: true, encoding: .utf8)
    _ = try session.call("Reload", [])
    let moment = try methodCallsPerRun(session, [session.openurl, "https://noop.example/rt-moment"], runs: runs)
    return (plain, opener, moment, peer)
}

// Clicks from the outside: `openurl URL` against a `dbus-send` round trip to the same daemon,
// and a cold click (the daemon not running: D-Bus activation starts it) against a warm one.
import Foundation
import Glibc

struct Timings {
    var wall: [Double] = []
    var cpu: [Double] = []
    var toBrowser: [Double] = []
}

/// Interleaved runs of `openurl URL` (a discarded link) and `dbus-send --print-reply`
/// Properties.Get on the running daemon, so load on the machine hits both alike.
func measureWarmVsDBusSend(_ session: Session, runs: Int) throws -> (openurl: Timings, dbusSend: Timings) {
    try session.ping()
    let dbusSend = ["dbus-send", "--session", "--print-reply", "--dest=\(Session.busName)", "/io/github/openurld",
                    "org.freedesktop.DBus.Properties.Get", "string:io.github.openurld.Router1", "string:Version"]
    var openurl = Timings(), peer = Timings()
    for run in 0..<(runs + 3) {
        let a = try timed([session.openurl, "https://noop.example/warm\(run)"], environment: session.environment)
        let b = try timed(dbusSend, environment: session.environment)
        guard run >= 3 else { continue }  // the first runs fill the page cache
        openurl.wall.append(a.wall); openurl.cpu.append(a.cpu)
        peer.wall.append(b.wall); peer.cpu.append(b.cpu)
    }
    return (openurl, peer)
}

/// Alternates a cold click (daemon stopped first) and a warm one, both to the recording browser:
/// the time until `openurl` exits and until the browser has the link.
func measureColdVsWarm(_ session: Session, runs: Int) throws -> (cold: Timings, warm: Timings) {
    var cold = Timings(), warm = Timings()
    for run in 0..<runs {
        for isCold in [true, false] {
            if isCold { try session.stopDaemon() }
            let before = session.browser.records().count
            let start = now()
            let child = try Spawned([session.openurl, "https://click.example/\(isCold ? "cold" : "warm")\(run)"], environment: session.environment)
            let (status, cpu) = child.wait()
            let exited = now() - start
            guard status == 0 else { throw BenchError("openurl exited \(status) on a \(isCold ? "cold" : "warm") click") }
            try session.waitForBrowser(after: before)
            let arrived = now() - start
            if isCold {
                cold.wall.append(exited); cold.cpu.append(cpu); cold.toBrowser.append(arrived)
            } else {
                warm.wall.append(exited); warm.cpu.append(cpu); warm.toBrowser.append(arrived)
            }
        }
    }
    return (cold, warm)
}

// Clicks from the outside: `openurl URL` against a `dbus-send` round trip to the same daemon,
// and a cold click (the daemon not running: D-Bus activation starts it) against a warm one.
import BenchSupport
import Foundation
import TestSupport

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

/// Repeats: a cold click (daemon stopped first), the second click after that start, and a warm
/// one (the third), all to the recording browser: the time until `openurl` exits and until the
/// browser has the link. The second click is shown apart: the daemon is still paging in code.
func measureColdVsWarm(_ session: Session, runs: Int) throws -> (cold: Timings, second: Timings, warm: Timings) {
    var clicks = [Timings(), Timings(), Timings()]
    for run in 0..<runs {
        try session.stopDaemon()
        for (index, name) in ["cold", "second", "warm"].enumerated() {
            let before = session.browser.records().count
            let start = now()
            let child = try Spawned([session.openurl, "https://click.example/\(name)\(run)"], environment: session.environment)
            let (status, cpu) = child.wait()
            let exited = now() - start
            guard status == 0 else { throw BenchError("openurl exited \(status) on a \(name) click") }
            try session.waitForBrowser(after: before)
            clicks[index].wall.append(exited)
            clicks[index].cpu.append(cpu)
            clicks[index].toBrowser.append(now() - start)
        }
    }
    return (clicks[0], clicks[1], clicks[2])
}

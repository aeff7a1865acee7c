import DBus
import Foundation
import TestSupport
import Testing

/// Issue 31 case 10 against the real daemon: a question resumed after a crash and the wall
/// clock set back an hour once lived an hour instead of `ask_timeout`; and memory a burst of
/// calls freed stayed with the daemon (24 → 51 MB after 10,000 parallel calls, 44 → 83 MB after
/// 10 MB arguments).
@Suite(.serialized) struct TimeAndMemoryTests {
    static let faketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"

    /// The daemon's resident size in KiB.
    static func residentKiB(_ pid: UInt32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    @Test func aQuestionResumedAfterTheClockWentBackAnHourLivesAskTimeout() throws {
        try Fault.requireTools()
        guard FileManager.default.fileExists(atPath: Self.faketime) else {
            Issue.record("\(Self.faketime) is missing (Debian package libfaketime, pulled in by faketime)")
            return
        }
        let harness = try DaemonHarness(config: Fault.config("ask_timeout = 120"), name: "clockback", withDesktopSession: true)
        let url = "https://one.ask.example/back"
        let asked = try Fault.open(harness, url)
        #expect(asked.outcome == "asking")
        #expect(Fault.window(harness, host: "one.ask.example") != nil, "the question's window never appeared")
        try Fault.stopDaemon(harness, SIGKILL)
        // The next daemon's wall clock is an hour behind the click's (its monotonic clock is the machine's).
        try harness.writeConfig(Fault.config("ask_timeout = 8"))
        var environment = harness.environment
        environment["LD_PRELOAD"] = Self.faketime
        environment["FAKETIME"] = "-3600"
        environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
        // The daemon resumes the question after it starts, so a life counted from its launch is at
        // least ask_timeout; counting from when the window was seen under load lost seconds.
        let launched = Date()
        let daemon = try ChildProcess(["sh", "-c", "exec \"$0\"", harness.openurld], environment: environment)
        defer { _ = daemon.terminate(grace: 2) }
        try harness.waitUntilServing()
        // Asked again at once (the click is not an hour old by this clock: it is in the future) ...
        #expect(Fault.window(harness, host: "one.ask.example") != nil, "the resumed question was not asked again")
        #expect(Fault.outcomes(harness, [asked.id]) == ["asking"])
        // ... and it expires ask_timeout (8 s) after the resume, not an hour after.
        #expect(eventually(timeout: 30) { Fault.outcomes(harness, [asked.id]) == ["expired"] }, "\(Fault.outcomes(harness, [asked.id]))")
        let lived = Date().timeIntervalSince(launched)
        #expect(lived > 7.5, "expired \(lived) s after the daemon started, before ask_timeout (8 s)")
        #expect(Fault.log(harness).contains("its ask_timeout counts from now"), "\(Fault.log(harness).suffix(2000))")
        #expect(eventually(timeout: 10) { Fault.windows(harness).isEmpty }, "\(Fault.windows(harness))")
        #expect(harness.browser.records().isEmpty)
    }

    /// Sends `count` calls of `Open` with `argument(i)` over `connections` connections, all in
    /// flight before the first reply is read, and waits for every reply.
    static func burst(_ harness: DaemonHarness, count: Int, connections: Int, argument: (Int) -> String) throws {
        let buses = try (0..<connections).map { _ in try harness.connect() }
        let replies = Locked(0)
        for index in 0..<count {
            try buses[index % connections].callAsync(destination: DaemonHarness.busName, path: DaemonHarness.path, interface: DaemonHarness.interface,
                                                     method: "Open", arguments: [.string(argument(index)), .vardict([:])], timeout: 300) { _ in
                replies.update { $0 += 1 }
            }
        }
        #expect(eventually(timeout: 300) {
            for bus in buses { _ = bus.readWriteDispatch(timeout: 0.01) }
            return replies.value == count
        }, "\(replies.value) of \(count) replies")
    }

    /// Measured here (debug build): 10,000 `Open`s from 100 connections took the daemon from 25.9
    /// to 40.2 MB, and it stayed there; a second after the last answer it is now back at 29.7 MB.
    /// Issue 32: what the start freed (the config's parse, the lists' reading) goes back once the
    /// daemon has had a quiet second, as after a burst; said once in the log, as such.
    @Test func memoryTheStartFreedGoesBackOnceTheDaemonIsIdle() throws {
        let harness = try DaemonHarness(config: "[default]\ndiscard = true\n", name: "startmemory")
        try harness.warmUp()
        let said = { Fault.log(harness).components(separatedBy: "gave freed memory back after the start").count - 1 }
        #expect(eventually(timeout: 10) { said() == 1 }, "\(said()) start trims: \(Fault.log(harness).suffix(2000))")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(said() == 1, "the start's trim ran again")
        #expect(!Fault.log(harness).contains("after a burst"), "a start counted as a burst of calls")
    }

    @Test func memoryABurstFreedGoesBackOnceTheDaemonIsIdle() throws {
        let harness = try DaemonHarness(config: "[default]\ndiscard = true\n", name: "burstmemory")
        try harness.warmUp()
        let pid = try harness.daemonPID()
        try Self.burst(harness, count: 20, connections: 1) { "https://example.org/warm/\($0)" }
        Thread.sleep(forTimeInterval: 0.5)  // what a first few calls allocate for good is part of the baseline
        let idle = Self.residentKiB(pid)
        try Self.burst(harness, count: 10_000, connections: 100) { "https://example.org/\($0)?q=" + String(repeating: "x", count: 300) }
        let afterCalls = Self.residentKiB(pid)
        var settled = afterCalls
        let back = eventually(timeout: 20) {
            settled = Self.residentKiB(pid)
            return settled < idle + 6 * 1024
        }
        print("10,000 parallel calls: RSS \(idle) KiB idle, \(afterCalls) KiB after them, \(settled) KiB once idle")
        // Against the release build (`make test-release`) the daemon, faster, stays ~14 MB above
        // idle after calls from 100 connections, in its main heap, and the trim returns nothing
        // (README, "make test-release"): a known issue there, still measured and printed.
        let releaseBuild = !(ProcessInfo.processInfo.environment["OPENURL_TEST_PRODUCTS"] ?? "").isEmpty
        withKnownIssue("the release daemon keeps its heap after a burst from 100 connections", isIntermittent: true) {
            #expect(back, "RSS \(idle) KiB idle, \(afterCalls) KiB after 10,000 calls, still \(settled) KiB")
        } when: { releaseBuild }

        try Self.burst(harness, count: 4, connections: 4) { "https://example.org/" + String(repeating: "a", count: 10 << 20) + "\($0)" }
        let afterBig = Self.residentKiB(pid)
        let bigBack = eventually(timeout: 20) {
            settled = Self.residentKiB(pid)
            return settled < idle + 6 * 1024
        }
        print("4 calls of 10 MB: RSS \(afterBig) KiB after them, \(settled) KiB once idle")
        withKnownIssue("the release daemon keeps its heap after a burst from 100 connections", isIntermittent: true) {
            #expect(bigBack, "RSS \(idle) KiB idle, \(afterBig) KiB after 10 MB arguments, still \(settled) KiB")
        } when: { releaseBuild }
        // A second after each burst's last call the daemon gave what it freed back (malloc_trim): once each.
        let trims = { Fault.log(harness).components(separatedBy: "gave freed memory back after a burst").count - 1 }
        #expect(eventually(timeout: 10) { trims() == 2 }, "\(trims()) trims: \(Fault.log(harness).suffix(2000))")
        // It still answers.
        #expect(try harness.call("Explain", [.string("https://example.org/after"), .vardict([:])]).first?.dictionary?["decision"]?.string == "discard")
    }
}

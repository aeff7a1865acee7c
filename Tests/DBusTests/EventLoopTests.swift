import DBus
import Foundation
import Glibc
import TestSupport
import Testing

@Suite struct EventLoopTests {
    @Test func idleLoopWithAConnectionDoesNotWakeUp() throws {
        let bus = try PrivateBus()
        let connection = try bus.connect()
        let loop = try EventLoop()
        try loop.add(connection)
        loop.run(timeout: 0.1)  // settle: initial watch registration
        let before = loop.wakeUps
        #expect(loop.run(timeout: 0.5) == false)
        // Only the final poll that hits the run timeout may return.
        #expect(loop.wakeUps - before <= 1, "woke \(loop.wakeUps - before) times while idle")
    }

    @Test func descriptorWatchTimerAndPerform() throws {
        let loop = try EventLoop()
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var events: [String] = []
        let token = loop.watch(fd: ends[0]) { _ in
            var byte: UInt8 = 0
            _ = read(ends[0], &byte, 1)
            events.append("fd \(byte)")
        }
        loop.addTimer(after: 0.05) { events.append("timer"); loop.stop() }
        var byte: UInt8 = 7
        _ = write(ends[1], &byte, 1)
        #expect(loop.run(timeout: 5))
        #expect(events == ["fd 7", "timer"])

        loop.remove(token)
        _ = write(ends[1], &byte, 1)
        let performed = Locked<[String]>([])
        Thread.detachNewThread { loop.perform { performed.value.append("performed"); loop.stop() } }
        #expect(loop.run(timeout: 5))
        #expect(events == ["fd 7", "timer"])  // the removed watch no longer fires
        #expect(performed.value == ["performed"])
    }

    @Test func repeatingTimerRepeatsUntilRemoved() throws {
        let loop = try EventLoop()
        var ticks = 0
        var token: EventLoopToken?
        token = loop.addTimer(after: 0.01, repeating: 0.01) {
            ticks += 1
            if ticks == 3, let token { loop.remove(token); loop.addTimer(after: 0.05) { loop.stop() } }
        }
        #expect(loop.run(timeout: 5))
        #expect(ticks == 3)
    }

    @Test func stopBeforeRunReturnsAtOnce() throws {
        let loop = try EventLoop()
        loop.stop()
        #expect(loop.run(timeout: 5))
    }

    @Test func privateBusReportsMissingConfigurationClearly() {
        #expect(ChildProcess.findExecutable("dbus-daemon") != nil, "install dbus (apt-get install dbus)")
        #expect(throws: HarnessError.self) { try Command.run(["openurld-no-such-tool"]) }
    }

    @Test func commandTimeoutKillsTheChild() throws {
        let start = Date()
        let result = try Command.run(["sleep", "30"], timeout: 0.3)
        #expect(result.timedOut)
        #expect(Date().timeIntervalSince(start) < 5)
        let ok = try Command.run(["sh", "-c", "echo out; echo err >&2; exit 3"])
        #expect(ok.status == 3)
        #expect(ok.stdout == "out\n")
        #expect(ok.stderr == "err\n")
    }
}

/// A manual clock: timers fire when the test moves it, however long they are.
@Suite struct ManualClockTests {
    @Test func anHourLongTimerFiresWhenTheClockIsMovedAnHour() throws {
        let loop = try EventLoop(clock: .manual())
        var fired = 0
        loop.addTimer(after: 3600) { fired += 1 }
        loop.advanceClock(by: 3599)
        _ = loop.run(timeout: 0.05)
        #expect(fired == 0)
        loop.advanceClock(by: 1)
        _ = loop.run(timeout: 0.05)
        #expect(fired == 1)
    }
}

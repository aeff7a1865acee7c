import DBus
import Foundation
import TestSupport
import Testing

/// Issue 20: the daemon's loop never waits on another program. A clipboard tool that reads and
/// never exits, or a session manager that does not answer, holds up only the click that needs
/// it: every other call is answered meanwhile, and that click still ends where it should.
@Suite struct LoopLatencyTests {
    /// Calls `Properties.Get(Version)` once `slow`, run on another thread, has `reached` the part
    /// that waits; true when the Version answer came back first, and how long it took.
    func answersWhile(_ harness: DaemonHarness, reached: @escaping () -> Bool, _ slow: @escaping () -> Void) throws -> (versionFirst: Bool, versionSeconds: Double) {
        let slowDone = Locked(false)
        Thread {
            slow()
            slowDone.value = true
        }.start()
        #expect(eventually { reached() }, "the slow call never reached its wait")
        let before = Date()
        let version = try harness.call("Get", [.string(DaemonHarness.interface), .string("Version")], interface: "org.freedesktop.DBus.Properties")
        let seconds = Date().timeIntervalSince(before)
        #expect(version.first?.unwrapped.string?.isEmpty == false)
        let first = !slowDone.value
        #expect(eventually(timeout: 20) { slowDone.value })
        return (first, seconds)
    }

    @Test func aClipboardToolThatNeverExitsDoesNotHoldUpOtherCalls() throws {
        let harness = try DaemonHarness(config: """
            [settings]
            clipboard = ["sh", "-c", "cat > \\"$0\\"; exec sleep 30", "\(NSTemporaryDirectory())openurld-copied-\(getpid())"]

            [[rules]]
            match.domain = "copy.example"
            copy = true
            """, name: "slowcopy")
        let copied = NSTemporaryDirectory() + "openurld-copied-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: copied) }
        let outcome = Locked<String?>(nil)
        _ = try harness.call("Get", [.string(DaemonHarness.interface), .string("Version")], interface: "org.freedesktop.DBus.Properties")
        let (versionFirst, seconds) = try answersWhile(harness, reached: { FileManager.default.fileExists(atPath: copied) }) {
            let reply = try? harness.call("Open", [.string("https://copy.example/slow"), .vardict([:])])
            outcome.value = reply?.first?.dictionary?["outcome"]?.string
        }
        #expect(versionFirst, "Version was answered only after the copy")
        #expect(seconds < 1, "Version took \(seconds) s while a copy was running")
        #expect(outcome.value == "done")
        #expect((try? String(contentsOfFile: copied, encoding: .utf8)) == "https://copy.example/slow")
    }

    @Test func aSessionManagerThatDoesNotAnswerDoesNotHoldUpOtherCalls() throws {
        let harness = try DaemonHarness(config: "[default]\nopen = \"browser.desktop\"\n", name: "stalledsystemd", activationHasDisplay: false)
        let systemd = try FakeSystemdManager(bus: harness.bus, environment: ["DISPLAY=:46"], stallSeconds: 3)
        defer { systemd.stop() }
        _ = try harness.call("Get", [.string(DaemonHarness.interface), .string("Version")], interface: "org.freedesktop.DBus.Properties")
        let (versionFirst, seconds) = try answersWhile(harness, reached: { systemd.asked > 0 }) {
            _ = try? harness.run(["gdbus", "call", "--session", "--dest", DaemonHarness.busName, "--object-path", DaemonHarness.path,
                                  "--method", "org.freedesktop.Application.Open", "['https://example.org/stalled']", "{}"],
                                 extra: ["DISPLAY": ":47"])
        }
        #expect(versionFirst, "Version was answered only after the click that waited for systemd")
        #expect(seconds < 1, "Version took \(seconds) s while systemd stalled")
        // systemd gave no answer in time: the calling app's own display was used.
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/stalled"]])
        #expect(harness.browser.displays().map(\.x11) == [":47"])
    }
}

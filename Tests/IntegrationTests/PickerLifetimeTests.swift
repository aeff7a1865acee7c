import DBus
import Foundation
import TestSupport
import Testing

/// Issue 31, case 8: a picker the daemon started for a question ends with the daemon, however it
/// ends (`SIGTERM` runs the shutdown path; `SIGKILL` runs nothing, and the kernel's parent-death
/// signal does it), so the next daemon's question is the only prompt on screen and the link opens once.
@Suite(.serialized) struct PickerLifetimeTests {
    /// A picker that records its pid, then waits until the test writes `answer`, then picks the
    /// second choice offered (the work browser). It polls rather than blocks so that it would
    /// answer, too, if it were left running.
    static func picker(_ harness: DaemonHarness) throws -> (script: String, started: String, answer: String) {
        let directory = harness.desktop.root + "/picker"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = directory + "/picker.sh", started = directory + "/started", answer = directory + "/answer"
        try """
            #!/bin/sh
            labels=$(cat)
            echo $$ >> '\(started)'
            while [ ! -e '\(answer)' ]; do sleep 0.1; done
            printf '%s\\n' "$labels" | sed -n 2p

            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return (script, started, answer)
    }

    /// The pids the picker script recorded, in order.
    static func started(_ file: String) -> [pid_t] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func aPickerEndsWithTheDaemonAndTheNextDaemonAsksOnce(signal: Int32) throws {
        let harness = try DaemonHarness(name: "pickerlife\(signal)", withDesktopSession: true)
        let picker = try Self.picker(harness)
        try harness.writeConfig(Fault.config("ask_with = \"picker\"\npicker = [\"\(picker.script)\"]"))
        let url = "https://one.ask.example/picked"
        let asked = try Fault.open(harness, url)
        #expect(asked.outcome == "asking")
        #expect(eventually(timeout: 20) { Self.started(picker.started).count == 1 }, "the picker never started")
        let first = try #require(Self.started(picker.started).first)
        try Fault.stopDaemon(harness, signal)
        // No prompt is left for a daemon that is gone.
        #expect(eventually(timeout: 10) { DaemonLifecycleTests.gone(first) }, "the picker (pid \(first)) outlived openurld (signal \(signal))")
        // The next daemon (started by this call) asks again, and its picker is the only one.
        #expect(eventually(timeout: 20) { Fault.outcomes(harness, [asked.id]) == ["asking"] && Self.started(picker.started).count == 2 },
                "the next daemon did not ask again: \(Fault.outcomes(harness, [asked.id])), pickers \(Self.started(picker.started))")
        let alive = Self.started(picker.started).filter { !DaemonLifecycleTests.gone($0) }
        #expect(alive.count == 1 && alive.first != first, "pickers running: \(alive) (the first was \(first))")
        // Answered once, opened once.
        FileManager.default.createFile(atPath: picker.answer, contents: Data())
        #expect(harness.browser.waitForRecords(1) == [["--work", url]])
        #expect(eventually(timeout: 10) { Fault.outcomes(harness, [asked.id]) == ["done"] }, "\(Fault.outcomes(harness, [asked.id]))")
        #expect(harness.browser.records() == [["--work", url]], "\(harness.browser.records())")
        if signal == SIGTERM { #expect(Fault.log(harness).contains("ending the question's programs still running"), "\(Fault.log(harness))") }
    }
}

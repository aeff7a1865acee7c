import DBus
import Execution
import Foundation
import TestSupport
import Testing
import RoutingCore
import Catalog
import Platform

/// A chooser that exits before showing its window is started once more; a second exit ends the
/// question as unavailable, so the asker tries the next way.
@Suite struct ChooserRestartTests {
    /// A stand-in for `openurl-chooser --serve` that exits at once on its first `failures`
    /// starts and then shows every question without answering; each start is counted in a file.
    func chooser(failingFirst failures: Int) throws -> (path: String, starts: String, desktop: IsolatedDesktop) {
        let desktop = try IsolatedDesktop(name: "restartchooser")
        let path = desktop.root + "/openurl-chooser"
        let starts = desktop.root + "/starts"
        let script = """
            #!/bin/sh
            echo start >> '\(starts)'
            if [ "$(wc -l < '\(starts)')" -le \(failures) ]; then echo 'cannot open display' >&2; exit 1; fi
            while read -r line; do echo '{"event":"shown"}'; done
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return (path, starts, desktop)
    }

    func ask(_ path: String, clock: LoopClock) throws -> (LoopThread, ChooserLauncher, Locked<[AskAnswer]>) {
        let serving = try LoopThread(serving: [], clock: clock)
        let chooser = ChooserLauncher(executable: path, loop: serving.loop)
        chooser.pingInterval = 1000
        let choices = ChoiceLabels(catalog: AppCatalog()).choices([.copy, .discard])
        let decision = Decision(url: "https://e.org/", finalURL: "https://e.org/", effect: .ask(choices, forced: false))
        let answers = Locked<[AskAnswer]>([])
        serving.loop.perform {
            chooser.show(AskRequest(decision: decision, expires: Clock.system.elapsed() + 60), environment: ["DISPLAY": ":1", "PATH": "/usr/bin:/bin"]) {
                answers.value.append($0)
            }
        }
        return (serving, chooser, answers)
    }

    func starts(_ file: String) -> Int {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    @Test func aChooserThatExitsUnshownOnceIsStartedAgainAndShowsTheQuestion() throws {
        let (path, startsFile, desktop) = try chooser(failingFirst: 1)
        _ = desktop
        let clock = LoopClock.manual()
        let (serving, chooser, answers) = try ask(path, clock: clock)
        defer { withExtendedLifetime(chooser) {} }
        #expect(eventually(timeout: 10) { starts(startsFile) == 2 }, "\(starts(startsFile)) starts")
        // Shown by the second start: the question lives until its time runs out.
        Thread.sleep(forTimeInterval: 0.3)
        #expect(answers.value.isEmpty, "\(answers.value)")
        serving.loop.advanceClock(by: 61)
        #expect(eventually { answers.value == [.expired] }, "\(answers.value)")
        #expect(starts(startsFile) == 2)
    }

    @Test func aChooserThatExitsUnshownTwiceLeavesTheQuestionUnavailable() throws {
        let (path, startsFile, desktop) = try chooser(failingFirst: 5)
        _ = desktop
        let (serving, chooser, answers) = try ask(path, clock: LoopClock.manual())
        defer { withExtendedLifetime((serving, chooser)) {} }
        #expect(eventually(timeout: 10) { !answers.value.isEmpty }, "no answer")
        guard case .unavailable(let why)? = answers.value.first else {
            Issue.record("answered \(answers.value)")
            return
        }
        #expect(why.contains("twice"), "\(why)")
        #expect(starts(startsFile) == 2)
    }
}

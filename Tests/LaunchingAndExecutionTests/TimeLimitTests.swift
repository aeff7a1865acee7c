import DBus
import Execution
import Foundation
import TestSupport
import Testing
import RoutingCore
import Catalog
import Platform

/// Time limits of minutes, tried in no time on a loop whose clock the test moves.
@Suite struct TimeLimitTests {
    /// A stand-in for `openurl-chooser --serve`: it shows every question and never answers.
    func silentChooser() throws -> (path: String, desktop: IsolatedDesktop) {
        let desktop = try IsolatedDesktop(name: "silentchooser")
        let path = desktop.root + "/openurl-chooser"
        try "#!/bin/sh\nwhile read -r line; do echo '{\"event\":\"shown\"}'; done\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return (path, desktop)
    }

    /// Returns once `loop` has run everything queued so far (a block queued now has run).
    func turn(_ loop: EventLoop) throws {
        let turned = Locked(false)
        loop.perform { turned.value = true }
        try #require(eventually { turned.value }, "the loop did not turn")
    }

    @Test func anUnansweredWindowExpiresAtItsTimeoutAndNotBefore() throws {
        let (path, desktop) = try silentChooser()
        _ = desktop
        let clock = LoopClock.manual()
        let serving = try LoopThread(serving: [], clock: clock)
        let chooser = ChooserLauncher(executable: path, loop: serving.loop)
        // This test is about the time limit alone: no show deadline or ping falls within it.
        chooser.showDeadline = (1000, 1000)
        chooser.pingInterval = 1000
        let choices = ChoiceLabels(catalog: AppCatalog()).choices([.copy, .discard])
        let decision = Decision(url: "https://e.org/", finalURL: "https://e.org/", effect: .ask(choices, forced: false))
        let answers = Locked<[AskAnswer]>([])
        // `expires` is on the monotonic clock (the wall clock may be set back while a question waits).
        serving.loop.perform {
            chooser.show(AskRequest(decision: decision, expires: Clock.system.elapsed() + 120), environment: ["DISPLAY": ":1", "PATH": "/usr/bin:/bin"]) { answers.value.append($0) }
        }
        try turn(serving.loop)  // the question is out, its timer set at 0 s
        serving.loop.advanceClock(by: 119)
        try turn(serving.loop)
        #expect(answers.value.isEmpty)
        serving.loop.advanceClock(by: 2)
        #expect(eventually { answers.value == [.expired] }, "\(answers.value)")
    }
}

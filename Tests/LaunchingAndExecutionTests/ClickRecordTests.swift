import Records
import DBus
import Execution
import Foundation
import TestSupport
import Testing
import RoutingCore
import Catalog
import ConfigLanguage

/// Issue 26: the click record's lines stay whole (a line torn by something else never swallows
/// the next one, and is left out when read), ids follow the highest on disk, and the resident
/// chooser is kept for `chooser_idle` seconds after its last question, and not longer.
@Suite struct ClickRecordTests {
    func record(_ name: String) throws -> String {
        let directory = NSTemporaryDirectory() + "openurld-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory + "/recent.tsv"
    }

    let copied = Decision(url: "https://e.org/a", finalURL: "https://e.org/a", effect: .copy(text: "https://e.org/a", leftOutBcc: false))

    @Test func aTornLastLineIsLeftOutAndNeverSwallowsTheNext() throws {
        let path = try record("torn")
        try "1\t1700000000\thttps://e.org/1\thttps://e.org/1\topen\tb.desktop\t\t\tdone\n2\t17000000".write(toFile: path, atomically: true, encoding: .utf8)
        let recent = RecentLinks(path: path)
        let id = recent.add(copied, opener: nil, outcome: .done)
        // The torn line's id may have been given to a caller: it is never given again.
        #expect(id == 3, "the next id follows the highest id on disk, torn line included")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines.last == "", "\(lines)")
        #expect(lines[2].hasPrefix("3\t") && lines[2].split(separator: "\t", omittingEmptySubsequences: false).count == 9, "\(lines)")
        // Read back by a new process: the torn line is skipped, both whole ones are there.
        let again = RecentLinks(path: path)
        #expect(again.entries.map(\.id) == [1, 3])
        #expect(again.entries.last?.url == "https://e.org/a")
    }

    /// Issue 33: `openurl doctor`'s probes never push a click out of the list, and only the
    /// latest `maximumProbes` of them are kept, before and after the file is read.
    @Test(arguments: [false, true])
    func probesAreKeptBesideTheClicks(readFirst: Bool) throws {
        let path = try record("probes-\(readFirst)")
        let recent = RecentLinks(path: path)
        recent.capacity = 3
        if readFirst { _ = recent.entries }
        let clicks = (0..<3).map { _ in recent.add(copied, opener: nil, outcome: .done) }
        let probe = Decision(url: ProbeLink.web("t"), finalURL: ProbeLink.web("t"), effect: .discard, rule: .named(ProbeLink.ruleName))
        let probes = (0..<100).map { _ in recent.add(probe, opener: nil, outcome: .probe) }
        let kept = recent.entries
        #expect(kept.filter { $0.outcome != .probe }.map(\.id) == clicks)
        #expect(kept.filter { $0.outcome == .probe }.map(\.id) == Array(probes.suffix(RecentLinks.maximumProbes)))
        #expect(RecentLinks(path: path).entries.filter { $0.outcome == .done }.count == 3, "read back, the clicks are all there")
    }

    /// Issue 32: a click trims the list only once it is well past its bounds (not on every
    /// click), yet what is read never holds more than `capacity`: in memory, from the file, and
    /// before the file was ever read.
    @Test(arguments: ["file, read first", "file, read after", "memory"])
    func theListNeverShowsMoreThanItsCapacity(kind: String) throws {
        let path: String? = kind == "memory" ? nil : try record("slack-\(kind.hasSuffix("first"))")
        let recent = RecentLinks(path: path)
        recent.capacity = 5
        if kind.hasSuffix("first") { _ = recent.entries }
        var ids: [UInt32] = []
        for round in 0..<150 {
            ids.append(recent.add(copied, opener: nil, outcome: .done))
            if kind != "file, read after" || round == 149 {
                #expect(recent.entries.map(\.id) == Array(ids.suffix(5)), "after \(round + 1) clicks")
            }
        }
        #expect(!recent.holds(ids[ids.count - 6]), "a dropped id is not held")
        if let path {
            let again = RecentLinks(path: path)
            again.capacity = 5
            #expect(again.entries.map(\.id) == Array(ids.suffix(5)), "read back")
        }
    }

    @Test func anAnswersLineForAnOlderIdDoesNotLowerTheNextId() throws {
        let path = try record("highest")
        let recent = RecentLinks(path: path)
        let asked = recent.add(copied, opener: nil, outcome: .asking)
        let later = recent.add(copied, opener: nil, outcome: .done)
        recent.update(id: asked, outcome: .done, decision: copied)
        #expect(RecentLinks(path: path).add(copied, opener: nil, outcome: .done) == later + 1)
    }

    /// An answer's line that brings the file to its rewrite (twice the byte bound) rewrites it
    /// with the answer in: the update is settled before the file is read back.
    @Test func anAnswerThatTriggersTheRewriteIsKept() throws {
        let path = try record("rewrite")
        let recent = RecentLinks(path: path)
        let long = "https://e.org/" + String(repeating: "a", count: 20_000)
        let big = Decision(url: long, finalURL: long, effect: .copy(text: long, leftOutBcc: false))
        let ids = (0..<40).map { _ in recent.add(big, opener: nil, outcome: .asking) }
        for id in ids { recent.update(id: id, outcome: .done, decision: big) }
        // Rewritten on the way (40 lines of ~16 KiB asked, then answered, pass twice the bound).
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count
        #expect(lines < 80, "\(lines) lines: never rewritten")
        let again = RecentLinks(path: path)
        #expect(!again.entries.isEmpty && again.entries.allSatisfy { $0.outcome == .done }, "\(again.entries.map(\.outcome))")
        #expect(again.entries.last?.id == ids.last)
    }

    @Test func chooserIdleIsASettingWithItsRange() throws {
        #expect(try ConfigLoader.load(text: "[settings]\nchooser_idle = 30\n", path: "c.toml").settings.chooserIdle == 30)
        #expect(try ConfigLoader.load(text: "", path: "c.toml").settings.chooserIdle == 300)
        #expect(throws: ConfigError.self) { try ConfigLoader.load(text: "[settings]\nchooser_idle = -1\n", path: "c.toml") }
    }

    /// A stand-in for `openurl-chooser --serve` that writes its pid, shows each question and cancels it.
    func cancellingChooser() throws -> (path: String, pidFile: String, desktop: IsolatedDesktop) {
        let desktop = try IsolatedDesktop(name: "idlechooser")
        let path = desktop.root + "/openurl-chooser", pidFile = desktop.root + "/chooser.pid"
        try """
        #!/bin/sh
        echo $$ > '\(pidFile)'
        while read -r line; do
          case "$line" in *'"url"'*) echo '{"event":"shown"}'; echo '{"answer":"cancel"}';; esac
        done

        """.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return (path, pidFile, desktop)
    }

    @Test(arguments: [300.0, 0.0])
    func theChooserIsKeptForItsIdleTimeAndNoLonger(idle: Double) throws {
        let (path, pidFile, desktop) = try cancellingChooser()
        _ = desktop
        let serving = try LoopThread(serving: [], clock: LoopClock.manual())
        let chooser = ChooserLauncher(executable: path, loop: serving.loop) { idle }
        let choices = ChoiceLabels(catalog: AppCatalog()).choices([.copy, .discard])
        let decision = Decision(url: "https://e.org/", finalURL: "https://e.org/", effect: .ask(choices, forced: false))
        let answers = Locked<[AskAnswer]>([])
        serving.loop.perform {
            chooser.show(AskRequest(decision: decision), environment: ["DISPLAY": ":1", "PATH": "/usr/bin:/bin"]) { answers.value.append($0) }
        }
        #expect(eventually { answers.value == [.cancelled] }, "\(answers.value)")
        var pid: pid_t?
        #expect(eventually { pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }; return pid != nil })
        let chooserPID = try #require(pid)
        func running() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(chooserPID)/stat", encoding: .utf8) else { return false }
            return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
        }
        if idle > 0 {
            serving.loop.advanceClock(by: idle - 1)
            let turned = Locked(false)
            serving.loop.perform { turned.value = true }
            #expect(eventually { turned.value })
            #expect(running(), "the chooser went before its idle time")
            serving.loop.advanceClock(by: 2)
        }
        #expect(eventually(timeout: 10) { !running() }, "the chooser stayed past chooser_idle = \(idle)")
    }
}

extension ClickRecordTests {
    /// A burst makes the file long; its compaction reads every line back, and the 200 entries
    /// kept let go of the room the long list took (it held 1.34 MB after 10,000 clicks).
    @Test func theKeptEntriesLetGoOfALongListsRoom() throws {
        let path = try record("burst-room")
        let recent = RecentLinks(path: path)
        let long = "https://e.org/" + String(repeating: "x", count: 300)
        let decision = Decision(url: long, finalURL: long, effect: .discard)
        for _ in 0..<3_000 { _ = recent.add(decision, opener: nil, outcome: .done) }
        let entries = recent.entries
        #expect(entries.count == 200)
        #expect(entries.capacity <= 2 * entries.count + 64, "room for \(entries.capacity) entries kept for \(entries.count)")
    }
}

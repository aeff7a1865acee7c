import Records
import Execution
import Foundation
import Platform
import RoutingCore
import Testing

/// Issue 31, cases 3 and 4: ids come from a counter of their own (`next-id`) that no clear
/// resets, no file's tail decides and that never gives 0 nor an id still in use; with
/// `recent = 0` ids are still given, so a question can be kept pending.
@Suite struct IDCounterTests {
    func directory(_ name: String) throws -> String {
        let directory = NSTemporaryDirectory() + "openurld-ids-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    let copied = Decision(url: "https://e.org/a", finalURL: "https://e.org/a", effect: .copy(text: "https://e.org/a", leftOutBcc: false))

    /// A counter as the daemon makes it: its file, above what `recorded` says the other files hold.
    func counter(_ directory: String, recorded: UInt64 = 0) -> IDCounter {
        IDCounter(path: directory + "/next-id") { recorded }
    }

    @Test func theCounterGoesOnAcrossRestartsAndClears() throws {
        let directory = try directory("counter")
        let recent = RecentLinks(path: directory + "/recent.tsv", ids: counter(directory))
        let first = recent.add(copied, opener: nil, outcome: .done)
        let second = recent.add(copied, opener: nil, outcome: .done)
        #expect(first == 1 && second == 2)
        recent.clear()
        #expect(!FileManager.default.fileExists(atPath: directory + "/recent.tsv"))
        #expect(recent.add(copied, opener: nil, outcome: .done) == 3, "a clear reset the ids")
        // A new daemon after a crash, with the history cleared again: it reads the counter.
        try? FileManager.default.removeItem(atPath: directory + "/recent.tsv")
        let again = RecentLinks(path: directory + "/recent.tsv", ids: counter(directory))
        #expect(again.add(copied, opener: nil, outcome: .done) == 4)
        #expect(try String(contentsOfFile: directory + "/next-id", encoding: .utf8) == "5\n")
    }

    @Test func theCounterStartsAboveEveryRecordedIdAndItsOwnFile() throws {
        let directory = try directory("above")
        try "40\n".write(toFile: directory + "/next-id", atomically: true, encoding: .utf8)
        #expect(counter(directory, recorded: 10).take() == 40)
        #expect(counter(directory, recorded: 99).take() == 100)
    }

    @Test func aTailWithoutAnIdDoesNotRestartTheIds() throws {
        let directory = try directory("notail")
        let path = directory + "/recent.tsv"
        // One whole line with id 7, then 70 KiB with no id at all: the tail alone says nothing.
        try ("7\t1700000000\thttps://e.org/7\thttps://e.org/7\topen\tb.desktop\t\t\tdone\n" + String(repeating: "x", count: 70_000) + "\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(RecentLinks.highestID(inFile: path) == 7)
        #expect(RecentLinks(path: path).add(copied, opener: nil, outcome: .done) == 8)
    }

    @Test func pastTheTopOfTheWireIdsNoneIsZeroAndNoneStillInUseIsGivenAgain() throws {
        let directory = try directory("wrap")
        let ids = counter(directory, recorded: UInt64(UInt32.max))
        ids.inUse = { $0 == 1 || $0 == 2 || $0 == UInt32.max }
        #expect(ids.take() == 3)
        #expect(ids.take() == 4)
        // Persisted as the 64-bit count: the next daemon goes on from there.
        #expect(counter(directory).take() == 5)
    }

    @Test func aLinkedCounterFileIsNeitherReadNorWrittenAndTheIdsGoOnInMemory() throws {
        let directory = try directory("linkedcounter")
        let canary = directory + "/canary"
        try "1000\n".write(toFile: canary, atomically: true, encoding: .utf8)
        #expect(chmod(canary, 0o644) == 0)
        #expect(symlink(canary, directory + "/next-id") == 0)
        var reports: [SystemError?] = []
        let ids = IDCounter(path: directory + "/next-id", reported: { reports.append($0) }) { 6 }
        #expect((0..<3).map { _ in ids.take() } == [7, 8, 9], "the link's target decided the ids")
        #expect(try String(contentsOfFile: canary, encoding: .utf8) == "1000\n")
        var info = stat()
        #expect(stat(canary, &info) == 0 && info.st_mode & 0o777 == 0o644)
        #expect(reports.count == 1 && reports.first??.isRefused == true, "\(reports)")
    }

    @Test func recentZeroStillGivesIdsAndKeepsNoHistory() throws {
        let directory = try directory("zero")
        let recent = RecentLinks(path: directory + "/recent.tsv", ids: counter(directory))
        recent.capacity = 0
        let first = recent.add(copied, opener: nil, outcome: .asking)
        let second = recent.add(copied, opener: nil, outcome: .done)
        #expect(first != 0 && second == first + 1)
        #expect(recent.entries.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory + "/recent.tsv"))
    }
}

import Records
import Execution
import Foundation
import Platform
import RoutingCore
import Testing

/// Issue 31, case 2: the click record and the pending questions never write through a link
/// planted in their place; they keep their lines in memory and say so once.
@Suite struct RecordLinkTests {
    func directory(_ name: String) throws -> String {
        let directory = NSTemporaryDirectory() + "openurld-link-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    let copied = Decision(url: "https://e.org/a", finalURL: "https://e.org/a", effect: .copy(text: "https://e.org/a", leftOutBcc: false))

    @Test func aLinkedRecordKeepsItsLinesInMemoryAndSaysSoOnce() throws {
        let directory = try directory("linked")
        let canary = directory + "/canary"
        try "canary\n".write(toFile: canary, atomically: true, encoding: .utf8)
        #expect(chmod(canary, 0o644) == 0)
        let path = directory + "/recent.tsv"
        #expect(symlink(canary, path) == 0)
        var reports: [SystemError?] = []
        let recent = RecentLinks(path: path) { reports.append($0) }
        let ids = (0..<3).map { _ in recent.add(copied, opener: nil, outcome: .done) }
        #expect(recent.entries.map(\.id) == ids, "recent tells the truth from memory")
        #expect(try String(contentsOfFile: canary, encoding: .utf8) == "canary\n")
        var info = stat()
        #expect(stat(canary, &info) == 0 && info.st_mode & 0o777 == 0o644)
        #expect(reports.count == 1 && reports.first??.isRefused == true, "\(reports)")
        recent.clear()
        #expect(FileManager.default.fileExists(atPath: canary))
    }

    @Test func pendingQuestionsAreNotWrittenThroughALink() throws {
        let directory = try directory("pendinglink")
        let path = directory + "/" + PendingAsks.fileName
        #expect(symlink(directory + "/made-by-openurld", path) == 0)
        var reports: [SystemError?] = []
        let pending = PendingAsks(path: path, loop: nil) { reports.append($0) }
        let ask = Decision(url: "https://e.org/q", finalURL: "https://e.org/q", effect: .ask([], forced: true))
        pending.add(PendingAsk(id: 5, time: 1, decision: ask, opener: nil, environment: [:]))
        pending.add(PendingAsk(id: 6, time: 2, decision: ask, opener: nil, environment: [:]))
        #expect(pending.contains(5) && pending.contains(6))
        pending.resolve(id: 5)
        pending.resolve(id: 6)
        #expect(!FileManager.default.fileExists(atPath: directory + "/made-by-openurld"))
        #expect(reports.compactMap { $0 }.count == 1, "\(reports)")
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the planted link is left for its owner to see")
    }

    /// What takes the record's name between two lines, while its file is kept open.
    enum Planted: String, CaseIterable, Sendable {
        /// A symbolic link to another file.
        case link
        /// A second name (hard link) of another file.
        case hardLink
        /// Another regular file of ours (the old one renamed away).
        case newFile
    }

    /// The record keeps its file open between lines (one lstat per line, not an open): a name
    /// taken over after the first line is seen at the next, never written through.
    @Test(arguments: Planted.allCases)
    func aNameTakenOverWhileTheRecordIsOpenIsNotWrittenThrough(_ planted: Planted) throws {
        let directory = try directory("kept-\(planted.rawValue)")
        let path = directory + "/recent.tsv", canary = directory + "/canary"
        var reports: [SystemError?] = []
        let recent = RecentLinks(path: path) { reports.append($0) }
        let first = recent.add(copied, opener: nil, outcome: .done)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("\(first)\t"))
        #expect(rename(path, directory + "/moved-away") == 0)
        try "canary\n".write(toFile: canary, atomically: true, encoding: .utf8)
        switch planted {
        case .link: #expect(symlink(canary, path) == 0)
        case .hardLink: #expect(link(canary, path) == 0)
        case .newFile: #expect(rename(canary, path) == 0)
        }
        let second = recent.add(copied, opener: nil, outcome: .done)
        #expect(try String(contentsOfFile: directory + "/moved-away", encoding: .utf8).split(separator: "\n").count == 1,
                "the line after the name was taken went to the file that lost its name")
        if planted == .newFile {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.hasPrefix("canary\n\(second)\t") && text.split(separator: "\n").count == 2, "a file of ours in its place is written to: \(text)")
            #expect(reports.isEmpty, "\(reports)")
        } else {
            #expect(try String(contentsOfFile: canary, encoding: .utf8) == "canary\n", "written through the planted name")
            #expect(reports.count == 1 && reports.first??.isRefused == true, "\(reports)")
            #expect(recent.entries.map(\.id).suffix(1) == [second], "the line waits in memory, and recent still shows it")
        }
    }
}

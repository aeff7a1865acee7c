import Foundation
@testable import LinkSafety
import Platform
import Testing
import URLModel

/// Issue 32: a block list's compiled snapshot (`$XDG_CACHE_HOME/openurld/blocklists`) answers
/// exactly as the parsed list does, is used only for the file and program it was made from, and
/// is never trusted when damaged, crafted, or a link.
@Suite struct BlockListSnapshotTests {
    /// How often a list's text was read: 0 means the snapshot was used.
    final class Reads: @unchecked Sendable {
        private let count = Lock(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    /// A folder of its own for one test, removed when the test lets go of it.
    final class Place {
        let root: String
        var list: String { root + "/list.txt" }
        var snapshots: BlockListSnapshots { BlockListSnapshots(directory: root + "/cache/openurld/blocklists") }
        var snapshot: String { snapshots.file(for: list) }

        init(_ name: String, text: String) throws {
            root = NSTemporaryDirectory() + "openurld-snapshot-\(name)-\(getpid())"
            try? FileManager.default.removeItem(atPath: root)
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try text.write(toFile: list, atomically: false, encoding: .utf8)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: root)
        }

        /// A list over the file, counting its reads.
        func blockList(_ reads: Reads = Reads()) -> BlockList {
            let path = list
            return BlockList(path: path, name: "test list", snapshots: snapshots) {
                reads.add()
                return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
            }
        }

        /// Loads a list (parsing it) and waits for its snapshot, written on a thread of its own.
        func compile() throws {
            _ = blockList().summary
            try waitForSnapshot()
        }

        /// Waits until a list would load the snapshot (up to 10 s).
        func waitForSnapshot() throws {
            for _ in 0..<1000 {
                guard let key = BlockListSnapshots.key(listPath: list), snapshots.read(listPath: list, key: key) == nil else { return }
                usleep(10_000)
            }
            Issue.record("no usable snapshot at \(snapshot) after 10 s")
        }
    }

    static let probes = [
        "https://evil.example/", "http://www.evil.example/login?x=1", "https://cdn.example/malware/setup.exe", "https://x.wild.example/",
        "https://familysimulator.net/play", "https://kept.example/", "https://second.example/", "http://203.0.113.7/payload",
        "https://good.evil.example/", "https://tracker.example/", "https://cdn.example/other/setup.exe", "https://onlyon.example/",
        "https://example.com/", "https://plain.example/?invite=1", "https://plain.example/?invite=12", "https://bare-host.example./",
    ]

    @Test func aListReadFromItsSnapshotAnswersAsTheParsedOne() throws {
        let place = try Place("same", text: BlockListTests.text)
        let parsed = place.blockList()
        let first = parsed.summary
        try place.waitForSnapshot()
        let status = try FileSystem.status(place.snapshot, followingSymlinks: false)
        #expect(status.kind == .regular && status.permissions == 0o600, "\(status)")
        #expect(try FileSystem.status(place.snapshots.directory).permissions == 0o700)
        let reads = Reads()
        let fromSnapshot = place.blockList(reads)
        #expect(fromSnapshot.summary == first)
        #expect(reads.value == 0, "the list was parsed again instead of read from its snapshot")
        for probe in Self.probes {
            let url = try ParsedURL(probe)
            #expect(fromSnapshot.block(for: url) == parsed.block(for: url), "\(probe)")
        }
        #expect(fromSnapshot.block(for: try ParsedURL("https://evil.example/"))?.entry == "||evil.example^")
    }

    /// Debian's own lists (what `auto` reads at every start): every link built from a plain entry,
    /// and strangers, answered the same from the snapshot.
    @Test func debiansListsAnswerTheSameFromTheirSnapshots() throws {
        let found = DebianListsTests.locations()
        try #require(!found.isEmpty, Comment(rawValue: DebianListsTests.missing))
        for location in found {
            let text = try String(contentsOfFile: location.path, encoding: .utf8)
            let place = try Place("debian-" + location.name.filter(\.isLetter), text: text)
            let parsed = place.blockList()
            _ = parsed.summary
            try place.waitForSnapshot()
            let reads = Reads()
            let fromSnapshot = place.blockList(reads)
            #expect(fromSnapshot.summary == parsed.summary)
            #expect(reads.value == 0)
            var compared = 0
            let links = text.split(separator: "\n").compactMap { DebianListsTests.link(from: String($0)) }
            for link in links + ["https://example.com/", "https://www.debian.org/", "https://github.com/x"] {
                guard let url = try? ParsedURL(link) else { continue }
                #expect(fromSnapshot.block(for: url) == parsed.block(for: url), "\(link)")
                compared += 1
            }
            print("\(location.name): \(compared) links answered the same from the snapshot")
            #expect(compared > 1000)
        }
    }

    @Test(arguments: ["the list changed", "a byte damaged", "cut short", "another list's", "empty"])
    func aSnapshotThatDoesNotMatchIsNotUsedAndIsMadeAgain(_ fault: String) throws {
        let place = try Place("fault-" + fault.filter(\.isLetter), text: BlockListTests.text)
        try place.compile()
        var bytes = try #require(FileManager.default.contents(atPath: place.snapshot).map { [UInt8]($0) })
        switch fault {
        case "the list changed":
            try (BlockListTests.text + "||new.example^\n").write(toFile: place.list, atomically: false, encoding: .utf8)
        case "a byte damaged": bytes[bytes.count / 2] ^= 0x20
        case "cut short": bytes.removeLast(bytes.count / 3)
        case "another list's":
            let other = try Place("other-" + fault.filter(\.isLetter), text: "||other.example^\n")
            try other.compile()
            bytes = try #require(FileManager.default.contents(atPath: other.snapshot).map { [UInt8]($0) })
        default: bytes = []
        }
        if fault != "the list changed" { try Data(bytes).write(to: URL(fileURLWithPath: place.snapshot)) }
        let reads = Reads()
        let list = place.blockList(reads)
        _ = list.summary
        #expect(reads.value == 1, "the snapshot was used")
        #expect(list.block(for: try ParsedURL("https://evil.example/")) != nil)
        #expect((list.block(for: try ParsedURL("https://new.example/")) != nil) == (fault == "the list changed"))
        #expect(list.block(for: try ParsedURL("https://other.example/")) == nil)
        try place.waitForSnapshot()
        let again = Reads(), fromSnapshot = place.blockList(again)
        _ = fromSnapshot.summary
        #expect(again.value == 0, "the snapshot was not made again")
        #expect(fromSnapshot.block(for: try ParsedURL("https://evil.example/")) != nil)
    }

    @Test func aLinkInPlaceOfTheSnapshotIsNeitherReadNorReplaced() throws {
        let place = try Place("link", text: BlockListTests.text)
        try place.compile()
        let elsewhere = place.root + "/elsewhere.snapshot"
        try FileSystem.rename(place.snapshot, to: elsewhere)
        try FileSystem.createSymbolicLink(at: place.snapshot, pointingTo: elsewhere)
        let reads = Reads(), list = place.blockList(reads)
        _ = list.summary
        #expect(reads.value == 1, "the snapshot was read through a link")
        #expect(list.block(for: try ParsedURL("https://evil.example/")) != nil)
        usleep(300_000)
        #expect(FileSystem.isSymbolicLink(place.snapshot), "the link was replaced")
    }

    /// The list's text is not kept in memory: a blocked link's entry is read from the file again,
    /// and when the file has changed since it was indexed, the entry is written from the index.
    @Test func aBlockedLinksEntryIsReadFromTheListAsItWasIndexed() throws {
        let place = try Place("entry", text: "! Title: entries\n||phish.example^$doc\n|https://cdn.example/x/*.exe|$all\n")
        try place.compile()
        let reads = Reads()
        let list = place.blockList(reads)
        let phish = try ParsedURL("https://phish.example/"), cdn = try ParsedURL("https://cdn.example/x/setup.exe")
        #expect(list.block(for: phish) == SafetyBlock(list: "test list", path: place.list, entry: "||phish.example^$doc", line: 2))
        #expect(list.block(for: cdn)?.entry == "|https://cdn.example/x/*.exe|$all")
        #expect(reads.value == 2, "each block reads the entry's line from the list")
        try "! Title: entries, changed\n||other.example^\n".write(toFile: place.list, atomically: false, encoding: .utf8)
        #expect(list.block(for: phish) == SafetyBlock(list: "test list", path: place.list, entry: "||phish.example^", line: 2))
        #expect(list.block(for: cdn)?.entry == "|https://cdn.example/x/*.exe|")
        #expect(reads.value == 2, "a changed list was read for an entry it no longer holds")
    }

    /// A writer stopped between its write and its rename leaves `….snapshot.new-PID`; the next
    /// write removes those of processes that are gone, and those over a minute old.
    @Test func abandonedTemporariesAreRemovedByTheNextWrite() throws {
        let place = try Place("temporaries", text: BlockListTests.text)
        try FileSystem.createDirectory(place.snapshots.directory, mode: 0o700, intermediates: true)
        var gone: Int32 = 4_000_000
        while FileManager.default.fileExists(atPath: "/proc/\(gone)") { gone -= 1 }
        let dead = place.snapshot + ".new-\(gone)", old = place.snapshot + ".new-1", live = place.snapshot + ".new-\(getppid())"
        let other = place.snapshots.directory + "/0123456789abcdef.snapshot.new-\(gone)", unrelated = place.snapshots.directory + "/notes.new-\(gone)"
        for path in [dead, old, live, other, unrelated] { try Data("x".utf8).write(to: URL(fileURLWithPath: path)) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: old)
        try place.compile()
        for path in [dead, old, other] { #expect(!FileManager.default.fileExists(atPath: path), "\(path) was left") }
        for path in [live, unrelated] { #expect(FileManager.default.fileExists(atPath: path), "\(path) was removed") }
    }

    /// A table of slots with no free one would make a look-up that finds nothing probe forever.
    @Test func aHashTableWithoutFreeSlotsIsRefused() {
        let full = (0..<16).map { HashSlots.Slot(key: UInt32($0), value: Int32($0)) }
        #expect(HashSlots(slots: full, isEmpty: false) == nil)
        var half = full
        for index in 0..<8 { half[index].value = -1 }
        #expect(HashSlots(slots: half, isEmpty: false) != nil)
        #expect(HashSlots(slots: Array(half.prefix(12)), isEmpty: false) == nil, "not a power of two")
    }

    /// A file with a right checksum but tables out of place (only someone with the user's rights
    /// could write one) is refused: a chain that would loop, an index past its table, a range
    /// past the text.
    @Test(arguments: ["a node chain loops", "a label chain runs forward", "an entry past the table", "a range past the text"])
    func aCraftedSnapshotIsRefused(_ craft: String) throws {
        let place = try Place("craft-" + craft.filter(\.isLetter), text: BlockListTests.text)
        var parser = BlockListParser()
        let text = Array(BlockListTests.text.utf8)
        parser.parse(text)
        let good = BlockIndex(entries: parser.entries, bytes: parser.bytes, targets: parser.targets)
        var nodes = good.nodes, labelNext = good.labelNext, nodeEntries = good.nodeEntries, entries = good.entries
        switch craft {
        case "a node chain loops": nodes[nodes.count - 1].next = Int32(nodes.count - 1)
        case "a label chain runs forward": labelNext[0] = Int32(labelNext.count - 1)
        case "an entry past the table": nodeEntries[0] = Int32(entries.count)
        default: entries[0].range = 0..<Int32(text.count + 1)
        }
        let crafted = BlockIndex(entries: entries, bytes: good.bytes, targets: good.targets, nodes: nodes, nodeEntries: nodeEntries,
                                 byHost: good.byHost, byLabel: good.byLabel, labelNext: labelNext, byPrefix: good.byPrefix,
                                 prefixNext: good.prefixNext, entryNode: good.entryNode)
        let key = try #require(BlockListSnapshots.key(listPath: place.list))
        place.snapshots.write(BlockListSnapshots.Compiled(title: parser.title, counts: parser.counts, index: good, textCount: text.count), listPath: place.list, key: key)
        #expect(place.snapshots.read(listPath: place.list, key: key) != nil, "the untouched tables are read back")
        place.snapshots.write(BlockListSnapshots.Compiled(title: parser.title, counts: parser.counts, index: crafted, textCount: text.count), listPath: place.list, key: key)
        #expect(place.snapshots.read(listPath: place.list, key: key) == nil)
    }

    /// The `snapshot` fuzz target's seed is the body of a snapshot of this suite's list in the
    /// format of today, made for the target's path and key: a format change that leaves it
    /// unreadable fails here (`OPENURLD_RENEW_FUZZ_SEED=1` writes it anew), not silently in the fuzzer.
    @Test func theFuzzSeedIsASnapshotInTodaysFormat() throws {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpus/snapshot/seed-test-list").path
        var parser = BlockListParser()
        let text = Array(BlockListTests.text.utf8)
        parser.parse(text)
        let index = BlockIndex(entries: parser.entries, bytes: parser.bytes, targets: parser.targets)
        let key = BlockListSnapshots.Key(words: [1, 2, 3])
        let file = BlockListSnapshots.encode(BlockListSnapshots.Compiled(title: parser.title, counts: parser.counts, index: index, textCount: text.count),
                                             listPath: "/fuzz/list.txt", key: key)
        let sealing = BlockListSnapshots.sealed([]).count
        if ProcessInfo.processInfo.environment["OPENURLD_RENEW_FUZZ_SEED"] == "1" {
            try Data(file[sealing...]).write(to: URL(fileURLWithPath: seed))
        }
        let body = try #require(FileManager.default.contents(atPath: seed).map { [UInt8]($0) }, "no seed at \(seed)")
        let read = BlockListSnapshots.decode(BlockListSnapshots.sealed(body), listPath: "/fuzz/list.txt", key: key)
        #expect(read != nil, "the seed is not a snapshot in today's format: run this test with OPENURLD_RENEW_FUZZ_SEED=1")
        #expect(body == Array(file[sealing...]), "the seed differs from today's snapshot of the list: run this test with OPENURLD_RENEW_FUZZ_SEED=1")
    }
}

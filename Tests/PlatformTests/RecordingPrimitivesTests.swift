import Foundation
import Platform
import Testing

/// Issue 26: what the click record and the log are built on: a path lock that one process at a
/// time holds, a check that a file's last record is whole, and a log that is rotated, not grown
/// without bound.
@Suite(.serialized) struct RecordingPrimitivesTests {
    func directory(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "openurld-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aPathLockIsHeldByOneHolderUntilReleased() throws {
        let path = try directory("lock")
        var first = try PathLock.take(path)
        #expect(first != nil)
        // A second open file description cannot take it while the first holds it.
        #expect(try PathLock.take(path) == nil)
        first = nil
        #expect(try PathLock.take(path) != nil, "the lock stayed after its holder went")
        #expect(throws: SystemError.self) { try PathLock.take(path + "/missing") }
    }

    @Test func aFileEndsWithANewlineOnlyWhenItsLastLineIsWhole() throws {
        let path = try directory("ends") + "/record"
        let file = try AppendingFile(path, mode: 0o600)
        #expect(file.ends(with: 0x0A), "an empty file has no torn line")
        try file.appendWhole(Array("1\tone\n".utf8), size: 0)
        #expect(file.ends(with: 0x0A))
        try file.appendWhole(Array("2\ttor".utf8), size: 6)
        #expect(!file.ends(with: 0x0A))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "1\tone\n2\ttor")
    }

    @Test func theLogMovesToDotOneOnceFullAndStartsAgain() throws {
        let path = try directory("log") + "/log"
        let saved = Log.maximumFileBytes
        Log.maximumFileBytes = 4096
        defer {
            Log.maximumFileBytes = saved
            Log.useStandardError()
        }
        Log.useFile(path)
        for n in 0..<200 { Log.info("line \(n) " + String(repeating: "x", count: 60)) }
        let current = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        let previous = try FileManager.default.attributesOfItem(atPath: path + ".1")[.size] as? Int ?? 0
        // About 17 KiB written in all: never more than a file's worth in either (give or take a
        // line another test logs meanwhile: the tests of this process share the log).
        #expect(current <= 4096 + 512 && previous <= 4096 + 512, "\(current) and \(previous) bytes")
        #expect(previous > 3000)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("line 199 "))
        #expect(!FileManager.default.fileExists(atPath: path + ".2"))
        var mode = stat()
        #expect(stat(path, &mode) == 0 && mode.st_mode & 0o777 == 0o600)
    }
}

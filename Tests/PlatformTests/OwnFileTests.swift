import Glibc
import Testing
@testable import Platform

/// Issue 31, case 2: openurld's own files (its state) are never written, read or chmod'ed
/// through a symbolic link or a second name planted in their place, and an atomic rewrite never
/// follows a link planted at its temporary name.
@Suite(.serialized) struct OwnFileTests {
    /// A file someone else cares about: 0644, with known contents.
    func canary(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.file("canary")
        try FileSystem.write(Array("canary\n".utf8), to: path)
        try FileSystem.setPermissions(path, 0o644)
        return path
    }

    func contents(_ path: String) -> String { String(decoding: FileSystem.contents(path) ?? [], as: UTF8.self) }

    @Test func aSymbolicLinkInPlaceOfAnOwnFileIsRefusedAndItsTargetUntouched() throws {
        let dir = TemporaryDirectory()
        let target = try canary(dir)
        try FileSystem.createSymbolicLink(at: dir.file("recent.tsv"), pointingTo: target)
        let error = #expect(throws: SystemError.self) { try AppendingFile(own: dir.file("recent.tsv")) }
        #expect(error?.isRefused == true && error?.message.contains("symbolic link") == true, "\(String(describing: error))")
        #expect(throws: SystemError.self) { try FileSystem.ownContents(dir.file("recent.tsv")) }
        #expect(throws: SystemError.self) { try FileSystem.withOwnContentsMapped(dir.file("recent.tsv")) { $0.count } }
        #expect(throws: SystemError.self) { try OwnValueFile(dir.file("recent.tsv")) }
        #expect(FileSystem.ownFileProblem(dir.file("recent.tsv"))?.isRefused == true)
        #expect(contents(target) == "canary\n")
        #expect(permissions(target) == 0o644)
    }

    @Test func aDanglingLinkDoesNotMakeItsTarget() throws {
        let dir = TemporaryDirectory()
        try FileSystem.createSymbolicLink(at: dir.file("pending-asks.jsonl"), pointingTo: dir.file("made-by-openurld"))
        #expect(throws: SystemError.self) { try AppendingFile(own: dir.file("pending-asks.jsonl")) }
        #expect(throws: SystemError.self) { try OwnValueFile(dir.file("pending-asks.jsonl")) }
        #expect(!FileSystem.exists(dir.file("made-by-openurld")))
    }

    @Test func aSecondNameOfAFileIsRefusedAndNeverChmodded() throws {
        let dir = TemporaryDirectory()
        let target = try canary(dir)
        #expect(link(target, dir.file("log")) == 0)
        let error = #expect(throws: SystemError.self) { try AppendingFile(own: dir.file("log")) }
        #expect(error?.message.contains("hard links") == true, "\(String(describing: error))")
        // A file opened the ordinary way (`--log FILE`) may be reached by another name: never chmod'ed then.
        let followed = try AppendingFile(dir.file("log"), mode: 0o600)
        #expect(throws: SystemError.self) { try followed.setPermissions(0o600) }
        #expect(permissions(target) == 0o644)
        #expect(contents(target) == "canary\n")
    }

    @Test func aMissingOwnFileIsCreated0600AndAnExistingOneAppendedTo() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("recent.tsv")
        #expect(try FileSystem.ownContents(path) == nil)
        let saved = umask(0)
        defer { umask(saved) }
        try AppendingFile(own: path).write("one\n")
        try AppendingFile(own: path).write("two\n")
        #expect(permissions(path) == 0o600)
        #expect(try FileSystem.ownContents(path) == Array("one\ntwo\n".utf8))
        #expect(try FileSystem.withOwnContentsMapped(path) { Array($0) } == Array("one\ntwo\n".utf8))
        #expect(try FileSystem.withOwnContentsMapped(dir.file("missing")) { $0.count } == nil)
        try AppendingFile(own: dir.file("empty")).write("")
        #expect(try FileSystem.withOwnContentsMapped(dir.file("empty")) { $0.count } == 0)
        #expect(FileSystem.ownFileProblem(path) == nil)
    }

    @Test func aValueFileIsReplacedInPlace() throws {
        let dir = TemporaryDirectory()
        let file = try OwnValueFile(dir.file("next-id"))
        try file.replace(with: Array("9\n".utf8))
        try file.replace(with: Array("10\n".utf8))
        #expect(file.read() == Array("10\n".utf8))
        #expect(contents(dir.file("next-id")) == "10\n")
        #expect(permissions(dir.file("next-id")) & 0o077 == 0)
    }

    @Test(arguments: [true, false])
    func anAtomicRewriteDoesNotFollowALinkAtItsTemporaryName(dangling: Bool) throws {
        let dir = TemporaryDirectory()
        let target = dangling ? dir.file("made-by-openurld") : try canary(dir)
        try FileSystem.createSymbolicLink(at: dir.file("recent.tsv.tmp"), pointingTo: target)
        try FileSystem.writeAtomically(Array("new\n".utf8), to: dir.file("recent.tsv"), mode: 0o600, temporary: dir.file("recent.tsv.tmp"))
        #expect(contents(dir.file("recent.tsv")) == "new\n")
        #expect(!FileSystem.isSymbolicLink(dir.file("recent.tsv")))
        if dangling {
            #expect(!FileSystem.exists(target))
        } else {
            #expect(contents(target) == "canary\n")
            #expect(permissions(target) == 0o644)
        }
    }

    @Test func theOwnLogIsNotOpenedThroughALink() throws {
        let dir = TemporaryDirectory()
        let target = try canary(dir)
        try FileSystem.createSymbolicLink(at: dir.file("log"), pointingTo: target)
        defer { Log.useStandardError() }
        Log.useFile(dir.file("log"), own: true)
        Log.info("a line that must not reach the canary")
        // (Log.file is not looked at: other suites of this process may use the log meanwhile.)
        #expect(Log.refusedFile?.path == dir.file("log"))
        #expect(contents(target) == "canary\n")
        #expect(permissions(target) == 0o644)
    }
}

import Glibc
import Testing
@testable import Platform

/// A fresh directory under /tmp, removed when the test is done with it.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/platform-tests-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { try? FileSystem.removeTree(path) }

    func file(_ name: String) -> String { path + "/" + name }
}

/// The permission bits of `path` as stat(2) reports them.
func permissions(_ path: String) -> UInt32 {
    var info = stat()
    guard stat(path, &info) == 0 else { return 0xFFFF_FFFF }
    return UInt32(info.st_mode & 0o7777)
}

@Suite struct FileSystemTests {
    @Test(arguments: [[UInt8](), Array("hello\n".utf8), [UInt8](repeating: 0xAB, count: 200_000)])
    func writesAndReadsBackBytes(_ bytes: [UInt8]) throws {
        let dir = TemporaryDirectory()
        try FileSystem.write(bytes, to: dir.file("f"))
        #expect(try FileSystem.readBytes(dir.file("f")) == bytes)
        #expect(FileSystem.contents(dir.file("f")) == bytes)
        #expect(try FileSystem.status(dir.file("f")).size == bytes.count)
    }

    @Test func utf8TextRejectsInvalidBytesAndMissingFiles() throws {
        let dir = TemporaryDirectory()
        try FileSystem.write(Array("grüß\n".utf8), to: dir.file("good"))
        try FileSystem.write([0x61, 0xFF, 0x62], to: dir.file("bad"))
        #expect(FileSystem.utf8Text(dir.file("good")) == "grüß\n")
        #expect(FileSystem.utf8Text(dir.file("bad")) == nil)
        #expect(FileSystem.utf8Text(dir.file("missing")) == nil)
        #expect(try FileSystem.readText(dir.file("bad")) == "a\u{FFFD}b")
    }

    @Test(arguments: [UInt32(0o600), 0o644, 0o640, 0o755])
    func atomicWriteSetsTheModeExactly(_ mode: UInt32) throws {
        let dir = TemporaryDirectory()
        let target = dir.file("state")
        try FileSystem.write(Array("old".utf8), to: target)
        try FileSystem.writeAtomically(Array("new".utf8), to: target, mode: mode)
        #expect(permissions(target) == mode)
        #expect(try FileSystem.readText(target) == "new")
        #expect(!FileSystem.exists(target + ".new"), "the temporary is renamed away")
    }

    @Test func atomicWriteKeepsTheReplacedFilesMode() throws {
        let dir = TemporaryDirectory()
        let target = dir.file("kept")
        try FileSystem.write([1], to: target)
        try FileSystem.setPermissions(target, 0o604)
        try FileSystem.writeAtomically([2], to: target)
        #expect(permissions(target) == 0o604)
        #expect(FileSystem.contents(target) == [2])
    }

    @Test func atomicWriteReplacesAStaleTemporary() throws {
        let dir = TemporaryDirectory()
        try FileSystem.write(Array("stale".utf8), to: dir.file("x.new"))
        try FileSystem.setPermissions(dir.file("x.new"), 0o666)
        try FileSystem.writeAtomically(Array("fresh".utf8), to: dir.file("x"), mode: 0o600)
        #expect(permissions(dir.file("x")) == 0o600)
        #expect(try FileSystem.readText(dir.file("x")) == "fresh")
    }

    @Test func atomicWriteIntoAMissingDirectoryNamesTheTemporary() throws {
        let dir = TemporaryDirectory()
        let error = #expect(throws: SystemError.self) { try FileSystem.writeAtomically([1], to: dir.file("no/such/file")) }
        #expect(error?.isNotFound == true)
        #expect(error?.description == "open \(dir.file("no/such/file.new")): No such file or directory")
    }

    /// Calls that fail in a fresh directory, with the operation, path suffix and errno each must report.
    enum FailingCall: CaseIterable {
        case readMissing, readDirectory, removeMissing, mkdirWithoutParents, listMissing, readlinkOfDirectory, realpathMissing, statMissing

        func run(in d: String) throws(SystemError) {
            switch self {
            case .readMissing: _ = try FileSystem.readBytes(d + "/missing")
            case .readDirectory: _ = try FileSystem.readBytes(d)
            case .removeMissing: try FileSystem.remove(d + "/missing")
            case .mkdirWithoutParents: try FileSystem.createDirectory(d + "/a/b")
            case .listMissing: _ = try FileSystem.listDirectory(d + "/missing")
            case .readlinkOfDirectory: _ = try FileSystem.symbolicLinkTarget(d)
            case .realpathMissing: _ = try FileSystem.resolvingSymbolicLinks(d + "/missing")
            case .statMissing: _ = try FileSystem.status(d + "/missing")
            }
        }

        var expected: (operation: String, suffix: String, code: Int32) {
            switch self {
            case .readMissing: ("open", "/missing", ENOENT)
            case .readDirectory: ("read", "", EISDIR)
            case .removeMissing: ("unlink", "/missing", ENOENT)
            case .mkdirWithoutParents: ("mkdir", "/a/b", ENOENT)
            case .listMissing: ("opendir", "/missing", ENOENT)
            case .readlinkOfDirectory: ("readlink", "", EINVAL)
            case .realpathMissing: ("realpath", "/missing", ENOENT)
            case .statMissing: ("stat", "/missing", ENOENT)
            }
        }
    }

    /// Each failing operation names itself and the path, and the errno is the one the system gave.
    @Test(arguments: FailingCall.allCases)
    func errorsNameTheOperationAndPath(_ call: FailingCall) {
        let dir = TemporaryDirectory()
        let (operation, suffix, code) = call.expected
        do {
            try call.run(in: dir.path)
            Issue.record("\(call): no error")
        } catch {
            #expect(error.operation == operation)
            #expect(error.path == dir.path + suffix)
            #expect(error.code == code, "\(error)")
            #expect(error.description == "\(operation) \(dir.path + suffix): \(String(cString: strerror(code)))")
        }
    }

    @Test func renameFailureNamesBothPaths() {
        let error = #expect(throws: SystemError.self) { try FileSystem.rename("/nonexistent/a", to: "/nonexistent/b") }
        #expect(error?.description == "rename to /nonexistent/b /nonexistent/a: No such file or directory")
    }

    @Test func kindsOfThingsAtAPath() throws {
        let dir = TemporaryDirectory()
        try FileSystem.write([], to: dir.file("plain"))
        try FileSystem.createDirectory(dir.file("sub"))
        try FileSystem.createSymbolicLink(at: dir.file("to-plain"), pointingTo: "plain")
        try FileSystem.createSymbolicLink(at: dir.file("dangling"), pointingTo: "nowhere")
        try FileSystem.createSymbolicLink(at: dir.file("to-sub"), pointingTo: dir.file("sub"))
        let cases: [(String, exists: Bool, directory: Bool, regular: Bool, link: Bool)] = [
            ("plain", true, false, true, false),
            ("sub", true, true, false, false),
            ("to-plain", true, false, true, true),
            ("dangling", false, false, false, true),
            ("to-sub", true, true, false, true),
            ("missing", false, false, false, false),
        ]
        for (name, exists, directory, regular, link) in cases {
            #expect(FileSystem.exists(dir.file(name)) == exists, "\(name)")
            #expect(FileSystem.isDirectory(dir.file(name)) == directory, "\(name)")
            #expect(FileSystem.isRegularFile(dir.file(name)) == regular, "\(name)")
            #expect(FileSystem.isSymbolicLink(dir.file(name)) == link, "\(name)")
        }
        #expect(try FileSystem.symbolicLinkTarget(dir.file("to-plain")) == "plain")
        #expect(try FileSystem.resolvingSymbolicLinks(dir.file("to-plain")) == FileSystem.resolvingSymbolicLinks(dir.path) + "/plain")
        #expect(try FileSystem.status(dir.file("dangling"), followingSymlinks: false).kind == .symbolicLink)
    }

    @Test(arguments: [(UInt32(0o755), true), (0o644, false), (0o700, true)])
    func executableFollowsTheModeBits(_ mode: UInt32, _ executable: Bool) throws {
        let dir = TemporaryDirectory()
        try FileSystem.write(Array("#!/bin/sh\n".utf8), to: dir.file("tool"))
        try FileSystem.setPermissions(dir.file("tool"), mode)
        #expect(FileSystem.isExecutable(dir.file("tool")) == executable)
    }

    @Test func listsAndWalksDirectoriesSorted() throws {
        let dir = TemporaryDirectory()
        try FileSystem.createDirectory(dir.file("b/c"), intermediates: true)
        try FileSystem.write([], to: dir.file("b/c/z.desktop"))
        try FileSystem.write([], to: dir.file("a.desktop"))
        try FileSystem.write([], to: dir.file("b/y"))
        try FileSystem.createSymbolicLink(at: dir.file("link"), pointingTo: dir.file("b"))
        #expect(try FileSystem.listDirectory(dir.path) == ["a.desktop", "b", "link"])
        #expect(try FileSystem.descendants(of: dir.path) == ["a.desktop", "b", "b/c", "b/c/z.desktop", "b/y", "link"])
        #expect(throws: SystemError.self) { try FileSystem.descendants(of: dir.file("missing")) }
    }

    @Test(arguments: [UInt32(0o700), 0o755])
    func createsDirectoriesWithTheirMode(_ mode: UInt32) throws {
        let dir = TemporaryDirectory()
        try FileSystem.createDirectory(dir.file("x/y/z"), mode: mode, intermediates: true)
        #expect(permissions(dir.file("x")) == mode & ~0o022 || permissions(dir.file("x")) == mode)
        #expect(FileSystem.isDirectory(dir.file("x/y/z")))
        try FileSystem.createDirectory(dir.file("x/y/z"), mode: mode, intermediates: true)
        let again = #expect(throws: SystemError.self) { try FileSystem.createDirectory(dir.file("x/y/z"), mode: mode) }
        #expect(again?.isAlreadyExisting == true)
    }

    @Test func removesFilesDirectoriesAndTrees() throws {
        let dir = TemporaryDirectory()
        try FileSystem.createDirectory(dir.file("t/u"), intermediates: true)
        try FileSystem.write([], to: dir.file("t/u/f"))
        try FileSystem.createSymbolicLink(at: dir.file("t/l"), pointingTo: dir.file("t/u"))
        let notEmpty = #expect(throws: SystemError.self) { try FileSystem.remove(dir.file("t")) }
        #expect(notEmpty?.operation == "rmdir")
        try FileSystem.remove(dir.file("t/l"))
        #expect(FileSystem.exists(dir.file("t/u/f")), "removing a link leaves its target")
        try FileSystem.removeTree(dir.file("t"))
        #expect(!FileSystem.exists(dir.file("t")))
    }

    @Test func renameReplacesTheDestination() throws {
        let dir = TemporaryDirectory()
        try FileSystem.write([1], to: dir.file("a"))
        try FileSystem.write([2], to: dir.file("b"))
        try FileSystem.rename(dir.file("a"), to: dir.file("b"))
        #expect(FileSystem.contents(dir.file("b")) == [1])
        #expect(!FileSystem.exists(dir.file("a")))
    }

    @Test func readableFileStopsPastTheLimitAndReportsItsStatus() throws {
        let dir = TemporaryDirectory()
        try FileSystem.write([UInt8](repeating: 7, count: 300_000), to: dir.file("big"))
        let file = try ReadableFile(dir.file("big"))
        let bytes = try file.read(upTo: 100_000)
        #expect(bytes.count > 100_000 && bytes.count < 300_000)
        let status = try file.status()
        #expect(status.kind == .regular && status.size == 300_000)
        #expect(abs(status.modified.secondsValue - WallClock.secondsSinceEpoch()) < 3600)
        #expect(FileSystem.modificationTime(dir.file("big")) == status.modified.secondsValue)
    }
}

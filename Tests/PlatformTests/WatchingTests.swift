import Glibc
import Testing
import Platform

@Suite struct InotifyTests {
    /// Each change to a watched directory is reported with the file's name and the right bit.
    @Test func reportsChangesByName() throws {
        let dir = TemporaryDirectory()
        let inotify = try Inotify()
        let watch = try inotify.watch(dir.path, for: [.closeWrite, .movedTo, .create, .delete])
        #expect(inotify.pendingEvents().isEmpty)  // non-blocking
        try FileSystem.write(Array("x".utf8), to: dir.file("config.toml.new"))
        try FileSystem.rename(dir.file("config.toml.new"), to: dir.file("config.toml"))
        try FileSystem.remove(dir.file("config.toml"))
        let events = inotify.pendingEvents()
        #expect(events.allSatisfy { $0.watch == watch })
        let seen = events.map { ($0.name, $0.events) }
        #expect(seen.contains { $0.0 == "config.toml.new" && $0.1.contains(.create) })
        #expect(seen.contains { $0.0 == "config.toml.new" && $0.1.contains(.closeWrite) })
        #expect(seen.contains { $0.0 == "config.toml" && $0.1.contains(.movedTo) })
        #expect(seen.contains { $0.0 == "config.toml" && $0.1.contains(.delete) })
    }

    /// A removed directory reports its own deletion and the end of the watch.
    @Test func reportsTheDirectoryGoing() throws {
        let dir = TemporaryDirectory()
        try FileSystem.createDirectory(dir.file("sub"))
        let inotify = try Inotify()
        _ = try inotify.watch(dir.file("sub"), for: [.deleteSelf, .moveSelf])
        try FileSystem.remove(dir.file("sub"))
        let events = inotify.pendingEvents().map(\.events)
        #expect(events.contains { $0.contains(.deleteSelf) })
        #expect(events.contains { $0.contains(.ignored) })
    }

    @Test func aMissingDirectoryNamesThePath() throws {
        let inotify = try Inotify()
        #expect(throws: SystemError.self) { try inotify.watch("/nonexistent/platform-tests", for: .create) }
        do { _ = try inotify.watch("/nonexistent/platform-tests", for: .create) } catch {
            #expect(error.isNotFound && error.description.contains("/nonexistent/platform-tests"))
        }
    }
}

@Suite struct SignalPipeTests {
    /// A signal sent to the process arrives as its number on the pipe, in order, and only once.
    @Test func deliversSignalsAsBytes() throws {
        // SIGUSR1/2 are not handled by the test runner; the daemon's own signals would be.
        let readEnd = try SignalPipe.install([Signal(rawValue: SIGUSR1), Signal(rawValue: SIGUSR2)])
        defer { signal(SIGUSR1, SIG_DFL); signal(SIGUSR2, SIG_DFL); close(readEnd) }
        #expect(SignalPipe.pending(readEnd).isEmpty)
        // Sent to the process, one at a time: any thread that does not block it runs the
        // handler, and a standard signal sent twice before delivery arrives once.
        var received: [Signal] = []
        for number in [SIGUSR1, SIGUSR2, SIGUSR1] {
            kill(getpid(), number)
            let deadline = Deadline(after: 10)
            var got: [Signal] = []
            while got.isEmpty, !deadline.hasPassed {
                got = SignalPipe.pending(readEnd)
                if got.isEmpty { pause(microseconds: 1000) }
            }
            received += got
        }
        #expect(received == [Signal(rawValue: SIGUSR1), Signal(rawValue: SIGUSR2), Signal(rawValue: SIGUSR1)])
        #expect(SignalPipe.pending(readEnd).isEmpty)
    }

    @Test(arguments: [(Signal.terminate, SIGTERM), (.interrupt, SIGINT), (.hangUp, SIGHUP), (.child, SIGCHLD)])
    func namedSignalsAreGlibcs(_ signal: Signal, _ number: Int32) {
        #expect(signal.rawValue == number && signal.description == "\(number)")
    }
}

@Suite struct AppendingFileTests {
    /// Created with the mode asked for (0600 for recent.tsv and the log), appended to, never truncated.
    @Test func appendsAndCreatesWithTheMode() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("recent.tsv")
        try FileSystem.write(Array("first\n".utf8), to: path, mode: 0o644)
        do {
            let file = try AppendingFile(path, mode: 0o600)
            try file.setPermissions(0o600)
            try file.write("second\n")
            try file.write("")
            try file.write("third ☕\n")
            #expect(try file.status().size == "first\nsecond\nthird ☕\n".utf8.count)
        }
        #expect(try FileSystem.readText(path) == "first\nsecond\nthird ☕\n")
        #expect(permissions(path) == 0o600)
        let fresh = dir.file("log")
        _ = try AppendingFile(fresh, mode: 0o600)
        #expect(permissions(fresh) == 0o600 & ~currentUmask())
        #expect(throws: SystemError.self) { try AppendingFile(dir.file("missing/log"), mode: 0o600) }
    }

    @Test(arguments: [(0, 10, ""), (5, 10, "01234"), (20, 10, "0123456789"), (20, 1, "9"), (70_000, 65_536, nil)] as [(Int, Int, String?)])
    func tailReadsOnlyTheEnd(_ size: Int, _ maximum: Int, _ expected: String?) throws {
        let dir = TemporaryDirectory()
        let bytes = (0..<size).map { UInt8(ascii: "0") + UInt8(($0 % 10)) }
        try FileSystem.write(bytes, to: dir.file("f"))
        let tail = try #require(FileSystem.tail(dir.file("f"), maximum: maximum))
        #expect(tail == Array(bytes.suffix(maximum)))
        if let expected { #expect(String(decoding: tail, as: UTF8.self) == String(expected.suffix(maximum))) }
        #expect(FileSystem.tail(dir.file("missing"), maximum: maximum) == nil)
    }
}

private func currentUmask() -> UInt32 {
    let mask = umask(0o022)
    umask(mask)
    return UInt32(mask)
}

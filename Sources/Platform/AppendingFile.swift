/// A file opened for appending (O_APPEND), created with a mode when missing: every write lands
/// whole at the end, even with other writers. Closed when released.
public final class AppendingFile {
    private let fd: Int32
    /// The path it was opened from.
    public let path: String

    /// Opens (or creates, with `mode` before the umask) `path` for appending.
    public init(_ path: String, mode: UInt32) throws(SystemError) {
        self.path = path
        fd = try Sys.openForAppending(path, mode: mode)
    }

    /// Opens `path` as one of openurld's own files (its state: see `Sys.openOwn`): never through
    /// a symbolic link, created with O_EXCL and `mode` when missing; a link, another user's file
    /// or a file with a second name in its place is refused (`SystemError.isRefused`).
    public init(own path: String, mode: UInt32 = 0o600) throws(SystemError) {
        self.path = path
        fd = try Sys.openOwn(path, .append, create: true, mode: mode)
        identity = Sys.identity(fd)
    }

    /// The device and inode it was opened as (an own file only).
    private var identity: (device: UInt64, inode: UInt64)?

    /// The file's size when its path still names this very file, as openurld's own (not a link,
    /// this user's regular file with one name); nil when it does not (removed, replaced,
    /// renamed over, a link planted), or the file was not opened with `init(own:)`. One
    /// lstat(2): a record kept open checks this before each write instead of opening again.
    public var sizeWhileStillOwn: Int? {
        guard let identity else { return nil }
        return Sys.ownSize(path, device: identity.device, inode: identity.inode)
    }

    deinit { Sys.close(fd) }

    /// Sets the permission bits exactly (fchmod), whatever the umask was; only on this user's own
    /// regular file with one link (another's file reached by a link is never chmod'ed).
    public func setPermissions(_ mode: UInt32) throws(SystemError) {
        if let why = Sys.notOwn(fd) { throw SystemError.refused(path, why, code: Sys.notPermitted) }
        guard (try? status())?.permissions != mode else { return }
        try Sys.fchmod(fd, mode: mode, path: path)
    }

    /// Appends `text`, resuming after short writes.
    public func write(_ text: String) throws(SystemError) { try Sys.writeAll(fd, Array(text.utf8), path: path) }

    /// Appends `bytes` whole or not at all: a write the disk can only take part of (ENOSPC
    /// after a short write) is cut back off, so no torn record is left at the end. `size` is
    /// the file's size before the write (this process being its only writer).
    public func appendWhole(_ bytes: [UInt8], size: Int) throws(SystemError) {
        do { try Sys.writeAll(fd, bytes, path: path) } catch {
            try? Sys.ftruncate(fd, size: size, path: path)
            throw error
        }
    }

    /// Whether the file is empty or ends with `byte` (a newline: its last record is whole).
    public func ends(with byte: UInt8) -> Bool {
        guard let size = try? status().size, size > 0 else { return true }
        return Sys.byte(path, at: size - 1) == byte
    }

    /// The open file's status (fstat): its size after the writes so far.
    public func status() throws(SystemError) -> FileStatus { try Sys.status(descriptor: fd, path: path) }
}

extension FileSystem {
    /// The last `maximum` bytes of the file at `path` (all of a shorter one), without reading
    /// the rest; nil when it cannot be read.
    public static func tail(_ path: String, maximum: Int) -> [UInt8]? { try? Sys.readTail(path, maximum: maximum) }

    /// The whole of one of openurld's own files (see `AppendingFile(own:)`); nil when nothing is
    /// there; throws a refusal for a link or a file not its own, which is never read.
    public static func ownContents(_ path: String) throws(SystemError) -> [UInt8]? {
        guard let fd = try openOwnForReading(path) else { return nil }
        defer { Sys.close(fd) }
        return Sys.readToEnd(fd)
    }

    /// Calls `body` with the bytes of one of openurld's own files (opened as `ownContents` opens
    /// it, so a link or a file not its own is refused), mapped read-only instead of read: a
    /// compiled snapshot's pages come from the page cache, several a fault, rather than being
    /// copied into fresh memory (the block lists' 1.3 MB were a sixth of the daemon's start-up
    /// page faults). Nil when nothing is there. The mapping ends when `body` returns. openurld
    /// replaces these files by rename, never in place; only their owner could shorten one while it
    /// is mapped, and that stops the reader (SIGBUS) as killing it would.
    public static func withOwnContentsMapped<Result>(_ path: String, _ body: (UnsafeRawBufferPointer) -> Result) throws(SystemError) -> Result? {
        guard let fd = try openOwnForReading(path) else { return nil }
        let mapped = Sys.mapReadOnly(fd)
        Sys.close(fd)
        guard let mapped else { throw Sys.failure("mmap", path) }
        defer { Sys.unmap(mapped) }
        return body(mapped)
    }

    /// `path` opened for reading as one of openurld's own files; nil when nothing is there.
    private static func openOwnForReading(_ path: String) throws(SystemError) -> Int32? {
        do { return try Sys.openOwn(path, .read, create: false) } catch {
            if error.isNotFound { return nil }
            throw error
        }
    }

    /// Why the name `path` is not one of openurld's own files (a symbolic link, another user's
    /// file, a second name of a file); nil when it is, or when nothing is there.
    public static func ownFileProblem(_ path: String) -> SystemError? { Sys.ownProblem(path).map { SystemError.refused(path, $0) } }
}

/// One of openurld's own files holding one short value replaced in place (the id counter): read
/// and rewritten through one descriptor, opened as `AppendingFile(own:)` opens.
public final class OwnValueFile {
    private let fd: Int32
    /// The path it was opened from.
    public let path: String

    /// Opens (or creates, 0600) `path`; refuses a link or a file not openurld's own.
    public init(_ path: String) throws(SystemError) {
        self.path = path
        fd = try Sys.openOwn(path, .readWrite, create: true)
    }

    deinit { Sys.close(fd) }

    /// The file's length as this process last read or wrote it; nil before either.
    private var length: Int?

    /// Everything in it.
    public func read() -> [UInt8] {
        guard Sys.seekToStart(fd) else { return [] }
        let bytes = Sys.readToEnd(fd)
        length = bytes.count
        return bytes
    }

    /// Replaces its contents with `bytes`: one pwrite(2) at the start, then the rest cut off
    /// (ftruncate), unless it is known to hold no more than that (a counter that grows: one
    /// pwrite per id, not two calls). A value that only grows is never seen half written.
    public func replace(with bytes: [UInt8]) throws(SystemError) {
        do {
            if let length, bytes.count >= length {
                try Sys.overwriteInPlace(fd, bytes, path: path)
            } else {
                try Sys.overwrite(fd, bytes, path: path)
            }
            length = bytes.count
        } catch {
            length = nil  // a short write: what the file holds now is not known
            throw error
        }
    }
}

/// An exclusive lock on a path (`flock`), held until released or the process ends (a killed
/// process leaves none behind): one daemon at a time works on what the path guards.
public final class PathLock {
    private let fd: Int32

    /// Takes the lock on `path` (a file or a directory that exists) without waiting; nil when
    /// another process holds it.
    public static func take(_ path: String) throws(SystemError) -> PathLock? {
        try Sys.tryLock(path).map(PathLock.init)
    }

    private init(_ fd: Int32) { self.fd = fd }

    deinit { Sys.close(fd) }
}

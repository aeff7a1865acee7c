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

    deinit { Sys.close(fd) }

    /// Sets the permission bits exactly (fchmod), whatever the umask was.
    public func setPermissions(_ mode: UInt32) throws(SystemError) { try Sys.fchmod(fd, mode: mode, path: path) }

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

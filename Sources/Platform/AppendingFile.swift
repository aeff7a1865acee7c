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

    /// The open file's status (fstat): its size after the writes so far.
    public func status() throws(SystemError) -> FileStatus { try Sys.status(descriptor: fd, path: path) }
}

extension FileSystem {
    /// The last `maximum` bytes of the file at `path` (all of a shorter one), without reading
    /// the rest; nil when it cannot be read.
    public static func tail(_ path: String, maximum: Int) -> [UInt8]? { try? Sys.readTail(path, maximum: maximum) }
}

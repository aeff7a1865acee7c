/// Files and directories by path: reads, atomic writes with a mode, metadata, listing, links.
public enum FileSystem {
    // MARK: reading

    /// The whole file, or nil when it cannot be read for any reason (as FileManager's `contents`).
    public static func contents(_ path: String) -> [UInt8]? { try? readBytes(path) }

    /// The whole file; throws when it cannot be opened or read.
    public static func readBytes(_ path: String) throws(SystemError) -> [UInt8] {
        let file = try ReadableFile(path)
        return try file.read(upTo: Int.max - 1)
    }

    /// The whole file as UTF-8 text (invalid bytes become U+FFFD).
    public static func readText(_ path: String) throws(SystemError) -> String {
        String(decoding: try readBytes(path), as: UTF8.self)
    }

    /// The whole file when it is valid UTF-8, else nil (as `String(contentsOfFile:encoding: .utf8)`).
    public static func utf8Text(_ path: String) -> String? {
        contents(path).flatMap { String(validating: $0, as: UTF8.self) }
    }

    // MARK: writing

    /// Creates or truncates `path` and writes `bytes`, created with `mode` (before the umask).
    public static func write(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o666) throws(SystemError) {
        let fd = try Sys.openForWriting(path, mode: mode, exclusive: false)
        defer { Sys.close(fd) }
        try Sys.writeAll(fd, bytes, path: path)
    }

    /// Replaces `path` whole so no reader sees half of it: writes `temporary` (default `path` +
    /// ".new"), fsyncs it and renames it over `path`. `mode` is set exactly (no umask); nil keeps
    /// the mode of the file being replaced, and a new file gets 0666 less the umask.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, mode: UInt32? = nil,
                                       temporary: String? = nil) throws(SystemError) {
        let temporary = temporary ?? path + ".new"
        let finalMode = mode ?? (try? Sys.status(path, followingSymlinks: true))?.permissions
        // A temporary left by a crash is replaced, so the new one gets exactly the mode asked for;
        // unlink removes a link planted there, never its target, and the exclusive open below
        // fails on one planted meanwhile rather than follow it.
        try? Sys.unlink(temporary)
        do {
            let fd = try Sys.openForWriting(temporary, mode: finalMode ?? 0o666, exclusive: true)
            defer { Sys.close(fd) }
            if let finalMode { try Sys.fchmod(fd, mode: finalMode, path: temporary) }
            try Sys.writeAll(fd, bytes, path: temporary)
            try Sys.fsync(fd, path: temporary)
        } catch {
            try? Sys.unlink(temporary)
            throw error
        }
        do { try Sys.rename(temporary, path) } catch {
            try? Sys.unlink(temporary)
            throw error
        }
    }

    // MARK: metadata

    /// Whether anything is at `path`, following symbolic links (a dangling link is not there).
    public static func exists(_ path: String) -> Bool { (try? Sys.status(path, followingSymlinks: true)) != nil }

    /// Whether `path` is a directory, or a link to one.
    public static func isDirectory(_ path: String) -> Bool { (try? Sys.status(path, followingSymlinks: true))?.kind == .directory }

    /// Whether `path` is a regular file, or a link to one.
    public static func isRegularFile(_ path: String) -> Bool { (try? Sys.status(path, followingSymlinks: true))?.kind == .regular }

    /// Whether `path` itself is a symbolic link (dangling or not).
    public static func isSymbolicLink(_ path: String) -> Bool { (try? Sys.status(path, followingSymlinks: false))?.kind == .symbolicLink }

    /// Whether this process may execute `path` (access X_OK), as FileManager's `isExecutableFile`.
    public static func isExecutable(_ path: String) -> Bool { Sys.isExecutable(path) }

    /// The file's status; `followingSymlinks: false` describes a link itself.
    public static func status(_ path: String, followingSymlinks: Bool = true) throws(SystemError) -> FileStatus {
        try Sys.status(path, followingSymlinks: followingSymlinks)
    }

    /// When the file's contents last changed, in seconds since the epoch; nil when it is not there.
    public static func modificationTime(_ path: String) -> Double? { (try? status(path))?.modified.secondsValue }

    /// Sets the permission bits of `path`.
    public static func setPermissions(_ path: String, _ mode: UInt32) throws(SystemError) { try Sys.chmod(path, mode: mode) }

    // MARK: directories

    /// The names in the directory, without "." and "..", sorted by their bytes.
    public static func listDirectory(_ path: String) throws(SystemError) -> [String] {
        try Sys.directoryEntries(path).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Every entry below `path` as a path relative to it ("a", "a/b.desktop"), depth first, sorted
    /// within each directory; symbolic links to directories are listed but not entered. Unreadable
    /// subdirectories are skipped; an unreadable `path` throws.
    public static func descendants(of path: String) throws(SystemError) -> [String] {
        var result: [String] = []
        func walk(_ relative: String) {
            let directory = relative.isEmpty ? path : Path.join(path, relative)
            guard let names = try? listDirectory(directory) else { return }
            for name in names {
                let child = relative.isEmpty ? name : relative + "/" + name
                result.append(child)
                if (try? Sys.status(Path.join(path, child), followingSymlinks: false))?.kind == .directory { walk(child) }
            }
        }
        _ = try listDirectory(path)
        walk("")
        return result
    }

    /// Creates a directory with `mode` (before the umask). With `intermediates`, missing parents
    /// are created too (with the same mode) and an existing directory is not an error.
    public static func createDirectory(_ path: String, mode: UInt32 = 0o777, intermediates: Bool = false) throws(SystemError) {
        guard intermediates else { return try Sys.mkdir(path, mode: mode) }
        if isDirectory(path) { return }
        let parent = Path.parent(path)
        if !parent.isEmpty, parent != path, !isDirectory(parent) {
            try createDirectory(parent, mode: mode, intermediates: true)
        }
        do { try Sys.mkdir(path, mode: mode) } catch {
            // Another process may have made it meanwhile.
            if !(error.isAlreadyExisting && isDirectory(path)) { throw error }
        }
    }

    // MARK: names

    /// Removes a file, a symbolic link or an empty directory.
    public static func remove(_ path: String) throws(SystemError) {
        if (try? Sys.status(path, followingSymlinks: false))?.kind == .directory { try Sys.rmdir(path) } else { try Sys.unlink(path) }
    }

    /// Removes an empty directory (rmdir(2)): never a file, nor a link to a directory.
    public static func removeDirectory(_ path: String) throws(SystemError) { try Sys.rmdir(path) }

    /// Removes `path` and, when it is a directory (not a link to one), everything in it.
    public static func removeTree(_ path: String) throws(SystemError) {
        if try Sys.status(path, followingSymlinks: false).kind == .directory {
            for name in try Sys.directoryEntries(path) { try removeTree(Path.join(path, name)) }
            try Sys.rmdir(path)
        } else {
            try Sys.unlink(path)
        }
    }

    /// Renames `source` to `destination`, replacing a file there (rename(2)).
    public static func rename(_ source: String, to destination: String) throws(SystemError) { try Sys.rename(source, destination) }

    /// Creates a symbolic link at `path` whose contents are `target`.
    public static func createSymbolicLink(at path: String, pointingTo target: String) throws(SystemError) { try Sys.symlink(target, at: path) }

    /// What the symbolic link at `path` holds, as written (relative targets stay relative).
    public static func symbolicLinkTarget(_ path: String) throws(SystemError) -> String { try Sys.readlink(path) }

    /// The absolute path with every link, "." and ".." resolved (realpath(3)); throws when missing.
    public static func resolvingSymbolicLinks(_ path: String) throws(SystemError) -> String { try Sys.realpath(path) }
}

/// A file open for reading, closed when released: for reads that need the status of the very
/// file they read (a config rewritten meanwhile).
public final class ReadableFile {
    private let fd: Int32
    /// The path it was opened from.
    public let path: String

    /// Opens `path` for reading (following links); throws with the reason when it cannot.
    public init(_ path: String) throws(SystemError) {
        self.path = path
        fd = try Sys.openForReading(path)
    }

    deinit { Sys.close(fd) }

    /// The open file's status (fstat).
    public func status() throws(SystemError) -> FileStatus { try Sys.status(descriptor: fd, path: path) }

    /// Reads to the end of the file, but stops once more than `limit` bytes are in: a result longer
    /// than `limit` means the file is over it.
    public func read(upTo limit: Int) throws(SystemError) -> [UInt8] { try Sys.readToEnd(fd, limit: limit, path: path) }
}

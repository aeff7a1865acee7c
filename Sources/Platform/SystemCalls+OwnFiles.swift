import Glibc

// The raw calls behind the daemon's own files (its state directory: recent.tsv, the pending
// questions, the id counter, the log): opened without following a link, closed on exec, and used
// only when they are this user's own regular file with one name, so a link or a hard link
// planted in their place can neither redirect a write nor get a foreign file chmod'ed.
extension Sys {
    /// How an own file is opened.
    enum OwnAccess {
        case read, append, readWrite

        var flags: Int32 {
            switch self {
            case .read: return O_RDONLY
            case .append: return O_WRONLY | O_APPEND
            case .readWrite: return O_RDWR
            }
        }
    }

    /// Opens `path` as an own file; `create` makes a missing one (O_EXCL, `mode`). Throws a
    /// refusal (`SystemError.isRefused`) for a link, a non-regular file, another user's file or
    /// one with more names than one; other failures as they come (ENOENT without `create`).
    static func openOwn(_ path: String, _ access: OwnAccess, create: Bool, mode: UInt32 = 0o600) throws(SystemError) -> Int32 {
        // O_NONBLOCK: a FIFO planted in its place must not hang the daemon in open(2).
        let base = access.flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        // A name that appears or goes between the two opens (another writer) is tried again, a few times.
        for _ in 0..<4 {
            let fd = Glibc.open(path, base)
            if fd >= 0 {
                try checkOwn(fd, path)
                return fd
            }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == ELOOP { throw SystemError.refused(path, "is a symbolic link; openurld does not write or read through it") }
            guard code == ENOENT, create else { throw failure("open", path, code: code) }
            // O_EXCL never follows a link, dangling or not: a link made meanwhile gives EEXIST.
            let created = Glibc.open(path, base | O_CREAT | O_EXCL, mode_t(mode))
            if created >= 0 { return created }
            let createCode = Glibc.errno
            if createCode == EEXIST || createCode == EINTR { continue }
            throw failure("open", path, code: createCode)
        }
        throw failure("open", path, code: EAGAIN)
    }

    /// The whole file `fd` mapped read-only and private (an empty file maps to an empty buffer);
    /// nil when it cannot be, with `errno` saying why.
    static func mapReadOnly(_ fd: Int32) -> UnsafeRawBufferPointer? {
        var info = stat()
        guard Glibc.fstat(fd, &info) == 0 else { return nil }
        guard info.st_size > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        guard let base = Glibc.mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        return UnsafeRawBufferPointer(start: base, count: Int(info.st_size))
    }

    /// Ends a mapping `mapReadOnly` made.
    static func unmap(_ mapped: UnsafeRawBufferPointer) {
        guard let base = mapped.baseAddress else { return }
        _ = Glibc.munmap(UnsafeMutableRawPointer(mutating: base), mapped.count)
    }

    /// Throws a refusal (and closes `fd`) unless it is this user's regular file with one link.
    static func checkOwn(_ fd: Int32, _ path: String) throws(SystemError) {
        if let why = notOwn(fd) {
            Glibc.close(fd)
            throw SystemError.refused(path, why, code: EPERM)
        }
    }

    /// Why the open file is not this user's own regular file with one link; nil when it is.
    static func notOwn(_ fd: Int32) -> String? {
        var info = stat()
        guard Glibc.fstat(fd, &info) == 0 else { return "cannot be examined (fstat: \(message(Glibc.errno)))" }
        if info.st_mode & S_IFMT != S_IFREG { return "is not a regular file" }
        if info.st_uid != Glibc.geteuid() { return "belongs to another user (uid \(info.st_uid))" }
        if info.st_nlink != 1 { return "has \(info.st_nlink) hard links (another name for it lives elsewhere)" }
        return nil
    }

    /// Why the name `path` is not an own file (a link, another user's, ...); nil when it is one
    /// or nothing is there.
    static func ownProblem(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFLNK { return "is a symbolic link; openurld does not write or read through it" }
        if info.st_mode & S_IFMT != S_IFREG { return "is not a regular file" }
        if info.st_uid != Glibc.geteuid() { return "belongs to another user (uid \(info.st_uid))" }
        if info.st_nlink != 1 { return "has \(info.st_nlink) hard links (another name for it lives elsewhere)" }
        return nil
    }

    /// The device and inode of the open file; nil when fstat fails.
    static func identity(_ fd: Int32) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard Glibc.fstat(fd, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// The size of the file the name `path` holds when it is an own file (ownProblem's checks)
    /// with this device and inode; nil otherwise (gone, replaced, a link, not ours). One lstat.
    static func ownSize(_ path: String, device: UInt64, inode: UInt64) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == Glibc.geteuid(), info.st_nlink == 1,
              UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode else { return nil }
        return Int(info.st_size)
    }

    /// Writes `bytes` at the start of the open file and cuts it there: one short value replaced in place.
    static func overwrite(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SystemError) {
        try overwriteInPlace(fd, bytes, path: path)
        try ftruncate(fd, size: bytes.count, path: path)
    }

    /// Writes `bytes` at the start of the open file, leaving what lies beyond them.
    static func overwriteInPlace(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SystemError) {
        let count = bytes.withUnsafeBytes { Glibc.pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard count == bytes.count else { throw failure("write", path, code: count < 0 ? Glibc.errno : ENOSPC) }
    }

    /// Moves the open file's offset back to its start; false when it cannot.
    static func seekToStart(_ fd: Int32) -> Bool { lseek(fd, 0, SEEK_SET) == 0 }
}

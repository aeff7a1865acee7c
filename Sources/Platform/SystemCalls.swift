import Glibc

// Thin wrappers over the raw calls, each turning a failure into a SystemError that names the call
// and the path; the public API of files, clocks, the environment and threads is built on these.
// Platform is the package's only module that imports Glibc (PlatformBoundaryTests): this file,
// SystemCalls+Daemon.swift, and the files by concern that wrap one family of calls whole
// (Lock, Descriptors, Processes, UnixSocket, CStrings, Memory).
enum Sys {
    static func failure(_ operation: String, _ path: String?, code: Int32 = Glibc.errno) -> SystemError {
        SystemError(operation: operation, path: path, code: code)
    }

    static func message(_ code: Int32) -> String { String(cString: strerror(code)) }

    static let notFound = ENOENT
    static let notADirectory = ENOTDIR
    static let exists = EEXIST
    static let loop = ELOOP
    static let permissionDenied = EACCES
    static let notPermitted = EPERM
    static let isADirectory = EISDIR

    // MARK: descriptors

    static func openForReading(_ path: String) throws(SystemError) -> Int32 {
        while true {
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            if fd >= 0 { return fd }
            if Glibc.errno != EINTR { throw failure("open", path) }
        }
    }

    /// Creates (or truncates) `path` with `mode` for writing; `exclusive` fails when it exists,
    /// a symbolic link (dangling or not) included: it is never followed.
    static func openForWriting(_ path: String, mode: UInt32, exclusive: Bool) throws(SystemError) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL | O_NOFOLLOW : O_TRUNC)
        while true {
            let fd = Glibc.open(path, flags, mode_t(mode))
            if fd >= 0 { return fd }
            if Glibc.errno != EINTR { throw failure("open", path) }
        }
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    /// Reads `fd` to its end, stopping once more than `limit` bytes are in (a result longer than
    /// `limit` means the file is over it). A regular file is read straight into one buffer of its
    /// fstat size plus one byte, which sees a file that grew meanwhile: 64 KiB chunks appended to
    /// a doubling array wrote each fresh page twice, and at the daemon's start those page faults
    /// (~2 µs each here) cost more than the bytes. Other files (pipes, /proc) start at 16 KiB and double.
    static func readToEnd(_ fd: Int32, limit: Int, path: String) throws(SystemError) -> [UInt8] {
        let (bytes, code) = readToEnd(fd, limit: limit)
        if code != 0 { throw SystemError(operation: "read", path: path, code: code) }
        return bytes
    }

    /// What `readToEnd(_:limit:path:)` reads, and the errno that stopped it early (0 when none).
    static func readToEnd(_ fd: Int32, limit: Int) -> (bytes: [UInt8], errorCode: Int32) {
        var info = stat()
        let size = Glibc.fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_size > 0 ? Int(info.st_size) : 16 * 1024
        var wanted = min(size, limit) + 1
        var bytes: [UInt8] = []
        while true {
            var readError: Int32 = 0
            var full = false
            let kept = bytes
            bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
                count = kept.withUnsafeBufferPointer { buffer.initialize(fromContentsOf: $0) }
                while count < buffer.count {
                    let got = Glibc.read(fd, buffer.baseAddress.map { $0 + count }, buffer.count - count)
                    if got > 0 { count += got; continue }
                    if got < 0, Glibc.errno == EINTR { continue }
                    if got < 0 { readError = Glibc.errno }
                    return
                }
                full = true
            }
            if readError != 0 || !full || bytes.count > limit { return (bytes, readError) }
            wanted = bytes.count > limit / 2 ? limit + 1 : bytes.count * 2
        }
    }

    /// Writes all of `bytes`, resuming after short writes and interruptions.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.write(fd, base + offset, raw.count - offset)
            }
            if count < 0 {
                if Glibc.errno == EINTR { continue }
                throw failure("write", path)
            }
            offset += count
        }
    }

    static func fsync(_ fd: Int32, path: String) throws(SystemError) {
        guard Glibc.fsync(fd) == 0 else { throw failure("fsync", path) }
    }

    static func fchmod(_ fd: Int32, mode: UInt32, path: String) throws(SystemError) {
        guard Glibc.fchmod(fd, mode_t(mode)) == 0 else { throw failure("chmod", path) }
    }

    // MARK: metadata

    static func status(_ path: String, followingSymlinks: Bool) throws(SystemError) -> FileStatus {
        var info = stat()
        let result: Int32 = followingSymlinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { throw failure(followingSymlinks ? "stat" : "lstat", path) }
        return fileStatus(info)
    }

    static func status(descriptor fd: Int32, path: String) throws(SystemError) -> FileStatus {
        var info = stat()
        guard Glibc.fstat(fd, &info) == 0 else { throw failure("fstat", path) }
        return fileStatus(info)
    }

    private static func fileStatus(_ info: stat) -> FileStatus {
        let kind: FileStatus.Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        return FileStatus(
            kind: kind, permissions: UInt32(info.st_mode & 0o7777), size: Int(info.st_size), inode: UInt64(info.st_ino), owner: UInt32(info.st_uid),
            modified: Timestamp(seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec)),
            changed: Timestamp(seconds: Int64(info.st_ctim.tv_sec), nanoseconds: Int64(info.st_ctim.tv_nsec)))
    }

    static func isExecutable(_ path: String) -> Bool { Glibc.access(path, X_OK) == 0 }

    static func chmod(_ path: String, mode: UInt32) throws(SystemError) {
        guard Glibc.chmod(path, mode_t(mode)) == 0 else { throw failure("chmod", path) }
    }

    // MARK: names

    static func rename(_ source: String, _ destination: String) throws(SystemError) {
        guard Glibc.rename(source, destination) == 0 else { throw failure("rename to \(destination)", source) }
    }

    static func unlink(_ path: String) throws(SystemError) {
        guard Glibc.unlink(path) == 0 else { throw failure("unlink", path) }
    }

    static func rmdir(_ path: String) throws(SystemError) {
        guard Glibc.rmdir(path) == 0 else { throw failure("rmdir", path) }
    }

    static func mkdir(_ path: String, mode: UInt32) throws(SystemError) {
        guard Glibc.mkdir(path, mode_t(mode)) == 0 else { throw failure("mkdir", path) }
    }

    static func symlink(_ target: String, at path: String) throws(SystemError) {
        guard Glibc.symlink(target, path) == 0 else { throw failure("symlink", path) }
    }

    static func readlink(_ path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            guard let base = pointer.baseAddress else { return -1 }
            return Glibc.readlink(path, base, pointer.count - 1)
        }
        guard count >= 0 else { throw failure("readlink", path) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func realpath(_ path: String) throws(SystemError) -> String {
        guard let resolved = Glibc.realpath(path, nil) else { throw failure("realpath", path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The names in a directory, without "." and "..", in the order the file system gives them.
    static func directoryEntries(_ path: String) throws(SystemError) -> [String] {
        guard let directory = opendir(path) else { throw failure("opendir", path) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    // MARK: process

    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard entry != nil else { return result }
        while let current = entry, let pointer = current.pointee {
            let pair = String(cString: pointer)
            if let equals = pair.firstIndex(of: "=") {
                let name = String(pair[..<equals])
                // The first definition wins, as getenv sees it.
                if result[name] == nil { result[name] = String(pair[pair.index(after: equals)...]) }
            }
            entry = current + 1
        }
        return result
    }

    static func getenv(_ name: String) -> String? { Glibc.getenv(name).map { String(cString: $0) } }

    static func processID() -> Int32 { Glibc.getpid() }

    static func effectiveUserID() -> UInt32 { Glibc.geteuid() }

    static func realUserID() -> UInt32 { Glibc.getuid() }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(cString: buffer)
    }

    /// `setenv`; an existing value is kept unless `overwriting`.
    static func setenv(_ name: String, _ value: String, overwriting: Bool) { _ = Glibc.setenv(name, value, overwriting ? 1 : 0) }

    static func passwordHome() -> String? {
        guard let entry = getpwuid(getuid()) else { return nil }
        return String(cString: entry.pointee.pw_dir)
    }

    // MARK: time

    static func clock(monotonic: Bool) -> Timestamp {
        var now = timespec()
        clock_gettime(monotonic ? CLOCK_MONOTONIC : CLOCK_REALTIME, &now)
        return Timestamp(seconds: Int64(now.tv_sec), nanoseconds: Int64(now.tv_nsec))
    }

    static func sleep(nanoseconds: Int64) {
        guard nanoseconds > 0 else { return }
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, Glibc.errno == EINTR { request = remaining }
    }

    static func calendar(seconds: Int64, local: Bool) -> CalendarTime {
        var time = time_t(seconds)
        var parts = tm()
        if local { localtime_r(&time, &parts) } else { gmtime_r(&time, &parts) }
        return CalendarTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
            utcOffsetSeconds: local ? Int(parts.tm_gmtoff) : 0)
    }

    // MARK: threads

    private final class ThreadBody {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    private typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32

    /// pthread_setname_np is a GNU extension the Glibc module does not import: found at run time.
    private static func setThreadName(_ name: String) {
        guard let symbol = dlsym(nil, "pthread_setname_np") else { return }
        _ = unsafeBitCast(symbol, to: SetName.self)(pthread_self(), name)
    }

    /// Starts a detached POSIX thread running `body`; false when the system refuses one.
    static func startThread(name: String?, _ body: @escaping () -> Void) -> Bool {
        let named = { () -> Void in
            if let name { setThreadName(String(decoding: name.utf8.prefix(15), as: UTF8.self)) }
            body()
        }
        let context = Unmanaged.passRetained(ThreadBody(named)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let body = Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}

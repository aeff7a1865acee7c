import Foundation

/// A small tmpfs mounted over a test's directory (`mount -t tmpfs -o size=…`, as root), so a
/// test can fill it to the last byte and free it again. Unmounted (lazily: a daemon may still
/// hold files in it) by `unmount()` or on deinit.
public final class SmallFilesystem {
    /// Where it is mounted.
    public let path: String
    /// The file that fills it.
    public var filler: String { path + "/filler" }
    private var mounted = true

    /// Mounts a tmpfs of `bytes` at `path` (which must exist); fails saying why when it cannot
    /// (not root, or no `mount`).
    public init(at path: String, bytes: Int) throws {
        self.path = path
        let result = try Command.run(["mount", "-t", "tmpfs", "-o", "size=\(bytes),mode=0700", "tmpfs", path],
                                     environment: ProcessInfo.processInfo.environment, timeout: 10)
        guard result.status == 0 else {
            mounted = false
            throw HarnessError("cannot mount a tmpfs at \(path) (the full-disk tests need root and mount(8)): \(result)")
        }
    }

    deinit { unmount() }

    /// Writes `filler` until the filesystem takes no more byte (ENOSPC), in big writes and then
    /// byte by byte; returns how many bytes it holds.
    @discardableResult
    public func fill() throws -> Int {
        let fd = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw HarnessError("cannot create \(filler): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var total = 0
        for size in [1 << 16, 4096, 1] {
            let chunk = [UInt8](repeating: 0x78, count: size)
            while true {
                let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, size) }
                if written <= 0 { break }
                total += written
            }
            guard errno == ENOSPC else { throw HarnessError("filling \(filler): \(String(cString: strerror(errno)))") }
        }
        return total
    }

    /// Bytes still free, as statvfs sees it.
    public var freeBytes: Int {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return -1 }
        return Int(info.f_bavail) * Int(info.f_bsize)
    }

    /// Removes the filler: the space is back.
    public func free() throws {
        guard unlink(filler) == 0 else { throw HarnessError("cannot remove \(filler): \(String(cString: strerror(errno)))") }
    }

    /// Unmounts it (lazily, `umount -l`).
    public func unmount() {
        guard mounted else { return }
        mounted = false
        _ = try? Command.run(["umount", "-l", path], environment: ProcessInfo.processInfo.environment, timeout: 10)
    }
}

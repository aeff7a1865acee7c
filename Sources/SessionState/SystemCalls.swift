import Glibc

/// A connected `AF_UNIX` stream socket whose reads and writes give up at one deadline.
final class LocalSocket {
    private var fd: Int32
    private let deadline: Double

    /// Connects to `path`; every later read and write must finish within `timeout` seconds of now.
    init(path: String, timeout: Double) throws {
        deadline = Self.now() + timeout
        fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw X11Error("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { Glibc.close(fd); throw X11Error("socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result != 0 {
            guard errno == EINPROGRESS || errno == EAGAIN else {
                let why = String(cString: strerror(errno))
                Glibc.close(fd)
                throw X11Error("cannot connect to \(path): \(why)")
            }
            try wait(for: Int16(POLLOUT))
        }
    }

    deinit { close() }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.send(fd, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 { offset += written; continue }
            guard written < 0, errno == EAGAIN || errno == EINTR else { throw X11Error("write: \(String(cString: strerror(errno)))") }
            try wait(for: Int16(POLLOUT))
        }
    }

    /// Exactly `count` bytes.
    func read(_ count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.recv(fd, base + offset, count - offset, 0)
            }
            if got > 0 { offset += got; continue }
            if got == 0 { throw X11Error("the X server closed the connection") }
            guard errno == EAGAIN || errno == EINTR else { throw X11Error("read: \(String(cString: strerror(errno)))") }
            try wait(for: Int16(POLLIN))
        }
        return buffer
    }

    private func wait(for events: Int16) throws {
        while true {
            let left = deadline - Self.now()
            guard left > 0 else { throw X11Error("no answer within the time allowed (a hung X server?)") }
            var item = pollfd(fd: fd, events: events, revents: 0)
            let ready = Glibc.poll(&item, 1, Int32(max(1, (left * 1000).rounded(.up))))
            if ready > 0 {
                if item.revents & Int16(POLLERR | POLLNVAL) != 0 { throw X11Error("the connection failed") }
                return
            }
            if ready < 0, errno != EINTR { throw X11Error("poll: \(String(cString: strerror(errno)))") }
        }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The whole file, or nil.
    static func readFile(_ path: String) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got <= 0 { return got == 0 ? out : nil }
            out += chunk[0..<got]
            if out.count > 1 << 20 { return nil }
        }
    }

    /// This machine's host name (as Xauthority's local entries name it).
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(cString: buffer)
    }
}

/// The real user id of this process.
func currentUserID() -> UInt32 { getuid() }

/// The owner of a path (without following a final symlink), or nil.
func ownerOf(_ path: String) -> UInt32? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return status.st_uid
}

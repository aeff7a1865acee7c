import Glibc

/// A connected `AF_UNIX` stream socket whose reads and writes give up at one deadline.
public final class UnixSocket {
    /// Why a connection, a read or a write failed.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// A system call failed (`socket`, `connect` with the path, `write`, `read`, `poll`).
        case system(SystemError)
        /// The path does not fit in `sockaddr_un`.
        case pathTooLong
        /// The deadline passed first.
        case timedOut
        /// The other end closed the connection before the bytes asked for came.
        case closedByPeer
        /// poll(2) reported an error or a closed descriptor.
        case connectionFailed

        /// A one-line explanation.
        public var description: String {
            switch self {
            case .system(let error): return error.description
            case .pathTooLong: return "socket path too long"
            case .timedOut: return "no answer within the time allowed"
            case .closedByPeer: return "the other end closed the connection"
            case .connectionFailed: return "the connection failed"
            }
        }
    }

    private var fd: Int32
    private let deadline: Double

    /// Connects to `path`; every later read and write must finish within `timeout` seconds of now.
    public init(connectingTo path: String, timeout: Double) throws(Failure) {
        deadline = MonotonicClock.seconds() + timeout
        fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .system(SystemError(operation: "socket", path: nil, code: Glibc.errno)) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { Glibc.close(fd); throw .pathTooLong }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let socket = fd
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result != 0 {
            guard Glibc.errno == EINPROGRESS || Glibc.errno == EAGAIN else {
                let code = Glibc.errno
                Glibc.close(fd)
                throw .system(SystemError(operation: "connect", path: path, code: code))
            }
            try wait(for: Int16(POLLOUT))
        }
    }

    deinit { close() }

    /// Closes the socket (again: nothing).
    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Sends all of `bytes` (no SIGPIPE for a closed peer).
    public func write(_ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let socket = fd
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.send(socket, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 { offset += written; continue }
            guard written < 0, Glibc.errno == EAGAIN || Glibc.errno == EINTR else {
                throw .system(SystemError(operation: "write", path: nil, code: Glibc.errno))
            }
            try wait(for: Int16(POLLOUT))
        }
    }

    /// Exactly `count` bytes.
    public func read(_ count: Int) throws(Failure) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let socket = fd
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.recv(socket, base + offset, count - offset, 0)
            }
            if got > 0 { offset += got; continue }
            if got == 0 { throw .closedByPeer }
            guard Glibc.errno == EAGAIN || Glibc.errno == EINTR else {
                throw .system(SystemError(operation: "read", path: nil, code: Glibc.errno))
            }
            try wait(for: Int16(POLLIN))
        }
        return buffer
    }

    private func wait(for events: Int16) throws(Failure) {
        while true {
            let left = deadline - MonotonicClock.seconds()
            guard left > 0 else { throw .timedOut }
            var item = pollfd(fd: fd, events: events, revents: 0)
            let ready = Glibc.poll(&item, 1, Int32(max(1, (left * 1000).rounded(.up))))
            if ready > 0 {
                if item.revents & Int16(POLLERR | POLLNVAL) != 0 { throw .connectionFailed }
                return
            }
            if ready < 0, Glibc.errno != EINTR { throw .system(SystemError(operation: "poll", path: nil, code: Glibc.errno)) }
        }
    }
}

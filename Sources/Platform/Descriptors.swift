import Glibc

/// Raw file descriptors: pipes, non-blocking reads and writes, closing; for code that drives
/// children, event loops and sockets (files by path are `FileSystem`'s).
public enum Descriptor {
    /// How one read ended.
    public enum ReadResult: Equatable, Sendable {
        /// This many bytes are at the start of the buffer.
        case bytes(Int)
        /// The writer closed its end.
        case endOfFile
        /// Nothing to read now (a non-blocking descriptor).
        case wouldBlock
        /// The read failed.
        case failed
    }

    /// A pipe whose ends are close-on-exec (a child gets an end through dup2 only), both
    /// non-blocking when `nonBlocking`.
    public static func pipe(nonBlocking: Bool = false) throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw SystemError(operation: "pipe", path: nil, code: Glibc.errno) }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if nonBlocking { setNonBlocking(fd) }
        }
        return (ends[0], ends[1])
    }

    /// Closes `fd` (nothing for a negative one).
    public static func close(_ fd: Int32) { if fd >= 0 { _ = Glibc.close(fd) } }

    /// Makes reads and writes on `fd` return at once instead of blocking.
    public static func setNonBlocking(_ fd: Int32) { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }

    /// One read into `buffer`, retried when a signal interrupts it.
    public static func read(_ fd: Int32, into buffer: inout [UInt8]) -> ReadResult {
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfFile }
            if Glibc.errno == EINTR { continue }
            return Glibc.errno == EAGAIN ? .wouldBlock : .failed
        }
    }

    /// One write of what fits: the count written, 0 when it would block or a signal interrupted
    /// it, nil when the reader is gone (EPIPE) or the write failed.
    public static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int? {
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written >= 0 { return written }
        return Glibc.errno == EAGAIN || Glibc.errno == EINTR ? 0 : nil
    }

    /// Writes one byte and ignores failure (a self-pipe's wake-up: a full pipe is already awake).
    public static func writeByte(_ fd: Int32, _ value: UInt8) {
        var byte = value
        _ = Glibc.write(fd, &byte, 1)
    }

    /// Reads and drops every byte waiting on the non-blocking `fd`.
    public static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while Glibc.read(fd, &buffer, buffer.count) > 0 {}
    }
}

/// `poll(2)`: waiting until descriptors are ready.
public enum Poll {
    /// `poll(2)`'s event bits, as `pollfd`'s `events` and `revents` hold them.
    public struct Events: OptionSet, Hashable, Sendable {
        /// The bits.
        public let rawValue: Int16
        /// The events with these bits.
        public init(rawValue: Int16) { self.rawValue = rawValue }

        /// `POLLIN`: input (or the end of the file) is waiting.
        public static let readable = Events(rawValue: Int16(POLLIN))
        /// `POLLOUT`: output would not block.
        public static let writable = Events(rawValue: Int16(POLLOUT))
        /// `POLLERR`: the descriptor has an error (a broken connection).
        public static let error = Events(rawValue: Int16(POLLERR))
        /// `POLLHUP`: the other end hung up.
        public static let hangup = Events(rawValue: Int16(POLLHUP))
        /// `POLLNVAL`: the descriptor is not open.
        public static let invalid = Events(rawValue: Int16(POLLNVAL))
    }

    /// How one wait ended.
    public enum Outcome: Equatable, Sendable {
        /// At least one is ready: each request's returned events, in order.
        case ready([Events])
        /// None became ready in time, or a signal cut the wait short (EINTR).
        case timedOut
        /// poll(2) failed for another reason.
        case failed(SystemError)
    }

    /// One `poll(2)` over `requests` for up to `milliseconds` (-1: no limit).
    public static func wait(_ requests: [(fd: Int32, events: Events)], milliseconds: Int32) -> Outcome {
        var fds = requests.map { pollfd(fd: $0.fd, events: $0.events.rawValue, revents: 0) }
        let ready = Glibc.poll(&fds, nfds_t(fds.count), milliseconds)
        if ready > 0 { return .ready(fds.map { Events(rawValue: $0.revents) }) }
        if ready == 0 || Glibc.errno == EINTR { return .timedOut }
        return .failed(SystemError(operation: "poll", path: nil, code: Glibc.errno))
    }
}

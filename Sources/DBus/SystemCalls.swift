import Glibc

// The one file of DBus that imports Glibc: the event loop's poll(2) and wake pipe. Clocks, the
// environment, files and locks come from Platform.
enum Sys {
    /// One `poll(2)` over `requests`; each descriptor's `revents` in order, or nil when none is ready
    /// (a timeout, or an error such as EINTR: the loop's next iteration polls again).
    static func poll(_ requests: [(fd: Int32, events: Int16)], timeoutMilliseconds: Int32) -> [Int16]? {
        var fds = requests.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        guard Glibc.poll(&fds, nfds_t(fds.count), timeoutMilliseconds) > 0 else { return nil }
        return fds.map(\.revents)
    }
}

/// `poll(2)`'s event bits, so EventLoop's translation to and from libdbus's watch flags needs no Glibc.
@usableFromInline
enum PollEvent {
    /// `POLLIN`; usable from inline for `watch(fd:)`'s default, which callers' code evaluates.
    @usableFromInline static let readable = Int16(POLLIN)
    /// `POLLOUT`, asked for when libdbus has bytes queued for its socket.
    static let writable = Int16(POLLOUT)
    /// `POLLERR`, passed on to libdbus so it notices a broken connection.
    static let error = Int16(POLLERR)
    /// `POLLHUP`, passed on to libdbus so it notices the bus went away.
    static let hangup = Int16(POLLHUP)
}

/// A non-blocking, close-on-exec self-pipe: a byte written to it interrupts `EventLoop`'s `poll`.
struct WakePipe {
    /// The end `poll` watches.
    let readFD: Int32
    /// The end `signal()` writes to.
    let writeFD: Int32

    /// Throws if the kernel refuses a pipe.
    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw DBusError.failed("pipe: \(String(cString: strerror(errno)))") }
        for fd in ends {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        readFD = ends[0]
        writeFD = ends[1]
    }

    /// Writes one byte, ignoring failure: a full pipe already means "wake up".
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Reads every pending byte, so the next `poll` blocks again.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readFD, &buffer, buffer.count) > 0 {}
    }

    /// Closes both ends (a struct has no deinit; `EventLoop`'s deinit calls this).
    func close() {
        _ = Glibc.close(readFD)
        _ = Glibc.close(writeFD)
    }
}

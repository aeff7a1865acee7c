import Glibc

// The one file of DBus that imports Glibc (as Platform's SystemCalls.swift is for Platform): DBus
// stays free of Foundation and of Platform, so the few system calls it makes are wrapped here.
enum Sys {
    /// Nanoseconds on `CLOCK_MONOTONIC`: the clock every process of the machine shares and the wall clock cannot move.
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// `getenv` as a Swift string, so callers need not handle C pointers.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// True when `path` exists (`access(F_OK)`): the session bus's socket is looked for, not opened.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

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

/// A pthread mutex; the library avoids Foundation to keep the client's startup light.
final class Lock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()

    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    /// Runs `body` holding the lock.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}

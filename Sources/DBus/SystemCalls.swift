import Platform

// The event loop's poll(2) and wake pipe, over Platform's descriptors (Glibc stays in Platform).
enum Sys {
    /// One `poll(2)` over `requests`; each descriptor's `revents` in order, or nil when none is ready
    /// (a timeout, or an error such as EINTR: the loop's next iteration polls again).
    static func poll(_ requests: [(fd: Int32, events: Int16)], timeoutMilliseconds: Int32) -> [Int16]? {
        let outcome = Poll.wait(requests.map { ($0.fd, Poll.Events(rawValue: $0.events)) }, milliseconds: timeoutMilliseconds)
        guard case .ready(let events) = outcome else { return nil }
        return events.map(\.rawValue)
    }
}

/// `poll(2)`'s event bits, so EventLoop's translation to and from libdbus's watch flags needs no Glibc.
@usableFromInline
enum PollEvent {
    /// `POLLIN`; usable from inline for `watch(fd:)`'s default, which callers' code evaluates.
    @usableFromInline static let readable = Poll.Events.readable.rawValue
    /// `POLLOUT`, asked for when libdbus has bytes queued for its socket.
    static let writable = Poll.Events.writable.rawValue
    /// `POLLERR`, passed on to libdbus so it notices a broken connection.
    static let error = Poll.Events.error.rawValue
    /// `POLLHUP`, passed on to libdbus so it notices the bus went away.
    static let hangup = Poll.Events.hangup.rawValue
}

/// A non-blocking, close-on-exec self-pipe: a byte written to it interrupts `EventLoop`'s `poll`.
struct WakePipe {
    /// The end `poll` watches.
    let readFD: Int32
    /// The end `signal()` writes to.
    let writeFD: Int32

    /// Throws if the kernel refuses a pipe.
    init() throws {
        do {
            (readFD, writeFD) = try Descriptor.pipe(nonBlocking: true)
        } catch {
            throw DBusError.failed(error.description)
        }
    }

    /// Writes one byte, ignoring failure: a full pipe already means "wake up".
    func signal() { Descriptor.writeByte(writeFD, 1) }

    /// Reads every pending byte, so the next `poll` blocks again.
    func drain() { Descriptor.drain(readFD) }

    /// Closes both ends (a struct has no deinit; `EventLoop`'s deinit calls this).
    func close() {
        Descriptor.close(readFD)
        Descriptor.close(writeFD)
    }
}

import Glibc

// The one file of the chooser that imports Glibc: the few system calls its start-up path makes
// (no Foundation there), wrapped so the window and server code deal in Swift values only.
enum Sys {
    /// `exit(3)`, so buffered stdout (answers already printed) is flushed on the way out.
    static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Writes `text` to stderr, where the daemon logs what the chooser says went wrong.
    static func printError(_ text: String) {
        fputs(text, stderr)
    }

    /// Flushes stdout: the daemon reads answers as the user gives them, not when the buffer fills.
    static func flushStandardOutput() {
        fflush(stdout)
    }

    /// `setenv` without overwriting, so a value the user set wins over the chooser's default.
    static func setEnvironmentDefault(_ name: String, _ value: String) {
        setenv(name, value, 0)
    }

    /// The whole file at `path` with plain syscalls, or nil if it cannot be opened (a read error ends it early).
    static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    /// One `read(2)` from stdin into `buffer`: the byte count (0 at end of file, negative on a
    /// real error), or nil when interrupted or when nothing is there yet, so GLib calls again.
    static func readStandardInput(into buffer: inout [UInt8]) -> Int? {
        let count = read(0, &buffer, buffer.count)
        if count < 0, errno == EINTR || errno == EAGAIN { return nil }
        return count
    }

    /// Runs `body` with `strings` as a NULL-terminated array of C strings, as GTK's string-list constructors take.
    static func withCStringArray<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { strdup($0) } + [nil]
        defer { copies.forEach { free($0) } }
        return body(copies.map { UnsafePointer($0) })
    }
}

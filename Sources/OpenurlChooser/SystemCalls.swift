import Glibc

// The one file of the chooser that imports Glibc: what GTK's C side needs beside Platform
// (stdio's flush of printed answers, setenv before GTK starts, C string arrays).
enum Sys {
    /// Flushes stdout: the daemon reads answers as the user gives them, not when the buffer fills.
    static func flushStandardOutput() {
        fflush(stdout)
    }

    /// `setenv` without overwriting, so a value the user set wins over the chooser's default.
    static func setEnvironmentDefault(_ name: String, _ value: String) {
        setenv(name, value, 0)
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

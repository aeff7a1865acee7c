import Platform

// What GTK's C side needs beside the rest of Platform (stdio's flush of printed answers, setenv
// before GTK starts, C string arrays), named as the chooser uses it.
enum Sys {
    /// Flushes stdout: the daemon reads answers as the user gives them, not when the buffer fills.
    static func flushStandardOutput() { StandardStream.flushPrinted() }

    /// `setenv` without overwriting, so a value the user set wins over the chooser's default.
    static func setEnvironmentDefault(_ name: String, _ value: String) {
        Environment.set(name, value, overwriting: false)
    }

    /// One `read(2)` from stdin into `buffer`: the byte count (0 at end of file, negative on a
    /// real error), or nil when nothing is there yet, so GLib calls again (an interrupted read
    /// is retried).
    static func readStandardInput(into buffer: inout [UInt8]) -> Int? {
        switch Descriptor.read(StandardStream.input.rawValue, into: &buffer) {
        case .bytes(let count): return count
        case .endOfFile: return 0
        case .wouldBlock: return nil
        case .failed: return -1
        }
    }

    /// Runs `body` with `strings` as a NULL-terminated array of C strings, as GTK's string-list constructors take.
    static func withCStringArray<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        Platform.withCStringArray(strings, body)
    }
}

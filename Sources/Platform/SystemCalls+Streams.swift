import Glibc

// The raw calls behind StandardStream and the process identity openurld and openurl-tool add to
// Platform, kept beside SystemCalls.swift so both can be folded into one file of Glibc calls.
extension Sys {
    /// Writes all of `bytes` to `fd`, resuming after short writes and interruptions; stops
    /// quietly at an error (a closed pipe), as there is nowhere left to report it.
    static func writeAllIgnoringErrors(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let count = Glibc.write(fd, base, left)
            if count < 0 {
                if Glibc.errno == EINTR { continue }
                return
            }
            base += count
            left -= count
        }
    }

    /// Everything readable from `fd` until the end of the file (or an error).
    static func readToEnd(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, Glibc.errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += chunk[0..<count]
        }
    }

    static func isTerminal(_ fd: Int32) -> Bool { Glibc.isatty(fd) == 1 }

    static func parentProcessID() -> Int32 { Glibc.getppid() }
}

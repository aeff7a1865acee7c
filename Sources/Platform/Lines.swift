import Glibc

/// Splitting a file's bytes into lines with `memchr`: a record file may hold a line of tens of
/// megabytes that is not ours, and a byte-by-byte scan of it (unoptimised, in a debug build)
/// took seconds.
public enum Lines {
    /// Calls `body` with the range of each line of `data` (without its newline), in order; a
    /// last line without a newline counts too. Empty lines are left out.
    public static func forEach(in data: [UInt8], _ body: (Range<Int>) -> Void) {
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                let end: Int
                if let found = memchr(base + start, 0x0A, buffer.count - start) {
                    end = base.distance(to: UnsafeRawPointer(found))
                } else {
                    end = buffer.count
                }
                if end > start { body(start..<end) }
                start = end + 1
            }
        }
    }
}

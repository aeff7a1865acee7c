/// Byte-level helpers for host names (ASCII after `ParsedURL`), kept off Foundation's
/// string extensions.
enum HostText {
    /// True when a label of `host` starts with `xn--`: the only way an ASCII host holds IDN.
    static func hasPunycodeLabel(_ host: String) -> Bool {
        host.utf8.withContiguousStorageIfAvailable(hasPunycodeLabel) ?? hasPunycodeLabel(Array(host.utf8))
    }

    /// The same for a host's bytes (`xn` in either case).
    static func hasPunycodeLabel<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Bool where Bytes.Index == Int {
        var start = bytes.startIndex
        while start + 4 <= bytes.endIndex {
            if bytes[start] | 0x20 == UInt8(ascii: "x"), bytes[start + 1] | 0x20 == UInt8(ascii: "n"),
               bytes[start + 2] == UInt8(ascii: "-"), bytes[start + 3] == UInt8(ascii: "-") { return true }
            guard let dot = bytes[start...].firstIndex(of: UInt8(ascii: ".")) else { return false }
            start = dot + 1
        }
        return false
    }

    /// `host`'s labels, without the empty one a trailing dot leaves.
    static func labels(_ host: String) -> [Substring] {
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
        return labels
    }

    /// True for `a.b.c.d` with four decimal numbers: an IPv4 address has no parent domains.
    static func isIPv4(_ bytes: some Collection<UInt8>) -> Bool {
        var dots = 0
        var digits = 0
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                dots += 1
                digits = 0
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
                if digits > 3 { return false }
            } else {
                return false
            }
        }
        return dots == 3 && digits > 0
    }
}

/// Small string helpers Foundation used to give, ASCII-only and locale-free.
public enum Text {
    /// `value` in decimal, left-padded with zeros to `width` ("007"); a minus sign counts in the width.
    public static func zeroPadded(_ value: Int, width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        let padding = max(0, width - digits.count - sign.count)
        return sign + String(repeating: "0", count: padding) + digits
    }

    /// `text` as a message quotes it: whole up to 1 KiB, else its first 256 bytes and its length.
    public static func shortened(_ text: String) -> String {
        guard text.utf8.count > 1024 else { return text }
        return String(decoding: text.utf8.prefix(256), as: UTF8.self) + "… (\(text.utf8.count) bytes)"
    }

    /// Whether `byte` is ASCII whitespace: space, tab, newline, vertical tab, form feed, return.
    public static func isASCIIWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}

extension StringProtocol {
    /// The string without leading and trailing ASCII whitespace (space, \t, \n, \v, \f, \r).
    public func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !Text.isASCIIWhitespace($0) }),
              let last = bytes.lastIndex(where: { !Text.isASCIIWhitespace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// The string without leading and trailing spaces and tabs (Foundation's `.whitespaces`, ASCII part).
    public func trimmingSpacesAndTabs() -> String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
              let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// The parts between each `separator`, empty ones kept, as `components(separatedBy:)` gave them.
    public func fields(separatedBy separator: Character) -> [String] {
        split(separator: separator, maxSplits: Int.max, omittingEmptySubsequences: false).map { String($0) }
    }
}

/// Percent-encoding and decoding (RFC 3986), shared by the URL model, mailto, templates and
/// URL hygiene.
public enum PercentEncoding {
    /// Which bytes pass through `encode` unescaped.
    public enum Allowed: Sendable {
        /// RFC 3986 unreserved: `A-Z a-z 0-9 - . _ ~`. For a query value or path segment.
        case unreserved
        /// Unreserved plus `/`. For a path.
        case path
    }

    /// Percent-encodes every byte of `text`'s UTF-8 that `allowed` does not let through.
    public static func encode(_ text: String, allowing allowed: Allowed = .unreserved) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (allowed == .path && byte == UInt8(ascii: "/")) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (and `+` as space when `plusAsSpace`). A `%` not followed by two
    /// hex digits is kept as it is. Returns nil when the decoded bytes are not valid UTF-8.
    public static func decode(_ text: String, plusAsSpace: Bool = false) -> String? {
        let bytes = decodeBytes(Substring(text), plusAsSpace: plusAsSpace)
        return String(validating: bytes, as: UTF8.self)
    }

    /// Decodes `%XX` escapes into raw bytes, keeping malformed escapes as they are.
    public static func decodeBytes(_ text: Substring, plusAsSpace: Bool = false) -> [UInt8] {
        // Through `withUTF8`: `Array(text.utf8)` copies a substring byte by byte.
        var text = text
        return text.withUTF8 { decodeBytes($0, plusAsSpace: plusAsSpace) }
    }

    /// `decodeBytes(_:plusAsSpace:)` for raw bytes.
    static func decodeBytes(_ input: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            let byte = input[i]
            if byte == UInt8(ascii: "%"), i + 2 < input.count,
               let high = hexValue(input[i + 1]), let low = hexValue(input[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                i += 1
            }
        }
        return out
    }

    /// The URL Standard's percent-encode sets, for text that must read as a special URL's
    /// path, query or fragment is serialised.
    public enum StandardSet: Sendable {
        /// The path set: controls, non-ASCII, space, `" # < > ? ^ ` { }`.
        case path
        /// The bytes every part of a special URL encodes: controls, non-ASCII, space, `" < >`.
        case everyPart
    }

    /// True when the URL Standard's `set` writes `byte` as `%XX`.
    public static func encodes(_ set: StandardSet, _ byte: UInt8) -> Bool {
        switch set {
        case .path: return URLTail.encodes(.path, byte)
        case .everyPart: return URLTail.encodes(.fragment, byte) && URLTail.encodes(.query, byte)
        }
    }

    /// True for RFC 3986 unreserved bytes.
    @inline(__always)
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The value of a hex digit, or nil.
    @inline(__always)
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}

import JSON

/// The browsers' native-messaging framing: each message is UTF-8 JSON behind its length, a
/// 32-bit unsigned integer in the machine's byte order (little-endian on every machine Debian's
/// browsers run on).
public enum NativeMessageFrame {
    /// The largest message the host reads; a browser sends one link and its text (each capped
    /// at 64 KiB by the extension), so anything near this is not ours.
    public static let maximumLength = 1 << 20

    /// A message framed for writing.
    public static func frame(_ value: JSONValue) -> [UInt8] {
        let body = Array(value.text.utf8)
        let length = UInt32(truncatingIfNeeded: body.count)
        return [UInt8(length & 0xff), UInt8((length >> 8) & 0xff), UInt8((length >> 16) & 0xff), UInt8(length >> 24)] + body
    }

    /// The length a frame's first four bytes announce.
    public static func length(of header: ArraySlice<UInt8>) -> Int {
        var length = 0
        for (shift, byte) in header.prefix(4).enumerated() { length |= Int(byte) << (8 * shift) }
        return length
    }
}

/// Cuts a byte stream into native messages as they arrive.
public struct NativeMessageBuffer {
    private var pending: [UInt8] = []

    /// An empty buffer.
    public init() {}

    /// Why the stream cannot go on.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// A frame announced more than `NativeMessageFrame.maximumLength` bytes.
        case tooLong(Int)

        /// The message for stderr (the browser shows it in its console).
        public var description: String {
            switch self {
            case .tooLong(let length): return "a message of \(length) bytes (at most \(NativeMessageFrame.maximumLength))"
            }
        }
    }

    /// Adds bytes read from the browser.
    public mutating func append(_ bytes: ArraySlice<UInt8>) { pending.append(contentsOf: bytes) }

    /// The next whole message's bytes, nil until one has arrived.
    public mutating func next() throws(Failure) -> [UInt8]? {
        guard pending.count >= 4 else { return nil }
        let length = NativeMessageFrame.length(of: pending[0..<4])
        guard length <= NativeMessageFrame.maximumLength else { throw .tooLong(length) }
        guard pending.count >= 4 + length else { return nil }
        let body = Array(pending[4..<(4 + length)])
        pending.removeFirst(4 + length)
        return body
    }
}

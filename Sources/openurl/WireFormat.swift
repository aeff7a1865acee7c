// The D-Bus wire format, for the few messages the client sends and reads (the D-Bus
// specification, "Message Format"). Written little-endian; read in either byte order. Alignment
// counts from the message's start: the body starts at a multiple of 8, so offsets into the body
// align the same way.

/// A message, or a body, being written.
struct WireWriter {
    /// The bytes written so far.
    var bytes: [UInt8] = []

    mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func uint32(_ value: UInt32) {
        pad(to: 4)
        for shift in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift * 8))) }
    }

    mutating func uint64(_ value: UInt64) {
        pad(to: 8)
        for shift in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift * 8))) }
    }

    /// A STRING or OBJECT_PATH: its length, its bytes and a NUL.
    mutating func string(_ text: String) {
        uint32(UInt32(text.utf8.count))
        bytes += text.utf8
        bytes.append(0)
    }

    /// A SIGNATURE: one length byte, the type codes and a NUL.
    mutating func signature(_ codes: [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: codes.count))
        bytes += codes
        bytes.append(0)
    }

    /// An ARRAY whose elements align to `alignment`; `elements` writes them.
    mutating func array(alignment: Int, _ elements: (inout WireWriter) -> Void) {
        uint32(0)
        let lengthAt = bytes.count - 4
        pad(to: alignment)
        let start = bytes.count
        elements(&self)
        let length = UInt32(bytes.count - start)
        for shift in 0..<4 { bytes[lengthAt + shift] = UInt8(truncatingIfNeeded: length >> UInt32(shift * 8)) }
    }
}

/// The message types and header fields the client uses.
enum Wire {
    static let typeMethodCall: UInt8 = 1
    static let typeError: UInt8 = 3
    static let fieldPath: UInt8 = 1, fieldInterface: UInt8 = 2, fieldMember: UInt8 = 3, fieldErrorName: UInt8 = 4
    static let fieldReplySerial: UInt8 = 5, fieldDestination: UInt8 = 6, fieldSignature: UInt8 = 8
    /// The specification's limit on a whole message.
    static let maximumMessageBytes = 128 << 20

    /// A METHOD_CALL with `serial`, its body already written under `signature`.
    static func methodCall(serial: UInt32, destination: String, path: String, interface: String, member: String,
                           signature: [UInt8], body: [UInt8]) -> [UInt8] {
        var message = WireWriter()
        message.byte(UInt8(ascii: "l"))
        message.byte(typeMethodCall)
        message.byte(0)
        message.byte(1)
        message.uint32(UInt32(body.count))
        message.uint32(serial)
        message.array(alignment: 8) { fields in
            field(&fields, fieldPath, "o", path)
            field(&fields, fieldInterface, "s", interface)
            field(&fields, fieldMember, "s", member)
            field(&fields, fieldDestination, "s", destination)
            if !signature.isEmpty {
                fields.pad(to: 8)
                fields.byte(fieldSignature)
                fields.signature([UInt8(ascii: "g")])
                fields.signature(signature)
            }
        }
        message.pad(to: 8)
        return message.bytes + body
    }

    private static func field(_ fields: inout WireWriter, _ code: UInt8, _ type: Unicode.Scalar, _ value: String) {
        fields.pad(to: 8)
        fields.byte(code)
        fields.signature([UInt8(ascii: type)])
        fields.string(value)
    }

    /// The fixed header at the start of `bytes` (16 bytes): its byte order, the body's length and
    /// the header fields' length; nil before 16 bytes or for a byte order that is neither.
    static func fixedHeader(_ bytes: ArraySlice<UInt8>) -> (bigEndian: Bool, body: Int, fields: Int)? {
        guard bytes.count >= 16 else { return nil }
        let order = bytes[bytes.startIndex]
        guard order == UInt8(ascii: "l") || order == UInt8(ascii: "B") else { return nil }
        var reader = WireReader(bytes: Array(bytes.prefix(16)))
        reader.bigEndian = order == UInt8(ascii: "B")
        reader.offset = 4
        guard let body = reader.uint32(), reader.uint32() != nil, let fields = reader.uint32() else { return nil }
        return (reader.bigEndian, Int(body), Int(fields))
    }

    /// The length of the whole message at the start of `bytes`, once its fixed header is there
    /// (16 bytes); nil before, or -1 for a header no message can have.
    static func messageLength(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 16 else { return nil }
        guard let header = fixedHeader(bytes) else { return -1 }
        let total = (16 + header.fields + 7) / 8 * 8 + header.body
        return total <= maximumMessageBytes ? total : -1
    }
}

/// A message read from the bus: what the client needs of its header, and its body.
struct WireMessage {
    var type: UInt8 = 0
    var replySerial: UInt32?
    var errorName: String?
    var signature: [UInt8] = []
    var body: [UInt8] = []
    var bigEndian = false

    /// Parses one whole message; nil when it is malformed.
    init?(_ bytes: [UInt8]) {
        guard let header = Wire.fixedHeader(bytes[...]) else { return nil }
        var reader = WireReader(bytes: bytes)
        bigEndian = header.bigEndian
        reader.bigEndian = bigEndian
        type = bytes[1]
        reader.offset = 16
        let bodyLength = header.body
        let fieldsEnd = reader.offset + header.fields
        guard fieldsEnd <= bytes.count else { return nil }
        while reader.offset < fieldsEnd {
            guard reader.align(8), let code = reader.byte(), let valueType = reader.signature(), valueType.count == 1 else { return nil }
            switch (code, valueType[0]) {
            case (Wire.fieldReplySerial, UInt8(ascii: "u")): replySerial = reader.uint32()
            case (Wire.fieldErrorName, UInt8(ascii: "s")): errorName = reader.string()
            case (Wire.fieldSignature, UInt8(ascii: "g")): signature = reader.signature() ?? []
            default:
                var index = 0
                guard reader.skip(valueType, at: &index) else { return nil }
            }
        }
        let headerEnd = (fieldsEnd + 7) / 8 * 8
        guard headerEnd + bodyLength <= bytes.count else { return nil }
        body = Array(bytes[headerEnd..<headerEnd + bodyLength])
    }

    /// A reader at the start of the body.
    var bodyReader: WireReader {
        var reader = WireReader(bytes: body)
        reader.bigEndian = bigEndian
        return reader
    }

    /// The error's message: the body's first argument when it is a string.
    var errorMessage: String? {
        guard signature.first == UInt8(ascii: "s") else { return nil }
        var reader = bodyReader
        return reader.string()
    }

    /// The string values of the first argument when it is an `a{s…}`: a value that is a string,
    /// or a variant holding one (through variants in variants), is kept; any other is skipped.
    var stringEntries: [(String, String)] {
        var result: [(String, String)] = []
        let codes = signature
        guard codes.count >= 5, codes[0] == UInt8(ascii: "a"), codes[1] == UInt8(ascii: "{"), codes[2] == UInt8(ascii: "s") else { return result }
        var reader = bodyReader
        guard let length = reader.uint32(), reader.align(8) else { return result }
        let end = reader.offset + Int(length)
        guard end <= body.count else { return result }
        while reader.offset < end {
            guard reader.align(8), let key = reader.string() else { return result }
            var valueType = [codes[3]]
            while valueType == [UInt8(ascii: "v")] {
                guard let inner = reader.signature() else { return result }
                valueType = inner
            }
            if valueType == [UInt8(ascii: "s")] {
                guard let text = reader.string() else { return result }
                result.append((key, text))
            } else {
                var index = 0
                guard reader.skip(valueType, at: &index) else { return result }
            }
        }
        return result
    }

    /// The strings of the first argument when it is an `as`.
    var stringArray: [String] {
        var result: [String] = []
        guard signature.count >= 2, signature[0] == UInt8(ascii: "a"), signature[1] == UInt8(ascii: "s") else { return result }
        var reader = bodyReader
        guard let length = reader.uint32() else { return result }
        let end = reader.offset + Int(length)
        guard end <= body.count else { return result }
        while reader.offset < end, let text = reader.string() { result.append(text) }
        return result
    }
}

/// Reads values out of a message or body, checking every length against the bytes there.
struct WireReader {
    let bytes: [UInt8]
    var offset = 0
    var bigEndian = false

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func align(_ alignment: Int) -> Bool {
        offset = (offset + alignment - 1) / alignment * alignment
        return offset <= bytes.count
    }

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint32() -> UInt32? {
        guard align(4), offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 {
            let byte = UInt32(bytes[offset + (bigEndian ? index : 3 - index)])
            value = value << 8 | byte
        }
        offset += 4
        return value
    }

    mutating func string() -> String? {
        guard let length = uint32(), offset + Int(length) < bytes.count else { return nil }
        defer { offset += Int(length) + 1 }
        return String(decoding: bytes[offset..<offset + Int(length)], as: UTF8.self)
    }

    mutating func signature() -> [UInt8]? {
        guard let length = byte(), offset + Int(length) < bytes.count else { return nil }
        defer { offset += Int(length) + 1 }
        return Array(bytes[offset..<offset + Int(length)])
    }

    /// Skips one value of the single complete type at `codes[index]`, moving `index` past it.
    mutating func skip(_ codes: [UInt8], at index: inout Int) -> Bool {
        guard index < codes.count else { return false }
        let code = codes[index]
        index += 1
        if code == UInt8(ascii: "y") { return byte() != nil }
        if code == UInt8(ascii: "s") || code == UInt8(ascii: "o") {
            // Not `string() != nil`: a debug build compares that with String's ==, which needs
            // Unicode tables Embedded Swift does not link.
            guard case .some = string() else { return false }
            return true
        }
        if code == UInt8(ascii: "g") { return signature() != nil }
        if code == UInt8(ascii: "v") {
            guard let inner = signature() else { return false }
            var innerIndex = 0
            return skip(inner, at: &innerIndex) && innerIndex == inner.count
        }
        if code == UInt8(ascii: "a") {
            guard index < codes.count, let length = uint32(), align(Self.alignment(of: codes[index])),
                  let end = Self.endOfType(codes, at: index) else { return false }
            index = end
            offset += Int(length)
            return offset <= bytes.count
        }
        if code == UInt8(ascii: "(") || code == UInt8(ascii: "{") {
            let close = code == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            guard align(8) else { return false }
            while index < codes.count, codes[index] != close {
                guard skip(codes, at: &index) else { return false }
            }
            guard index < codes.count else { return false }
            index += 1
            return true
        }
        let size = Self.alignment(of: code)
        guard size > 1 || code == UInt8(ascii: "y") else { return false }
        return fixed(size)
    }

    private mutating func fixed(_ size: Int) -> Bool {
        guard align(size), offset + size <= bytes.count else { return false }
        offset += size
        return true
    }

    static func alignment(of code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "n"), UInt8(ascii: "q"): return 2
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"), UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "a"): return 4
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): return 8
        default: return 1
        }
    }

    /// The index just past the single complete type that starts at `index`.
    static func endOfType(_ codes: [UInt8], at index: Int) -> Int? {
        guard index < codes.count else { return nil }
        switch codes[index] {
        case UInt8(ascii: "a"): return endOfType(codes, at: index + 1)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            var depth = 0
            var position = index
            while position < codes.count {
                switch codes[position] {
                case UInt8(ascii: "("), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth == 0 { return position + 1 }
                default: break
                }
                position += 1
            }
            return nil
        default: return index + 1
        }
    }
}

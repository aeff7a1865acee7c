/// Why a text is not JSON: what was wrong and where (1-based line and column, in bytes).
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public let message: String
    /// The line of the offending byte.
    public let line: Int
    /// The column (in bytes) of the offending byte.
    public let column: Int

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONValue {
    /// The deepest nesting accepted: hostile input cannot exhaust the stack.
    public static let maximumDepth = 512

    /// Parses JSON text (RFC 8259) from UTF-8 bytes: one value, surrounded only by whitespace.
    /// Strings must be valid UTF-8; object members keep their order.
    public init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
        self = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            var reader = JSONReader(buffer)
            return try reader.document()
        }
    }

    /// Parses JSON text from a string.
    public init(parsing text: String) throws(JSONSyntaxError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The value of the last member named `key`, when this is an object (JavaScript keeps the last too).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.0 == key })?.1
    }

    /// The members, when this is an object.
    public var members: [(String, JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The items, when this is an array.
    public var items: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The string, when this is a string.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when this is a whole number that fits in an `Int`.
    public var integer: Int? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The flag, when this is `true` or `false`.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}

/// A one-pass reader over the bytes of a JSON text.
private struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try self.value()
        skipWhitespace()
        if position < bytes.count { throw error("unexpected text after the value") }
        return value
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let end = min(offset ?? position, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<end where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        return JSONSyntaxError(message: message, line: line, column: end - lineStart + 1)
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of text, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character, expected a value")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count,
              word.withUTF8Buffer({ w in (0..<count).allSatisfy { bytes[position + $0] == w[$0] } })
        else { throw error("unexpected word, expected \(word)") }
        position += count
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONValue.maximumDepth { throw error("nested deeper than \(JSONValue.maximumDepth) levels") }
    }

    mutating func object() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        position += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes")
            }
            let key = try string()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
            position += 1
            skipWhitespace()
            members.append((key, try value()))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of text in an object") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") { position += 1; break }
            throw error("expected ',' or '}' in an object")
        }
        depth -= 1
        return .object(members)
    }

    mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value())
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of text in an array") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") { position += 1; break }
            throw error("expected ',' or ']' in an array")
        }
        depth -= 1
        return .array(items)
    }

    /// A string from its opening quote; escapes decoded, UTF-8 checked.
    mutating func string() throws(JSONSyntaxError) -> String {
        let start = position
        position += 1
        let contentStart = position
        // The usual case has no escape: one scan, one copy.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<position])
                position += 1
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw error("a string is not valid UTF-8", at: start)
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character must be escaped in a string") }
            position += 1
        }
        var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: out, as: UTF8.self) else {
                    throw error("a string is not valid UTF-8", at: start)
                }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &out)
            case 0..<0x20:
                throw error("a control character must be escaped in a string")
            default:
                out.append(byte)
                position += 1
            }
        }
        throw error("unterminated string", at: start)
    }

    mutating func escape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        let at = position
        position += 1
        guard position < bytes.count else { throw error("unterminated escape", at: at) }
        let kind = bytes[position]
        position += 1
        switch kind {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(kind)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(at: at)
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low one.
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw error("a high surrogate \\u escape without its low half", at: at)
                }
                position += 2
                let low = try hex4(at: at)
                guard (0xDC00..<0xE000).contains(low) else { throw error("a high surrogate \\u escape without its low half", at: at) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("a low surrogate \\u escape without its high half", at: at)
            }
            guard let value = Unicode.Scalar(scalar) else { throw error("not a Unicode scalar", at: at) }
            out.append(contentsOf: UTF8.encode(value).map { Array($0) } ?? [])
        default:
            throw error("unknown escape", at: at)
        }
    }

    mutating func hex4(at escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits", at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hex digits", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        func isDigit(_ i: Int) -> Bool { i < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard isDigit(position) else { throw error("a number needs a digit", at: start) }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if isDigit(position) { throw error("a number must not start with 0", at: start) }
        } else {
            while isDigit(position) { position += 1 }
        }
        var integral = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            integral = false
            position += 1
            guard isDigit(position) else { throw error("a fraction needs a digit after '.'", at: start) }
            while isDigit(position) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            integral = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard isDigit(position) else { throw error("an exponent needs a digit", at: start) }
            while isDigit(position) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if integral, let value = Int(text) { return .number(value) }
        guard let value = Double(text) else { throw error("not a number", at: start) }
        return .fraction(value)
    }
}

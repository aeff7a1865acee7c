/// A position in a source file, 1-based.
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// A TOML value with the position of its value and, for table members, of its key.
public struct TOMLNode: Sendable {
    /// The shapes a TOML value takes.
    public enum Value: Sendable {
        case table([(key: String, node: TOMLNode)])
        case array([TOMLNode])
        case string(String)
        case integer(Int64)
        case float(Double)
        case boolean(Bool)
        case dateTime(String)
    }

    /// The value.
    public var value: Value
    /// Where the value starts.
    public var position: SourcePosition
    /// Where the member's key starts (the value's position for array elements and the root).
    public var keyPosition: SourcePosition

    /// The name of the value's TOML type with an article, for messages ("a string").
    public var typeDescription: String {
        switch value {
        case .table: return "a table"
        case .array: return "a list"
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .boolean: return "a boolean"
        case .dateTime: return "a date-time"
        }
    }

    /// The members of a table, in source order, or nil for other values.
    public var members: [(key: String, node: TOMLNode)]? {
        if case .table(let members) = value { return members }
        return nil
    }

    /// The member named `key` of a table.
    public subscript(key: String) -> TOMLNode? {
        members?.first(where: { $0.key == key })?.node
    }

    /// The value as one line of text that is the same however the source was laid out: table
    /// keys sorted (those in `omitting` left out at this level), strings quoted and escaped.
    public func canonicalText(omitting: Set<String> = []) -> String {
        // Built as bytes: config load computes it for every rule, and String concatenation and
        // Unicode-aware key sorting were a fifth of the daemon's start.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        appendCanonical(to: &bytes, omitting: omitting)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func appendCanonical(to bytes: inout [UInt8], omitting: Set<String>) {
        switch value {
        case .table(let members):
            bytes.append(UInt8(ascii: "{"))
            // Keys in byte order, which is Unicode scalar order: what String's `<` gives for NFC
            // text. Positions are sorted, not copies of the members (each copy retained a node);
            // by insertion, as a rule's tables hold a handful of keys.
            var order: [Int] = []
            order.reserveCapacity(members.count)
            let omitted = omitting.count == 1 ? omitting.first : nil
            for index in members.indices {
                if let omitted {
                    if members[index].key.utf8.elementsEqual(omitted.utf8) { continue }
                } else if !omitting.isEmpty, omitting.contains(members[index].key) {
                    continue
                }
                var slot = order.count
                order.append(index)
                while slot > 0, Self.bytesPrecede(members[index].key, members[order[slot - 1]].key) {
                    order[slot] = order[slot - 1]
                    slot -= 1
                }
                order[slot] = index
            }
            for (offset, index) in order.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.appendQuoted(members[index].key, to: &bytes)
                bytes.append(UInt8(ascii: "="))
                members[index].node.appendCanonical(to: &bytes, omitting: [])
            }
            bytes.append(UInt8(ascii: "}"))
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (offset, item) in items.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                item.appendCanonical(to: &bytes, omitting: [])
            }
            bytes.append(UInt8(ascii: "]"))
        case .string(let text): Self.appendQuoted(text, to: &bytes)
        case .integer(let number): bytes += String(number).utf8
        case .float(let number): bytes += String(number).utf8
        case .boolean(let flag): bytes += (flag ? "true" : "false").utf8
        case .dateTime(let text): bytes += text.utf8
        }
    }

    /// Whether `a`'s UTF-8 bytes sort before `b`'s.
    private static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { first in b.withUTF8 { second in
            let common = min(first.count, second.count)
            for offset in 0..<common where first[offset] != second[offset] { return first[offset] < second[offset] }
            return first.count < second.count
        } }
    }

    private static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            if utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                for byte in utf8 {
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                    bytes.append(byte)
                }
            } else {
                bytes.append(contentsOf: utf8)
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}

/// A TOML syntax error with its position.
public struct TOMLSyntaxError: Error, Sendable {
    /// What the parser expected or found.
    public var message: String
    /// Where it stopped.
    public var position: SourcePosition
}

/// Parses TOML text into a tree of positioned nodes.
public enum TOMLParser {
    /// Parses `text`; throws `TOMLSyntaxError` with the parser's position on failure.
    public static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLNode {
        try TOMLReader.parse(text)
    }
}

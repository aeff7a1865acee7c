import CTOML

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
        bytes.reserveCapacity(96)
        appendCanonical(to: &bytes, omitting: omitting)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func appendCanonical(to bytes: inout [UInt8], omitting: Set<String>) {
        switch value {
        case .table(let members):
            bytes.append(UInt8(ascii: "{"))
            // Keys in byte order, which is Unicode scalar order: what String's `<` gives for NFC
            // text. Positions are sorted, not copies of the members (each copy retained a node).
            var order: [Int] = []
            order.reserveCapacity(members.count)
            for index in members.indices where omitting.isEmpty || !omitting.contains(members[index].key) { order.append(index) }
            order.sort { members[$0].key.utf8.lexicographicallyPrecedes(members[$1].key.utf8) }
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

    private static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        if text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
        } else {
            bytes.append(contentsOf: text.utf8)
        }
        bytes.append(UInt8(ascii: "\""))
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
        var text = text
        let document: OpaquePointer? = text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { ctoml_parse($0.baseAddress, $0.count) }
        }
        guard let document else {
            throw TOMLSyntaxError(message: "could not parse", position: SourcePosition(line: 1, column: 1))
        }
        defer { ctoml_free(document) }
        guard ctoml_ok(document) != 0 else {
            throw TOMLSyntaxError(
                message: String(cString: ctoml_error_message(document)),
                position: SourcePosition(
                    line: max(1, Int(ctoml_error_line(document))),
                    column: max(1, Int(ctoml_error_column(document)))))
        }
        let count = ctoml_node_count(document)
        guard count > 0, let nodes = ctoml_nodes(document) else {
            return TOMLNode(value: .table([]), position: .init(line: 1, column: 1), keyPosition: .init(line: 1, column: 1))
        }
        return build(UnsafeBufferPointer(start: nodes, count: count))
    }

    /// Builds the tree from the pre-ordered nodes without recursion: children always follow
    /// their parent, so walking backwards finds every child built before its parent.
    private static func build(_ nodes: UnsafeBufferPointer<ctoml_node>) -> TOMLNode {
        func string(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> String {
            guard let pointer else { return "" }
            return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            }
        }
        // The children of each node, in reverse source order while they are collected.
        var children: [[(key: String, node: TOMLNode)]] = Array(repeating: [], count: nodes.count)
        var root = TOMLNode(value: .table([]), position: .init(line: 1, column: 1), keyPosition: .init(line: 1, column: 1))
        for index in stride(from: nodes.count - 1, through: 0, by: -1) {
            let raw = nodes[index]
            let members = Array(children[index].reversed())
            children[index] = []
            let value: TOMLNode.Value
            switch raw.kind {
            case Int32(CTOML_TABLE): value = .table(members)
            case Int32(CTOML_ARRAY): value = .array(members.map(\.node))
            case Int32(CTOML_STRING): value = .string(string(raw.text, raw.text_length))
            case Int32(CTOML_INTEGER): value = .integer(raw.integer)
            case Int32(CTOML_FLOAT): value = .float(raw.number)
            case Int32(CTOML_BOOLEAN): value = .boolean(raw.boolean != 0)
            default: value = .dateTime(string(raw.text, raw.text_length))
            }
            let position = SourcePosition(line: Int(raw.line), column: Int(raw.column))
            let keyPosition = raw.key_line > 0 ? SourcePosition(line: Int(raw.key_line), column: Int(raw.key_column)) : position
            let node = TOMLNode(value: value, position: position, keyPosition: keyPosition)
            let parent = Int(raw.parent)
            if parent >= 0, parent < index {
                children[parent].append((string(raw.key, raw.key_length), node))
            } else if index == 0 {
                root = node
            }
        }
        return root
    }
}

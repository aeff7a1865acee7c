// Compiled into the tests and into the `toml` fuzz target (Fuzz/build.sh).
import CTOML
@testable import TOML

/// openurld reads TOML itself (`TOMLReader`); toml++, through the C++ bridge that read configs
/// before, is the oracle: the same documents accepted, and the same tree (keys in source order,
/// values, and the line and column of every value and key).
enum TOMLOracle {
    /// toml++'s tree of `text`, or its error's line.
    static func parse(_ text: String) -> Result<TOMLNode, TOMLSyntaxError> {
        var text = text
        let document: OpaquePointer? = text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { ctoml_parse($0.baseAddress, $0.count) }
        }
        guard let document else { return .failure(TOMLSyntaxError(message: "could not parse", position: SourcePosition(line: 1, column: 1))) }
        defer { ctoml_free(document) }
        guard ctoml_ok(document) != 0 else {
            return .failure(TOMLSyntaxError(message: String(cString: ctoml_error_message(document)),
                                            position: SourcePosition(line: max(1, Int(ctoml_error_line(document))), column: max(1, Int(ctoml_error_column(document))))))
        }
        let count = ctoml_node_count(document)
        guard count > 0, let nodes = ctoml_nodes(document) else {
            return .success(TOMLNode(value: .table([]), position: .init(line: 1, column: 1), keyPosition: .init(line: 1, column: 1)))
        }
        return .success(build(UnsafeBufferPointer(start: nodes, count: count)))
    }

    private static func build(_ nodes: UnsafeBufferPointer<ctoml_node>) -> TOMLNode {
        func string(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> String {
            guard let pointer else { return "" }
            return pointer.withMemoryRebound(to: UInt8.self, capacity: length) { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
        }
        var children: [[(key: String, node: TOMLNode)]] = Array(repeating: [], count: nodes.count)
        var root = TOMLNode(value: .table([]), position: .init(line: 1, column: 1), keyPosition: .init(line: 1, column: 1))
        for index in stride(from: nodes.count - 1, through: 0, by: -1) {
            let raw = nodes[index]
            let members = Array(children[index].reversed())
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
            if parent >= 0, parent < index { children[parent].append((string(raw.key, raw.key_length), node)) } else if index == 0 { root = node }
        }
        return root
    }

    /// Where two trees first differ, or nil when they are the same.
    static func difference(_ ours: TOMLNode, _ theirs: TOMLNode, path: String = "") -> String? {
        if ours.position != theirs.position { return "\(path): value at \(ours.position), toml++ \(theirs.position)" }
        if ours.keyPosition != theirs.keyPosition { return "\(path): key at \(ours.keyPosition), toml++ \(theirs.keyPosition)" }
        switch (ours.value, theirs.value) {
        case (.table(let a), .table(let b)):
            guard a.map(\.key) == b.map(\.key) else { return "\(path): keys \(a.map(\.key)), toml++ \(b.map(\.key))" }
            for (x, y) in zip(a, b) { if let found = difference(x.node, y.node, path: path + "." + x.key) { return found } }
            return nil
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return "\(path): \(a.count) items, toml++ \(b.count)" }
            for (offset, pair) in zip(a, b).enumerated() { if let found = difference(pair.0, pair.1, path: path + "[\(offset)]") { return found } }
            return nil
        case (.string(let a), .string(let b)): return a == b ? nil : "\(path): \(a.debugDescription), toml++ \(b.debugDescription)"
        case (.integer(let a), .integer(let b)): return a == b ? nil : "\(path): \(a), toml++ \(b)"
        case (.float(let a), .float(let b)): return a == b || (a.isNaN && b.isNaN) ? nil : "\(path): \(a), toml++ \(b)"
        case (.boolean(let a), .boolean(let b)): return a == b ? nil : "\(path): \(a), toml++ \(b)"
        case (.dateTime(let a), .dateTime(let b)): return a == b ? nil : "\(path): \(a), toml++ \(b)"
        default: return "\(path): \(ours.typeDescription), toml++ \(theirs.typeDescription)"
        }
    }

    /// How our reader and toml++ disagree on `text`, or nil.
    static func disagreement(_ text: String) -> String? {
        let ours: Result<TOMLNode, TOMLSyntaxError>
        do { ours = .success(try TOMLParser.parse(text)) } catch { ours = .failure(error) }
        switch (ours, parse(text)) {
        case (.success(let a), .success(let b)): return difference(a, b)
        case (.failure, .failure): return nil
        // toml++'s own limit on how many digits a number may be written with (leading zeros
        // count) is not TOML's: a value in range is read, whatever its length.
        case (.success, .failure(let error)) where error.message.contains("exceeds length limit") || error.message.contains("too long to identify"): return nil
        case (.success, .failure(let error)): return "accepted; toml++ refuses at \(error.position): \(error.message)"
        case (.failure(let error), .success): return "refused at \(error.position) (\(error.message)); toml++ accepts"
        }
    }
}


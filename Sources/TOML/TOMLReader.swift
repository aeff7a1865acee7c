/// TOML 1.0 read by our own code, straight into `TOMLNode`s: what toml++ and the C++ bridge did,
/// at a fraction of the daemon's start (they were ~30M instructions of it for 1,000 rules).
/// `TOMLOracleTests` and the `toml` fuzz target hold it to toml++ (kept for the tests only):
/// the same documents accepted, the same values, keys and positions.
struct TOMLReader {
    /// More parts than this in one key or table name is an error (as the bridge's check was).
    static let maximumKeyParts = 64
    /// Arrays and inline tables nest at most this deep (toml++'s limit).
    static let maximumDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private let root = TableBuilder(position: SourcePosition(line: 1, column: 1), keyPosition: SourcePosition(line: 1, column: 1), state: .header)
    private var current: TableBuilder

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        current = root
    }

    /// Parses `text`, or throws the first error with its position.
    static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLNode {
        var text = text
        let result: Result<TOMLNode, TOMLSyntaxError> = text.withUTF8 { buffer in
            var reader = TOMLReader(bytes: buffer)
            do throws(TOMLSyntaxError) {
                try reader.document()
                return .success(reader.root.node())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: Positions and bytes

    private var position: SourcePosition {
        // At the end of a text that ends a line, errors point at that line, not past it.
        if index >= bytes.count, line > 1, lineStart == bytes.count {
            return SourcePosition(line: line - 1, column: column(from: previousLineStart, to: previousLineEnd))
        }
        return position(at: index)
    }
    /// Where the line before this one starts, and where its line end is.
    private var previousLineStart = 0
    private var previousLineEnd = 0
    /// No character of this line so far took more than one byte: a column is then a distance.
    private var lineIsASCII = true
    /// An escape in the string being read gave U+0000.
    private var sawNUL = false

    /// Columns count characters (UTF-8 lead bytes), as toml++ counted them.
    private func position(at offset: Int) -> SourcePosition {
        SourcePosition(line: line, column: lineIsASCII ? offset - lineStart + 1 : column(from: lineStart, to: offset))
    }

    /// The column of `end` on a line starting at `start`: one more than the characters between.
    private func column(from start: Int, to end: Int) -> Int {
        1 + bytes[start..<end].reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
    }

    private func error(_ message: String, at where: SourcePosition? = nil) -> TOMLSyntaxError {
        TOMLSyntaxError(message: message, position: `where` ?? position)
    }

    private var atEnd: Bool { index >= bytes.count }
    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    private func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    private mutating func skipBlanks() {
        while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
    }

    /// A comment, if one starts here: up to the line's end; its characters checked.
    private mutating func skipComment() throws(TOMLSyntaxError) {
        guard peek == UInt8(ascii: "#") else { return }
        index += 1
        while let byte = peek, byte != UInt8(ascii: "\n") {
            if byte == UInt8(ascii: "\r"), peek(1) == UInt8(ascii: "\n") { break }
            if Self.isControl(byte) { throw error("a comment holds a control character") }
            index += characterLength()
        }
    }

    /// The end of a line: `\n` or `\r\n`; false when something else is here.
    private mutating func newline() -> Bool {
        let end = index
        if peek == UInt8(ascii: "\n") {
            index += 1
        } else if peek == UInt8(ascii: "\r"), peek(1) == UInt8(ascii: "\n") {
            index += 2
        } else {
            return false
        }
        previousLineStart = lineStart
        previousLineEnd = end
        line += 1
        lineStart = index
        lineIsASCII = true
        return true
    }

    /// Blanks, comments and line ends (inside arrays).
    private mutating func skipSpace() throws(TOMLSyntaxError) {
        while true {
            skipBlanks()
            try skipComment()
            if !newline() { return }
        }
    }

    /// Tab is the only control character TOML allows in text.
    private static func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F }

    /// The bytes of the character here. The text is a Swift String, so it is valid UTF-8 and a
    /// lead byte says the length.
    private mutating func characterLength() -> Int {
        let lead = bytes[index]
        guard lead >= 0x80 else { return 1 }
        lineIsASCII = false
        return lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
    }

    /// Appends the character here to `text` and moves past it.
    private mutating func appendCharacter(to text: inout [UInt8]) {
        let length = characterLength()
        text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
        index += length
    }

    // MARK: The document

    private mutating func document() throws(TOMLSyntaxError) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3; lineStart = 3 }
        while !atEnd {
            skipBlanks()
            switch peek {
            case UInt8(ascii: "#"): try skipComment()
            case UInt8(ascii: "["): try tableHeader()
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), nil: break
            default: try keyValue(into: current)
            }
            skipBlanks()
            try skipComment()
            guard atEnd || newline() else { throw error("expected the end of the line") }
        }
    }

    /// `[a.b]` or `[[a.b]]`.
    private mutating func tableHeader() throws(TOMLSyntaxError) {
        let start = position
        index += 1
        let isArray = peek == UInt8(ascii: "[")
        if isArray { index += 1 }
        skipBlanks()
        let keys = try key()
        skipBlanks()
        guard peek == UInt8(ascii: "]") else { throw error("expected \"]\" to end the table name") }
        index += 1
        if isArray {
            guard peek == UInt8(ascii: "]") else { throw error("expected \"]]\" to end the table name") }
            index += 1
        }
        var table = root
        for part in keys.dropLast() {
            switch table.entry(part.name) {
            case nil:
                // A table the name only passes through is where the header is (as toml++ had it).
                let made = TableBuilder(position: start, keyPosition: part.position, state: .implicit)
                table.add(part.name, .table(made))
                table = made
            case .table(let existing):
                table = existing
            case .tableArray(let array):
                guard let last = array.elements.last else { throw error("\"\(part.name)\" is not a table", at: part.position) }
                table = last
            case .value:
                throw error("\"\(part.name)\" is already a value, not a table", at: part.position)
            }
        }
        guard let last = keys.last else { throw error("expected a table name") }
        let existing = table.entry(last.name)
        if isArray {
            // An element has no key of its own: toml++ gave it its header's position for both.
            let element = TableBuilder(position: start, keyPosition: start, state: .header)
            switch existing {
            case nil:
                table.add(last.name, .tableArray(TableArrayBuilder(position: start, keyPosition: last.position, elements: [element])))
            case .tableArray(let array):
                array.elements.append(element)
            default:
                throw error("\"\(last.name)\" is already defined, and not as an array of tables", at: last.position)
            }
            current = element
        } else {
            switch existing {
            case nil:
                let made = TableBuilder(position: start, keyPosition: last.position, state: .header)
                table.add(last.name, .table(made))
                current = made
            case .table(let made) where made.state == .implicit:
                made.state = .header
                made.position = start
                current = made
            default:
                throw error("table \"\(keys.map(\.name).joined(separator: "."))\" is defined twice", at: last.position)
            }
        }
    }

    /// `a.b = value` into `table`.
    private mutating func keyValue(into table: TableBuilder, depth: Int = 0) throws(TOMLSyntaxError) {
        let keys = try key()
        skipBlanks()
        guard peek == UInt8(ascii: "=") else { throw error("expected \"=\" after the key") }
        index += 1
        skipBlanks()
        var target = table
        for part in keys.dropLast() {
            switch target.entry(part.name) {
            case nil:
                let made = TableBuilder(position: part.position, keyPosition: part.position, state: .dotted)
                target.add(part.name, .table(made))
                target = made
            case .table(let existing) where existing.state == .dotted:
                target = existing
            default:
                throw error("\"\(part.name)\" is already defined; dotted keys cannot add to it", at: part.position)
            }
        }
        guard let last = keys.last else { throw error("expected a key") }
        guard target.entry(last.name) == nil else { throw error("\"\(last.name)\" is defined twice", at: last.position) }
        let node = try value(depth: depth + 1, keyPosition: last.position)
        target.add(last.name, .value(node))
    }

    /// A key's parts, each with where it starts.
    private mutating func key() throws(TOMLSyntaxError) -> [(name: String, position: SourcePosition)] {
        var parts: [(name: String, position: SourcePosition)] = []
        parts.reserveCapacity(2)  // `match.domain`: growing from one part cost an allocation a key
        while true {
            let start = position
            let name: String
            switch peek {
            case UInt8(ascii: "\""):
                if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") { throw error("a key cannot be a multi-line string") }
                name = try basicString()
            case UInt8(ascii: "'"):
                if peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") { throw error("a key cannot be a multi-line string") }
                name = try literalString()
            default:
                let first = index
                while let byte = peek, Self.isBareKey(byte) { index += 1 }
                guard index > first else { throw error("expected a key") }
                name = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<index]), as: UTF8.self)
            }
            if sawNUL { throw error("a key contains a NUL character (\\u0000), which no key can hold", at: start) }
            parts.append((name, start))
            skipBlanks()
            guard peek == UInt8(ascii: ".") else { return parts }
            guard parts.count < Self.maximumKeyParts else {
                throw error("a key or table name has more than \(Self.maximumKeyParts) dotted parts")
            }
            index += 1
            skipBlanks()
        }
    }

    private static func isBareKey(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    // MARK: Values

    private mutating func value(depth: Int, keyPosition: SourcePosition? = nil) throws(TOMLSyntaxError) -> TOMLNode {
        let start = position
        func node(_ value: TOMLNode.Value) -> TOMLNode { TOMLNode(value: value, position: start, keyPosition: keyPosition ?? start) }
        guard depth <= Self.maximumDepth else { throw error("values nested more than \(Self.maximumDepth) deep") }
        switch peek {
        case UInt8(ascii: "\""):
            let text = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"") ? try multilineString(quote: UInt8(ascii: "\"")) : try basicString()
            if sawNUL { throw error("a string contains a NUL character (\\u0000), which no setting can hold", at: start) }
            return node(.string(text))
        case UInt8(ascii: "'"):
            return node(.string(peek(1) == UInt8(ascii: "'") && peek(2) == UInt8(ascii: "'") ? try multilineString(quote: UInt8(ascii: "'")) : try literalString()))
        case UInt8(ascii: "["):
            return node(.array(try array(depth: depth)))
        case UInt8(ascii: "{"):
            return try inlineTable(depth: depth, start: start, keyPosition: keyPosition ?? start).node()
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            if matches("true") { index += 4; return node(.boolean(true)) }
            if matches("false") { index += 5; return node(.boolean(false)) }
            throw error("expected a value")
        case nil, UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"):
            throw error("expected a value")
        default:
            return try numberOrDate(node)
        }
    }

    private func matches(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        return true
    }

    private mutating func array(depth: Int) throws(TOMLSyntaxError) -> [TOMLNode] {
        index += 1
        var items: [TOMLNode] = []
        while true {
            try skipSpace()
            if peek == UInt8(ascii: "]") { index += 1; return items }
            items.append(try value(depth: depth + 1))
            try skipSpace()
            if peek == UInt8(ascii: ",") { index += 1; continue }
            guard peek == UInt8(ascii: "]") else { throw error("expected \",\" or \"]\" in the array") }
            index += 1
            return items
        }
    }

    private mutating func inlineTable(depth: Int, start: SourcePosition, keyPosition: SourcePosition) throws(TOMLSyntaxError) -> TableBuilder {
        index += 1
        let table = TableBuilder(position: start, keyPosition: keyPosition, state: .inline)
        skipBlanks()
        if peek == UInt8(ascii: "}") { index += 1; return table }
        while true {
            skipBlanks()
            try keyValue(into: table, depth: depth)
            skipBlanks()
            if peek == UInt8(ascii: ",") { index += 1; continue }
            guard peek == UInt8(ascii: "}") else { throw error("expected \",\" or \"}\" in the inline table") }
            index += 1
            return table
        }
    }

    // MARK: Strings

    private mutating func basicString() throws(TOMLSyntaxError) -> String {
        index += 1
        sawNUL = false
        // Most strings hold no escape: taken whole from the text.
        let first = index
        while let byte = peek, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), !Self.isControl(byte) {
            index += characterLength()
        }
        if peek == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<(index - 1)]), as: UTF8.self)
        }
        var text = Array(UnsafeBufferPointer(rebasing: bytes[first..<index]))
        while true {
            guard let byte = peek else { throw error("a string is not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &text)
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                throw error("a string is not closed on its line")
            default:
                if Self.isControl(byte) { throw error("a string holds a control character") }
                appendCharacter(to: &text)
            }
        }
    }

    /// `"""…"""` (`quote` `"`, with escapes) or `'''…'''` (`quote` `'`, as written): a line end
    /// right after the opening is dropped, CRLF is read as LF (as toml++ did), and up to two
    /// quotes before the closing three belong to the text.
    private mutating func multilineString(quote: UInt8) throws(TOMLSyntaxError) -> String {
        index += 3
        sawNUL = false
        _ = newline()
        var text: [UInt8] = []
        while true {
            guard let byte = peek else { throw error("a string is not closed") }
            if byte == quote && peek(1) == quote && peek(2) == quote {
                var quotes = 3
                while quotes < 5, peek(quotes) == quote { quotes += 1 }
                text += Array(repeating: quote, count: quotes - 3)
                index += quotes
                return String(decoding: text, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") {
                // A backslash at a line's end takes the line end and the blanks after it.
                var look = index + 1
                while look < bytes.count, bytes[look] == UInt8(ascii: " ") || bytes[look] == UInt8(ascii: "\t") { look += 1 }
                if look < bytes.count, bytes[look] == UInt8(ascii: "\n") || (bytes[look] == UInt8(ascii: "\r") && look + 1 < bytes.count && bytes[look + 1] == UInt8(ascii: "\n")) {
                    index = look
                    while true {
                        skipBlanks()
                        if !newline() { break }
                    }
                    continue
                }
                try escape(into: &text)
                continue
            }
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && peek(1) == UInt8(ascii: "\n")) {
                text.append(UInt8(ascii: "\n"))
                _ = newline()
                continue
            }
            if Self.isControl(byte) { throw error("a string holds a control character") }
            appendCharacter(to: &text)
        }
    }

    private mutating func literalString() throws(TOMLSyntaxError) -> String {
        index += 1
        let first = index
        while true {
            guard let byte = peek else { throw error("a string is not closed") }
            if byte == UInt8(ascii: "'") { break }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { throw error("a string is not closed on its line") }
            if Self.isControl(byte) { throw error("a string holds a control character") }
            index += characterLength()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<index]), as: UTF8.self)
        index += 1
        return text
    }

    private mutating func escape(into text: inout [UInt8]) throws(TOMLSyntaxError) {
        let start = position
        index += 1
        guard let code = peek else { throw error("a string is not closed") }
        index += 1
        switch code {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "\""): text.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): text.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = code == UInt8(ascii: "u") ? 4 : 8
            var scalar: UInt32 = 0
            for _ in 0..<digits {
                guard let byte = peek, let digit = TOMLScalars.hexValue(byte) else { throw error("expected \(digits) hexadecimal digits after \\\(Character(Unicode.Scalar(code)))", at: start) }
                scalar = scalar << 4 | UInt32(digit)
                index += 1
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("\\\(Character(Unicode.Scalar(code))) names no Unicode character", at: start) }
            if scalar == 0 { sawNUL = true }
            UTF8.encode(unicode) { text.append($0) }
        default:
            throw error("unknown escape sequence", at: start)
        }
    }

    // MARK: Numbers and dates

    /// Moves past a number's or a date's token: up to the next blank, comma, bracket, brace,
    /// comment or line end.
    private mutating func skipToken() {
        while let byte = peek, ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ","),
                                 UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "#")].contains(byte) {
            index += 1
        }
    }

    private mutating func numberOrDate(_ node: (TOMLNode.Value) -> TOMLNode) throws(TOMLSyntaxError) -> TOMLNode {
        let first = index
        skipToken()
        // A date and a time may be separated by one space: `1979-05-27 07:32:00`.
        var token = Array(UnsafeBufferPointer(rebasing: bytes[first..<index]))
        if TOMLScalars.isDate(token), peek == UInt8(ascii: " "), let next = peek(1), next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9") {
            let save = index
            index += 1
            skipToken()
            let joined = token + [UInt8(ascii: "T")] + Array(UnsafeBufferPointer(rebasing: bytes[(save + 1)..<index]))
            if TOMLScalars.dateTimeKind(joined) != nil { token = joined } else { index = save }
        }
        if let kind = TOMLScalars.dateTimeKind(token) { return node(.dateTime(kind)) }
        if let integer = TOMLScalars.integer(token) { return node(.integer(integer)) }
        if let float = TOMLScalars.float(token) { return node(.float(float)) }
        index = first
        throw error("expected a value")
    }
}

/// An element of an XML document, with where it starts in the file.
public struct XMLElement: Sendable, Equatable {
    /// The element's name (`site-list`), as written.
    public var name: String
    /// Its attributes in document order, values with entities replaced.
    public var attributes: [(name: String, value: String)]
    /// The child elements, in order.
    public var children: [XMLElement]
    /// The element's own text (its text and CDATA outside child elements), entities replaced.
    public var text: String
    /// The 1-based line of the `<`.
    public var line: Int
    /// The 1-based column of the `<`.
    public var column: Int

    /// The value of attribute `name`, if present.
    public func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    /// The child elements named `name`.
    public func children(named name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// Elements compare by name, attributes, children, text and position.
    public static func == (a: XMLElement, b: XMLElement) -> Bool {
        a.name == b.name && a.attributes.map(\.name) == b.attributes.map(\.name) && a.attributes.map(\.value) == b.attributes.map(\.value)
            && a.children == b.children && a.text == b.text && a.line == b.line && a.column == b.column
    }
}

/// Why a file is not well-formed XML (or uses what this reader refuses), with where.
public struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int
    /// What is wrong.
    public var message: String

    /// `LINE:COLUMN: message`.
    public var description: String { "\(line):\(column): \(message)" }
}

/// A small, strict reader for the XML of site lists: elements, attributes, text, CDATA, comments,
/// the XML declaration and the five predefined entities plus character references. A DOCTYPE
/// (and so any entity defined by one) is refused, so no file can make the reader expand entities
/// or fetch anything. Comments end at the first `-->` (Microsoft's own examples write
/// `<!--- … --->`, which strict XML forbids).
public enum XMLReader {
    /// Elements nested deeper than this are refused (site lists nest three or four deep).
    public static let maximumDepth = 64

    /// The document's root element.
    public static func parse(_ bytes: [UInt8]) throws(XMLError) -> XMLElement {
        var scanner = XMLScanner(bytes: bytes)
        return try scanner.document()
    }
}

/// The reader's state: the bytes and the position in them, with line and column.
struct XMLScanner {
    let bytes: [UInt8]
    var offset = 0
    var line = 1
    var column = 1

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is allowed before the declaration.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    func error(_ message: String) -> XMLError { XMLError(line: line, column: column, message: message) }

    var atEnd: Bool { offset >= bytes.count }
    var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    func starts(with text: String) -> Bool {
        var index = offset
        for byte in text.utf8 {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where offset < bytes.count {
            if bytes[offset] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if bytes[offset] & 0xC0 != 0x80 {
                column += 1
            }
            offset += 1
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    mutating func skipSpace() {
        while let byte = current, Self.isSpace(byte) { advance() }
    }

    /// Skips to just past `terminator`; an error naming `what` when the file ends first.
    mutating func skip(past terminator: String, what: String) throws(XMLError) {
        let start = error("")
        while !atEnd {
            if starts(with: terminator) {
                advance(terminator.utf8.count)
                return
            }
            advance()
        }
        throw XMLError(line: start.line, column: start.column, message: "\(what) is not closed (no \(terminator) before the end of the file)")
    }

    /// The declaration, comments, processing instructions and space outside the root.
    mutating func skipMisc() throws(XMLError) {
        while true {
            skipSpace()
            if starts(with: "<?") { try skip(past: "?>", what: "the processing instruction") }
            else if starts(with: "<!--") { try skip(past: "-->", what: "the comment") }
            else if starts(with: "<!DOCTYPE") || starts(with: "<!doctype") {
                throw error("a DOCTYPE is not accepted in a site list (no entity is expanded, nothing is fetched); remove it")
            } else { return }
        }
    }

    mutating func document() throws(XMLError) -> XMLElement {
        try skipMisc()
        guard current == UInt8(ascii: "<") else {
            throw atEnd ? error("the file holds no XML element") : error("expected the root element (\"<\"), found text")
        }
        let root = try element(depth: 1)
        try skipMisc()
        guard atEnd else { throw error("content after the root element <\(root.name)> ends") }
        return root
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"):
            return true
        default:
            return byte >= 0x80
        }
    }

    mutating func name(_ what: String) throws(XMLError) -> String {
        let start = offset
        while let byte = current, Self.isNameByte(byte) { advance() }
        guard offset > start else { throw error("expected \(what)") }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }
}

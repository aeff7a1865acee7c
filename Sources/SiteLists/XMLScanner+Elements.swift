/// Elements, attributes, text and references.
extension XMLScanner {
    /// One element from its `<` to the end of its end tag.
    mutating func element(depth: Int) throws(XMLError) -> XMLElement {
        guard depth <= XMLReader.maximumDepth else { throw error("elements nest deeper than \(XMLReader.maximumDepth) levels") }
        let startLine = line, startColumn = column
        advance()  // <
        let tag = try name("an element name after \"<\"")
        var element = XMLElement(name: tag, attributes: [], children: [], text: "", line: startLine, column: startColumn)
        while true {
            let hadSpace = current.map(Self.isSpace) ?? false
            skipSpace()
            guard let byte = current else { throw error("the start tag <\(tag)> is not closed before the end of the file") }
            if byte == UInt8(ascii: "/") {
                advance()
                guard current == UInt8(ascii: ">") else { throw error("expected \">\" after \"/\" in <\(tag)>") }
                advance()
                return element
            }
            if byte == UInt8(ascii: ">") {
                advance()
                break
            }
            guard hadSpace else { throw error("expected a space, \">\" or \"/>\" in <\(tag)>") }
            let attributeName = try name("an attribute name in <\(tag)>")
            if element.attributes.contains(where: { $0.name == attributeName }) {
                throw error("attribute \(attributeName) is given twice in <\(tag)>")
            }
            skipSpace()
            guard current == UInt8(ascii: "=") else { throw error("expected \"=\" after attribute \(attributeName) in <\(tag)>") }
            advance()
            skipSpace()
            element.attributes.append((attributeName, try quotedValue(attributeName)))
        }
        var text: [UInt8] = []
        while true {
            guard let byte = current else { throw XMLError(line: startLine, column: startColumn, message: "<\(tag)> is not closed (no </\(tag)> before the end of the file)") }
            if byte == UInt8(ascii: "<") {
                if starts(with: "</") {
                    let at = error("")
                    advance(2)
                    let closing = try name("an element name after \"</\"")
                    guard closing == tag else {
                        throw XMLError(line: at.line, column: at.column, message: "</\(closing)> closes <\(tag)> (opened at line \(startLine)); expected </\(tag)>")
                    }
                    skipSpace()
                    guard current == UInt8(ascii: ">") else { throw error("expected \">\" to end </\(tag)") }
                    advance()
                    element.text = String(decoding: text, as: UTF8.self)
                    return element
                } else if starts(with: "<!--") {
                    try skip(past: "-->", what: "the comment")
                } else if starts(with: "<![CDATA[") {
                    advance(9)
                    let start = offset
                    while !atEnd, !starts(with: "]]>") { advance() }
                    guard !atEnd else { throw error("a CDATA section is not closed (no ]]> before the end of the file)") }
                    text += bytes[start..<offset]
                    advance(3)
                } else if starts(with: "<?") {
                    try skip(past: "?>", what: "the processing instruction")
                } else if starts(with: "<!") {
                    throw error("unexpected \"<!\" inside <\(tag)> (only comments and CDATA sections are read)")
                } else {
                    element.children.append(try self.element(depth: depth + 1))
                }
            } else if byte == UInt8(ascii: "&") {
                text += try reference()
            } else {
                text.append(byte)
                advance()
            }
        }
    }

    /// A quoted attribute value, references replaced.
    mutating func quotedValue(_ attribute: String) throws(XMLError) -> String {
        guard let quote = current, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error("the value of attribute \(attribute) must be quoted")
        }
        advance()
        var value: [UInt8] = []
        while true {
            guard let byte = current else { throw error("the value of attribute \(attribute) is not closed") }
            if byte == quote {
                advance()
                return String(decoding: value, as: UTF8.self)
            }
            if byte == UInt8(ascii: "<") { throw error("\"<\" is not allowed in the value of attribute \(attribute) (write &lt;)") }
            if byte == UInt8(ascii: "&") { value += try reference() } else {
                value.append(byte)
                advance()
            }
        }
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` or `&#xH;`, as UTF-8.
    mutating func reference() throws(XMLError) -> [UInt8] {
        let at = error("")
        advance()  // &
        let start = offset
        while let byte = current, byte != UInt8(ascii: ";"), offset - start < 12 { advance() }
        guard current == UInt8(ascii: ";") else {
            throw XMLError(line: at.line, column: at.column, message: "\"&\" starts no reference (write &amp; for a literal &)")
        }
        let name = String(decoding: bytes[start..<offset], as: UTF8.self)
        advance()
        switch name {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var digits = Substring(name)
            guard digits.first == "#" else {
                throw XMLError(line: at.line, column: at.column, message: "unknown entity &\(name); (only &amp; &lt; &gt; &quot; &apos; and &#N; are defined)")
            }
            digits = digits.dropFirst()
            let hex = digits.first == "x"
            if hex { digits = digits.dropFirst() }
            guard let code = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(code), code != 0 else {
                throw XMLError(line: at.line, column: at.column, message: "&\(name); is not a valid character reference")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }
}

/// One address of a mailto's recipient lists (RFC 6068's `addr-spec`, or `Name <addr-spec>` as
/// links often carry): split from its list, checked, and its domain read as hosts are.
enum MailAddress {
    /// The items of a decoded, comma-separated list: split at commas outside a quoted string
    /// (`"a,b"@example.org` is one address), spaces and tabs around each trimmed, empty ones
    /// dropped.
    static func split(_ list: [UInt8]) -> [ArraySlice<UInt8>] {
        var items: [ArraySlice<UInt8>] = []
        var start = 0
        var inQuotes = false, escaped = false
        for i in 0...list.count {
            if i == list.count || (list[i] == UInt8(ascii: ",") && !inQuotes && !escaped) {
                let item = trimmed(list[start..<i])
                if !item.isEmpty { items.append(item) }
                start = i + 1
                continue
            }
            let byte = list[i]
            if escaped { escaped = false } else if inQuotes, byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
        }
        return items
    }

    /// True when `address` opens a quoted string it does not close (as `split` reads quotes).
    static func hasUnbalancedQuote(_ address: String) -> Bool {
        var inQuotes = false, escaped = false
        for byte in address.utf8 {
            if escaped { escaped = false } else if inQuotes, byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
        }
        return inQuotes
    }

    /// The display and ASCII forms of `item`, or why it is no address.
    static func read(_ item: ArraySlice<UInt8>) -> Result<(display: String, ascii: String), URLParseError> {
        let text = String(decoding: item, as: UTF8.self)
        if let control = item.first(where: { $0 < 0x20 || $0 == 0x7F }) {
            return .failure(URLParseError(message: controlMessage(control, shown: text.debugDescription)))
        }
        let spec = inBrackets(item) ?? item
        guard let at = lastOutsideQuotes(UInt8(ascii: "@"), in: spec), at + 1 < spec.endIndex,
              spec[at + 1] != UInt8(ascii: "[") else {
            // No domain, or an address literal (`[192.0.2.1]`): nothing to map.
            return .success((text, text))
        }
        let before = String(decoding: item[item.startIndex...at], as: UTF8.self)
        let after = String(decoding: item[spec.endIndex...], as: UTF8.self)
        // The common domain (letters, digits, `-`, `.`, no `xn--`) only needs lowercasing.
        if let plain = HostParser.plainHost(spec[(at + 1)...]) {
            if URLParts.same(plain, spec[(at + 1)...]) { return .success((text, text)) }
            let address = before + plain + after
            return .success((address, address))
        }
        let domain = Array(spec[(at + 1)...])
        guard let domainText = String(validating: domain, as: UTF8.self) else {
            return .failure(URLParseError(message: "mailto recipient \(text.debugDescription) has a domain that is not UTF-8"))
        }
        let ascii: String
        do {
            ascii = try HostParser.domainToASCII(domainText, decoded: domain, shown: domainText)
        } catch {
            return .failure(URLParseError(message: "mailto recipient \(text.debugDescription) has no valid domain: \(error.message)"))
        }
        return .success((before + HostParser.toUnicode(ascii) + after, before + ascii + after))
    }

    /// The `addr-spec` of `Name <addr-spec>`, or nil when `address` is not written that way.
    static func addrSpec(_ address: String) -> String? {
        let bytes = Array(address.utf8)
        guard let spec = inBrackets(bytes[...]).map(trimmed), !spec.isEmpty else { return nil }
        return String(decoding: spec, as: UTF8.self)
    }

    /// What `Name <…>` holds between its last `<` outside quotes and its final `>`.
    private static func inBrackets(_ item: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard item.last == UInt8(ascii: ">"), let open = lastOutsideQuotes(UInt8(ascii: "<"), in: item) else { return nil }
        return item[(open + 1)..<(item.endIndex - 1)]
    }

    private static func controlMessage(_ byte: UInt8, shown: String) -> String {
        switch byte {
        case 0x0D, 0x0A:
            return "mailto recipient \(shown) holds a line break (CR or LF) once decoded: no address can, "
                + "and a mailer could read what follows as another header (a hidden Bcc)"
        case 0x00:
            return "mailto recipient \(shown) holds a NUL byte once decoded: no address can, and a program could stop reading there"
        default:
            return "mailto recipient \(shown) holds the control character \(HostParser.describe(byte)) once decoded: no address can"
        }
    }

    /// `bytes` less spaces and tabs at both ends.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return [] }
        return bytes[first...last]
    }

    /// The index of the last `byte` outside a quoted string.
    private static func lastOutsideQuotes(_ byte: UInt8, in bytes: ArraySlice<UInt8>) -> Int? {
        // Through a buffer: the slice's checked subscripts were ~20 instructions a byte.
        bytes.withUnsafeBufferPointer { buffer in
            var inQuotes = false
            var found: Int? = nil
            var escaped = false
            for i in 0..<buffer.count {
                let b = buffer[i]
                if escaped { escaped = false; continue }
                if inQuotes, b == UInt8(ascii: "\\") { escaped = true; continue }
                if b == UInt8(ascii: "\"") { inQuotes.toggle() } else if b == byte, !inQuotes { found = bytes.startIndex + i }
            }
            return found
        }
    }
}

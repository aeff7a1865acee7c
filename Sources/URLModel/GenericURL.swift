/// The reading of URLs whose scheme is not special (mailto, app schemes, file): their text is
/// kept as written, with the scheme and host lowercased, the host checked, a default port
/// dropped, and spaces and controls percent-encoded so none reaches an app.
extension URLParts {
    /// An optional `//authority`, then the path up to `?`, the query up to `#`, the fragment.
    mutating func parseGeneric(_ afterScheme: ArraySlice<UInt8>) throws(URLParseError) {
        var rest = afterScheme
        hasAuthority = rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")])
        if hasAuthority {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? rest.endIndex
            try parseAuthority(rest[rest.startIndex..<end])
            rest = rest[end...]
        }
        let queryStart = rest.firstIndex(of: UInt8(ascii: "?"))
        let fragmentStart = rest.firstIndex(of: UInt8(ascii: "#"))
        let pathEnd = min(queryStart ?? rest.endIndex, fragmentStart ?? rest.endIndex)
        path = encodeSpacesAndControls(rest[rest.startIndex..<pathEnd])
        if let fragmentStart { fragment = encodeSpacesAndControls(rest[(fragmentStart + 1)...]) }
        if let queryStart, queryStart < (fragmentStart ?? rest.endIndex) {
            query = encodeSpacesAndControls(rest[(queryStart + 1)..<(fragmentStart ?? rest.endIndex)])
        }
    }

    private mutating func parseAuthority(_ authority: ArraySlice<UInt8>) throws(URLParseError) {
        var hostPart = authority
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            userinfo = encodeSpacesAndControls(authority[authority.startIndex..<at])
            hostPart = authority[(at + 1)...]
        }
        var portPart: ArraySlice<UInt8>? = nil
        if hostPart.first == UInt8(ascii: "[") {
            guard let close = hostPart.firstIndex(of: UInt8(ascii: "]")) else {
                throw URLParseError(message: "IPv6 host is missing its closing ]")
            }
            let after = hostPart[(close + 1)...]
            if after.first == UInt8(ascii: ":") { portPart = after.dropFirst() } else if !after.isEmpty {
                throw URLParseError(message: "unexpected text after the IPv6 host")
            }
            hostPart = hostPart[hostPart.startIndex...close]
        } else if let colon = hostPart.firstIndex(of: UInt8(ascii: ":")) {
            // The first colon, as the URL Standard reads it: `a:b:c` is host a, port "b:c".
            portPart = hostPart[(colon + 1)...]
            hostPart = hostPart[hostPart.startIndex..<colon]
        }
        if let portPart, !portPart.isEmpty {
            guard portPart.count <= 5, portPart.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let value = Int(String(decoding: portPart, as: UTF8.self)), value <= 65535 else {
                throw URLParseError(message: "invalid port \"\(String(decoding: portPart, as: UTF8.self))\" (expected a number from 0 to 65535)")
            }
            port = Self.defaultPorts[scheme] == value ? nil : value
            if port == nil || String(value) != String(decoding: portPart, as: UTF8.self) { rewritten = true }
        } else if portPart != nil {
            rewritten = true
        }
        if hostPart.first == UInt8(ascii: "[") {
            // An IPv6 literal is one for every scheme: parsed and compressed as browsers do.
            host = try HostParser.parse(hostPart)
            unicodeHost = host
            if !hostPart.elementsEqual(host.utf8) { rewritten = true }
            return
        }
        guard hostPart.count <= HostParser.maximumInputLength else {
            throw URLParseError(message: "host is \(hostPart.count) bytes long; the limit is \(HostParser.maximumInputLength)")
        }
        if hostPart.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "%") }) {
            // The common case: an ASCII host, checked and lowercased byte by byte.
            if let bad = hostPart.first(where: Self.isForbiddenInHost) {
                throw URLParseError(message: "invalid host \"\(String(decoding: hostPart, as: UTF8.self))\": it contains \(HostParser.describe(bad))")
            }
            host = String(decoding: hostPart, as: UTF8.self)
            if hostPart.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) {
                rewritten = true
                host = host.lowercased()
            }
            unicodeHost = HostParser.hasPunycodeLabel(hostPart) ? Punycode.toUnicode(host: host) : host
            return
        }
        let shown = String(decoding: hostPart, as: UTF8.self)
        let decodedBytes = PercentEncoding.decodeBytes(Substring(shown))
        guard decodedBytes.count <= HostParser.maximumInputLength else {
            throw URLParseError(message: "host is \(decodedBytes.count) bytes long; the limit is \(HostParser.maximumInputLength)")
        }
        if let bad = decodedBytes.first(where: { Self.isForbiddenInHost($0) || HostParser.isForbiddenInDomain($0) }) {
            throw URLParseError(message: "invalid host \"\(shown)\": it contains \(HostParser.describe(bad))")
        }
        guard let decoded = String(validating: decodedBytes, as: UTF8.self) else {
            throw URLParseError(message: "invalid host \"\(shown)\": it is not UTF-8")
        }
        rewritten = true
        let lowered = decoded.lowercased()
        guard let ascii = Punycode.toASCII(host: lowered) else {
            throw URLParseError(message: "invalid host \"\(decoded)\": it cannot be encoded as an IDN")
        }
        // The ASCII form must itself be readable again (the input bound applies to it too).
        guard ascii.utf8.count <= HostParser.maximumInputLength else {
            throw URLParseError(message: "host is \(ascii.utf8.count) bytes long in ASCII form; the limit is \(HostParser.maximumInputLength)")
        }
        host = ascii
        unicodeHost = Punycode.toUnicode(host: ascii)
    }

    /// Bytes a host may not contain (checked per byte on every URL, so a switch, not a set):
    /// controls, which the URL Standard would percent-encode in an opaque host, are refused.
    private static func isForbiddenInHost(_ byte: UInt8) -> Bool {
        if byte < 0x20 || byte == 0x7F { return true }
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(ascii: "|"),
             UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "%"), UInt8(ascii: "/"),
             UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }

    /// `bytes` with spaces, C0 controls and DEL percent-encoded (non-ASCII is kept as written);
    /// sets `rewritten` when any was.
    private mutating func encodeSpacesAndControls(_ bytes: ArraySlice<UInt8>) -> String {
        let needsEncoding = { (byte: UInt8) in byte <= 0x20 || byte == 0x7F }
        guard bytes.contains(where: needsEncoding) else { return String(decoding: bytes, as: UTF8.self) }
        rewritten = true
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        for byte in bytes {
            if needsEncoding(byte) { URLTail.appendEscaped(byte, to: &out) } else { out.append(byte) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

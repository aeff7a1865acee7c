/// The URL Standard's reading of a special URL (http, https, ws, wss, ftp) after its scheme.
extension URLParts {
    /// Any run of `/` and `\`, the authority up to the next `/`, `\`, `?` or `#`, userinfo up to
    /// its last `@`, the host (`HostParser`), the port after the first `:` outside brackets,
    /// then the path, query and fragment states (`URLTail`).
    mutating func parseSpecial(_ afterScheme: ArraySlice<UInt8>) throws(URLParseError) {
        hasAuthority = true
        // `rewritten` is set wherever the serialisation would differ from the input, so that the
        // common already-normal URL keeps its text and is not serialised again.
        let rest = afterScheme.drop(while: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") })
        if rest.startIndex - afterScheme.startIndex != 2 || afterScheme.prefix(2).contains(UInt8(ascii: "\\")) { rewritten = true }
        let end = rest.firstIndex(where: {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        }) ?? rest.endIndex
        let authority = rest[rest.startIndex..<end]
        var hostAndPort = authority
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            let raw = authority[authority.startIndex..<at]
            userinfo = Self.serializeUserinfo(raw)
            if userinfo.map({ !Self.same($0, raw) }) ?? true { rewritten = true }
            hostAndPort = authority[(at + 1)...]
        }
        var inBrackets = false
        var portStart: Int? = nil
        for i in hostAndPort.indices {
            let byte = hostAndPort[i]
            if byte == UInt8(ascii: "[") { inBrackets = true } else if byte == UInt8(ascii: "]") { inBrackets = false }
            if byte == UInt8(ascii: ":"), !inBrackets { portStart = i; break }
        }
        let hostBytes = hostAndPort[hostAndPort.startIndex..<(portStart ?? hostAndPort.endIndex)]
        guard !hostBytes.isEmpty else {
            throw URLParseError(message: "\(scheme) URL has no host (expected \(scheme)://HOST/...)")
        }
        if let plain = HostParser.plainHost(hostBytes) {
            // No `xn--` label: the Unicode form is the same.
            host = plain
            unicodeHost = plain
        } else {
            host = try HostParser.parse(hostBytes)
            unicodeHost = HostParser.toUnicode(host)
        }
        if !Self.same(host, hostBytes) { rewritten = true }
        if let portStart { try parsePort(hostAndPort[(portStart + 1)...]) }
        let tail = URLTail.parse(rest[end...])
        path = tail.path
        query = tail.query
        fragment = tail.fragment
        if tail.changed { rewritten = true }
    }

    /// The port state: digits only, at most 65535, the scheme's default port dropped.
    private mutating func parsePort(_ digits: ArraySlice<UInt8>) throws(URLParseError) {
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw URLParseError(message: "invalid port \"\(String(decoding: digits, as: UTF8.self))\" (expected a number from 0 to 65535)")
        }
        guard !digits.isEmpty else { rewritten = true; return }
        var value = 0
        for digit in digits { value = min(value * 10 + Int(digit - 0x30), 1 << 20) }
        guard value <= 65535 else {
            throw URLParseError(message: "invalid port \"\(String(decoding: digits, as: UTF8.self))\" (expected a number from 0 to 65535)")
        }
        port = Self.defaultPorts[scheme] == value ? nil : value
        if port == nil || String(value) != String(decoding: digits, as: UTF8.self) { rewritten = true }
    }

    /// Userinfo as the URL Standard serialises it: username and password percent-encoded with
    /// its userinfo set, `:` only before a non-empty password, nil when both are empty.
    private static func serializeUserinfo(_ raw: ArraySlice<UInt8>) -> String? {
        let colon = raw.firstIndex(of: UInt8(ascii: ":"))
        let username = raw[raw.startIndex..<(colon ?? raw.endIndex)]
        let password = colon.map { raw[($0 + 1)...] } ?? []
        guard !username.isEmpty || !password.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        for byte in username { URLTail.append(byte, .userinfo, to: &out) }
        if !password.isEmpty {
            out.append(UInt8(ascii: ":"))
            for byte in password { URLTail.append(byte, .userinfo, to: &out) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

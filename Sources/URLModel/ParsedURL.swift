/// Why a string could not be taken as a URL.
public struct URLParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence saying what is wrong and, where possible, how to fix it.
    public var message: String
    /// The message.
    public var description: String { message }
}

/// A URL split into its RFC 3986 parts and normalised: scheme and host lowercased, default
/// ports dropped, IDN hosts in both Unicode and `xn--` form, spaces percent-encoded.
public struct ParsedURL: Sendable, Equatable {
    /// The longest URL accepted: 128 KiB less one byte, the longest argument (`MAX_ARG_STRLEN`
    /// with its NUL) an app can be started with. Longer URLs are refused before any other work.
    public static let maximumLength = 128 * 1024 - 1

    /// The schemes the WHATWG URL Standard calls special, whose hosts are parsed as browsers
    /// parse them (`HostParser`); `file` keeps the generic reading.
    public static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    /// The parts. Not boxed in a class (which would make copies one retain): with the struct
    /// down to one pointer, a typed throw from `init` over-released it in debug builds.
    private var parts: URLParts

    /// The scheme, lowercased (`https`).
    public var scheme: String { parts.scheme }
    /// True when the URL has an authority (`//host`).
    public var hasAuthority: Bool { parts.hasAuthority }
    /// The user information before `@`, as written.
    public var userinfo: String? { parts.userinfo }
    /// The host in ASCII form (IDN labels as `xn--`), lowercased; empty without a host.
    public var host: String { parts.host }
    /// The host with `xn--` labels decoded, for display and Unicode matchers.
    public var unicodeHost: String { parts.unicodeHost }
    /// The port when it is not the scheme's default.
    public var port: Int? { parts.port }
    /// The path as written (percent-escapes kept); `/` for an empty http(s) path.
    public var path: String { parts.path }
    /// The query without `?`, as written.
    public var query: String? { parts.query }
    /// The fragment without `#`, as written.
    public var fragment: String? { parts.fragment }
    /// The normalised URL.
    public var string: String { parts.string }

    /// The host as rules compare it: without the trailing dot of a fully qualified name
    /// (`example.org.` opens the same site as `example.org`).
    public var matchingHost: String { Self.withoutTrailingDot(host) }
    /// `unicodeHost` without a trailing dot.
    public var matchingUnicodeHost: String { Self.withoutTrailingDot(unicodeHost) }

    /// `host` less one trailing dot, unless that is all it is.
    package static func withoutTrailingDot(_ host: String) -> String {
        host.utf8.count > 1 && host.utf8.last == UInt8(ascii: ".") ? String(host.dropLast()) : host
    }

    /// A fixed URL standing in where one is needed but none is given.
    package static let placeholder: ParsedURL = {
        do { return try ParsedURL("https://example.invalid/") } catch { fatalError("placeholder URL must parse") }
    }()

    /// Parses and normalises `text`; leading and trailing spaces, tabs and line breaks are
    /// ignored, any other control character is refused. `http`, `https`, `ws`, `wss` and `ftp`
    /// URLs are read as the WHATWG URL Standard reads them (see `HostParser`), so the host
    /// rules see is the host a browser opens, and `string` is what a browser would open.
    public init(_ text: String) throws(URLParseError) {
        parts = URLParts()
        try parts.parse(text)
    }


    /// The query's parameters as `(name, value)`, percent-decoded (`+` as space).
    public var queryItems: [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(decoding: PercentEncoding.decodeBytes(parts[0], plusAsSpace: true), as: UTF8.self)
            let value = parts.count > 1 ? String(decoding: PercentEncoding.decodeBytes(parts[1], plusAsSpace: true), as: UTF8.self) : ""
            return (name, value)
        }
    }
}


/// The parts of a URL as `ParsedURL` reads them, and the parser that fills them in.
struct URLParts: Sendable, Equatable {
    /// The scheme, lowercased (`https`).
    var scheme: String = ""
    /// True when the URL has an authority (`//host`).
    var hasAuthority: Bool = false
    /// The user information before `@`, as written.
    var userinfo: String? = nil
    /// The host in ASCII form (IDN labels as `xn--`), lowercased; empty without a host.
    var host: String = ""
    /// The host with `xn--` labels decoded, for display and Unicode matchers.
    var unicodeHost: String = ""
    /// The port when it is not the scheme's default.
    var port: Int? = nil
    /// The path as written (percent-escapes kept); `/` for an empty http(s) path.
    var path: String = ""
    /// The query without `?`, as written.
    var query: String? = nil
    /// The fragment without `#`, as written.
    var fragment: String? = nil

    /// The normalised URL.
    var string: String = ""
    /// Set when normalising changed anything; otherwise the input already is the normal form
    /// and `string` is the input itself, with no re-serialising.
    var rewritten = false

    private func serialized() -> String {
        var out = scheme + ":"
        if hasAuthority {
            out += "//"
            if let userinfo { out += userinfo + "@" }
            out += host
            if let port { out += ":\(port)" }
        }
        out += path
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }

    /// `specialSchemes.contains(scheme)` without hashing (on every URL).
    private static func isSpecial(_ scheme: String) -> Bool {
        switch scheme {
        case "https", "http", "ws", "wss", "ftp": return true
        default: return false
        }
    }

    private static let defaultPorts: [String: Int] = ["http": 80, "https": 443, "ftp": 21, "ws": 80, "wss": 443]

    /// Parses `text` into these parts (`ParsedURL.init` says how).
    mutating func parse(_ text: String) throws(URLParseError) {
        guard text.utf8.count <= ParsedURL.maximumLength else {
            throw URLParseError(message:
                "URL is \(text.utf8.count) bytes long; the limit is \(ParsedURL.maximumLength) (128 KiB, the longest argument an app can be started with)")
        }
        var bytes = Array(text.utf8)
        let untrimmedCount = bytes.count
        while let last = bytes.last, Self.isTrimmedSpace(last) { bytes.removeLast() }
        let leading = bytes.prefix(while: Self.isTrimmedSpace).count
        bytes.removeFirst(leading)
        if bytes.count != untrimmedCount || bytes.contains(UInt8(ascii: " ")) { rewritten = true }
        guard !bytes.isEmpty else { throw URLParseError(message: "empty URL") }
        for (offset, byte) in bytes.enumerated() where (byte < 0x20 || byte == 0x7F) {
            let hex = String(byte, radix: 16, uppercase: true)
            let code = byte < 0x10 ? "0" + hex : hex
            throw URLParseError(message:
                "URL contains the control character U+00\(code) at byte \(offset); a URL must percent-encode it as %\(code)")
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, Self.isSchemeStart(bytes[0]),
              bytes[1..<colon].allSatisfy(Self.isSchemeByte) else {
            throw URLParseError(message: "not a URL: it has no scheme (expected something like https://example.org/)")
        }
        if bytes[..<colon].contains(where: { $0 >= 0x41 && $0 <= 0x5A }) {
            rewritten = true
            scheme = String(decoding: bytes[..<colon].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
        } else {
            scheme = String(decoding: bytes[..<colon], as: UTF8.self)
        }
        userinfo = nil
        port = nil
        host = ""
        unicodeHost = ""
        path = ""
        query = nil
        fragment = nil
        hasAuthority = false
        if Self.isSpecial(scheme) {
            try parseSpecial(bytes[(colon + 1)...])
            string = rewritten ? serialized() : text
            assert(string == serialized(), "ParsedURL: \(text) was taken as normal but serialises differently")
            return
        }
        var rest = bytes[(colon + 1)...]
        hasAuthority = rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")])
        if hasAuthority {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? rest.endIndex
            try parseAuthority(rest[rest.startIndex..<end])
            rest = rest[end...]
        }
        splitPathQueryFragment(rest)
        string = rewritten ? serialized() : text
    }

    /// True when `text`'s UTF-8 is `bytes` (on raw buffers: generic `elementsEqual` was slow).
    private static func same(_ text: String, _ bytes: ArraySlice<UInt8>) -> Bool {
        var text = text
        return text.withUTF8 { textBytes in
            bytes.withUnsafeBufferPointer { other in
                guard textBytes.count == other.count else { return false }
                for k in 0..<other.count where textBytes[k] != other[k] { return false }
                return true
            }
        }
    }

    /// Spaces, tabs and line breaks, which browsers also drop around a URL.
    private static func isTrimmedSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func splitPathQueryFragment(_ rest: ArraySlice<UInt8>) {
        let queryStart = rest.firstIndex(of: UInt8(ascii: "?"))
        let fragmentStart = rest.firstIndex(of: UInt8(ascii: "#"))
        let pathEnd = min(queryStart ?? rest.endIndex, fragmentStart ?? rest.endIndex)
        path = Self.encodeSpaces(rest[rest.startIndex..<pathEnd])
        if let fragmentStart {
            fragment = Self.encodeSpaces(rest[(fragmentStart + 1)...])
        } else {
            fragment = nil
        }
        if let queryStart, queryStart < (fragmentStart ?? rest.endIndex) {
            query = Self.encodeSpaces(rest[(queryStart + 1)..<(fragmentStart ?? rest.endIndex)])
        } else {
            query = nil
        }
    }

    /// The URL Standard's reading of a special URL after its scheme: any run of `/` and `\`,
    /// the authority up to the next `/`, `\`, `?` or `#`, userinfo up to its last `@`, the
    /// port after the first `:`, and `\` in the path read as `/`.
    private mutating func parseSpecial(_ afterScheme: ArraySlice<UInt8>) throws(URLParseError) {
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
            userinfo = Self.encodeUserinfo(authority[authority.startIndex..<at])
            if userinfo.map({ !Self.same($0, authority[authority.startIndex..<at]) }) ?? true { rewritten = true }
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
        if let portStart {
            let digits = hostAndPort[(portStart + 1)...]
            guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw URLParseError(message: "invalid port \"\(String(decoding: digits, as: UTF8.self))\" (expected a number from 0 to 65535)")
            }
            if !digits.isEmpty {
                var value = 0
                for digit in digits { value = min(value * 10 + Int(digit - 0x30), 1 << 20) }
                guard value <= 65535 else {
                    throw URLParseError(message: "invalid port \"\(String(decoding: digits, as: UTF8.self))\" (expected a number from 0 to 65535)")
                }
                port = Self.defaultPorts[scheme] == value ? nil : value
                if port == nil || String(value) != String(decoding: digits, as: UTF8.self) { rewritten = true }
            } else {
                rewritten = true
            }
        }
        let tail = rest[end...]
        let pathEnd = tail.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? tail.endIndex
        if tail[tail.startIndex..<pathEnd].contains(UInt8(ascii: "\\")) {
            // Copied only when there is a `\` to turn into `/`.
            var copy = Array(tail)
            for i in 0..<(pathEnd - tail.startIndex) where copy[i] == UInt8(ascii: "\\") { copy[i] = UInt8(ascii: "/") }
            splitPathQueryFragment(copy[...])
            rewritten = true
        } else {
            splitPathQueryFragment(tail)
        }
        if path.isEmpty {
            path = "/"
            rewritten = true
        }
    }

    /// Userinfo as the URL Standard serialises it: username and password percent-encoded with
    /// its userinfo set, `:` only before a non-empty password, nil when both are empty.
    private static func encodeUserinfo(_ raw: ArraySlice<UInt8>) -> String? {
        let colon = raw.firstIndex(of: UInt8(ascii: ":"))
        let username = raw[raw.startIndex..<(colon ?? raw.endIndex)]
        let password = colon.map { raw[($0 + 1)...] } ?? []
        guard !username.isEmpty || !password.isEmpty else { return nil }
        var out: [UInt8] = []
        func append(_ part: ArraySlice<UInt8>) {
            for byte in part {
                if isInUserinfoSet(byte) {
                    out += [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0xF)]
                } else {
                    out.append(byte)
                }
            }
        }
        append(username)
        if !password.isEmpty {
            out.append(UInt8(ascii: ":"))
            append(password)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x41 + value - 10 }

    /// The URL Standard's userinfo percent-encode set.
    private static func isInUserinfoSet(_ byte: UInt8) -> Bool {
        if byte <= 0x20 || byte > 0x7E { return true }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "#"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "`"),
             UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"):
            return true
        default:
            return false
        }
    }

    private mutating func parseAuthority(_ authority: ArraySlice<UInt8>) throws(URLParseError) {
        var hostPart = authority
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            userinfo = Self.encodeSpaces(authority[authority.startIndex..<at])
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
            throw URLParseError(message: "host is \(hostPart.count) bytes long; DNS allows \(HostParser.maximumNameLength)")
        }
        if hostPart.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "%") }) {
            // The common case: an ASCII host, checked and lowercased byte by byte.
            if let bad = hostPart.first(where: Self.isForbiddenInHost) {
                throw URLParseError(message: "invalid host \"\(String(decoding: hostPart, as: UTF8.self))\": it contains \"\(Character(Unicode.Scalar(bad)))\"")
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
            throw URLParseError(message: "host is \(decodedBytes.count) bytes long; DNS allows \(HostParser.maximumNameLength)")
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
            throw URLParseError(message: "host is \(ascii.utf8.count) bytes long in ASCII form; DNS allows \(HostParser.maximumNameLength)")
        }
        host = ascii
        unicodeHost = Punycode.toUnicode(host: ascii)
    }

    /// Bytes a host may not contain (checked per byte on every URL, so a switch, not a set).
    private static func isForbiddenInHost(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(ascii: "|"),
             UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "%"), UInt8(ascii: "/"),
             UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }

    private static func isSchemeStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isSchemeStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func encodeSpaces(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: " ")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        for byte in bytes {
            if byte == UInt8(ascii: " ") { out += [UInt8(ascii: "%"), UInt8(ascii: "2"), UInt8(ascii: "0")] } else { out.append(byte) }
        }
        return String(decoding: out, as: UTF8.self)
    }

}

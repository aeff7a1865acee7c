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
    /// The longest URL accepted, as in Chromium (2 MiB).
    public static let maximumLength = 2 * 1024 * 1024

    /// The scheme, lowercased (`https`).
    public private(set) var scheme: String
    /// True when the URL has an authority (`//host`).
    public private(set) var hasAuthority: Bool
    /// The user information before `@`, as written.
    public private(set) var userinfo: String?
    /// The host in ASCII form (IDN labels as `xn--`), lowercased; empty without a host.
    public private(set) var host: String
    /// The host with `xn--` labels decoded, for display and Unicode matchers.
    public private(set) var unicodeHost: String
    /// The port when it is not the scheme's default.
    public private(set) var port: Int?
    /// The path as written (percent-escapes kept); `/` for an empty http(s) path.
    public private(set) var path: String
    /// The query without `?`, as written.
    public private(set) var query: String?
    /// The fragment without `#`, as written.
    public private(set) var fragment: String?

    /// The normalised URL.
    public private(set) var string: String = ""
    /// Set when normalising changed anything; otherwise the input already is the normal form
    /// and `string` is the input itself, with no re-serialising.
    private var rewritten = false

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

    /// A fixed URL standing in where one is needed but none is given.
    static let placeholder: ParsedURL = {
        do { return try ParsedURL("https://example.invalid/") } catch { fatalError("placeholder URL must parse") }
    }()

    private static let defaultPorts: [String: Int] = ["http": 80, "https": 443, "ftp": 21, "ws": 80, "wss": 443]

    /// Parses and normalises `text`; leading and trailing spaces are ignored.
    public init(_ text: String) throws(URLParseError) {
        var bytes = Array(text.utf8)
        let untrimmedCount = bytes.count
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        let leading = bytes.prefix(while: { $0 <= 0x20 }).count
        bytes.removeFirst(leading)
        if bytes.count != untrimmedCount || bytes.contains(UInt8(ascii: " ")) { rewritten = true }
        guard !bytes.isEmpty else { throw URLParseError(message: "empty URL") }
        guard bytes.count <= Self.maximumLength else {
            throw URLParseError(message: "URL is \(bytes.count) bytes long; the limit is \(Self.maximumLength)")
        }
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
        scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        if bytes[..<colon].contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { rewritten = true }
        var rest = bytes[(colon + 1)...]
        userinfo = nil
        port = nil
        host = ""
        unicodeHost = ""
        path = ""
        query = nil
        fragment = nil
        hasAuthority = rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")])
        if hasAuthority {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? rest.endIndex
            try parseAuthority(rest[rest.startIndex..<end])
            rest = rest[end...]
        }
        let queryStart = rest.firstIndex(of: UInt8(ascii: "?"))
        let fragmentStart = rest.firstIndex(of: UInt8(ascii: "#"))
        let pathEnd = [queryStart, fragmentStart].compactMap { $0 }.min() ?? rest.endIndex
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
        if (scheme == "http" || scheme == "https") {
            guard hasAuthority, !host.isEmpty else {
                throw URLParseError(message: "\(scheme) URL has no host (expected \(scheme)://HOST/...)")
            }
            if path.isEmpty {
                path = "/"
                rewritten = true
            }
        }
        string = rewritten ? serialized() : text
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
        } else if let colon = hostPart.lastIndex(of: UInt8(ascii: ":")) {
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
            unicodeHost = Self.hasPunycodeLabel(hostPart) ? Punycode.toUnicode(host: host) : host
            return
        }
        let decoded = String(decoding: PercentEncoding.decodeBytes(Substring(String(decoding: hostPart, as: UTF8.self))), as: UTF8.self)
        if let bad = decoded.utf8.first(where: Self.isForbiddenInHost) {
            throw URLParseError(message: "invalid host \"\(decoded)\": it contains \"\(Character(Unicode.Scalar(bad)))\"")
        }
        rewritten = true
        let lowered = decoded.lowercased()
        guard let ascii = Punycode.toASCII(host: lowered) else {
            throw URLParseError(message: "invalid host \"\(decoded)\": it cannot be encoded as an IDN")
        }
        host = ascii
        unicodeHost = Punycode.toUnicode(host: ascii)
    }

    /// True when some label starts with `xn--` (any case).
    private static func hasPunycodeLabel(_ host: ArraySlice<UInt8>) -> Bool {
        var atLabelStart = true
        var i = host.startIndex
        while i < host.endIndex {
            if atLabelStart, host.endIndex - i >= 4, host[i] | 0x20 == UInt8(ascii: "x"), host[i + 1] | 0x20 == UInt8(ascii: "n"),
               host[i + 2] == UInt8(ascii: "-"), host[i + 3] == UInt8(ascii: "-") { return true }
            atLabelStart = host[i] == UInt8(ascii: ".")
            i += 1
        }
        return false
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

import Platform

/// Why a string could not be taken as a URL.
public struct URLParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence saying what is wrong and, where possible, how to fix it.
    public var message: String
    /// The message.
    public var description: String { message }
}

/// A URL split into its parts and normalised. `http`, `https`, `ws`, `wss` and `ftp` URLs are
/// read and serialised as the WHATWG URL Standard does (the URL a browser opens); other schemes
/// keep their text, with scheme and host lowercased and spaces and controls percent-encoded.
public struct ParsedURL: Sendable, Equatable {
    /// The longest URL accepted: 128 KiB less one byte, the longest argument (`MAX_ARG_STRLEN`
    /// with its NUL) an app can be started with. Longer URLs, given or once percent-encoded,
    /// are refused.
    public static let maximumLength = 128 * 1024 - 1

    /// The schemes the WHATWG URL Standard calls special, whose hosts are parsed as browsers
    /// parse them (`HostParser`); `file` keeps the generic reading.
    public static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    /// The parts, shared by copies: a URL is copied several times a click (the decision's
    /// phases, the match subject, the trace), and a copy of ten strings and their releases was
    /// ~2.6k instructions a click. `init` parses into a local first and throws before `storage`
    /// is set: a typed throw after it was set over-released it in debug builds.
    private let storage: Storage

    private final class Storage: Sendable {
        let parts: URLParts
        init(_ parts: URLParts) { self.parts = parts }
    }

    private init(parts: URLParts) { storage = Storage(parts) }

    /// The same parts, compared by value.
    public static func == (lhs: ParsedURL, rhs: ParsedURL) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.parts == rhs.storage.parts
    }

    /// The scheme, lowercased (`https`).
    public var scheme: String { storage.parts.scheme }
    /// True when the URL has an authority (`//host`).
    public var hasAuthority: Bool { storage.parts.hasAuthority }
    /// The user information before `@`, percent-encoded; nil when there is none.
    public var userinfo: String? { storage.parts.userinfo }
    /// The host in ASCII form (IDN labels as `xn--`), lowercased; empty without a host.
    public var host: String { storage.parts.host }
    /// The host with `xn--` labels decoded, for display and Unicode matchers.
    public var unicodeHost: String { storage.parts.unicodeHost }
    /// The port when it is not the scheme's default.
    public var port: Int? { storage.parts.port }
    /// The path: for special schemes as the URL Standard serialises it (never a `.` or `..`
    /// segment, `\` read as `/`, percent-encoded); for others as written. `/` at least for http(s).
    public var path: String { storage.parts.path }
    /// The query without `?`, percent-encoded like the path.
    public var query: String? { storage.parts.query }
    /// The fragment without `#`, percent-encoded like the path.
    public var fragment: String? { storage.parts.fragment }
    /// The normalised URL: for special schemes, the URL Standard's `href`.
    public var string: String { storage.parts.string }

    /// The host as rules compare it: without the trailing dot of a fully qualified name
    /// (`example.org.` opens the same site as `example.org`).
    public var matchingHost: String { Self.withoutTrailingDot(host) }
    /// `unicodeHost` without a trailing dot.
    public var matchingUnicodeHost: String { Self.withoutTrailingDot(unicodeHost) }

    /// `host` less one trailing dot, unless that is all it is.
    package static func withoutTrailingDot(_ host: String) -> String {
        // The last byte read in place: `utf8.last` took the generic collection path (~110
        // instructions, and a click asks for the host this way three times).
        var text = host
        let trailingDot = text.withUTF8 { $0.count > 1 && $0[$0.count - 1] == UInt8(ascii: ".") }
        return trailingDot ? String(host.dropLast()) : host
    }

    /// A fixed URL standing in where one is needed but none is given.
    package static let placeholder: ParsedURL = {
        do { return try ParsedURL("https://example.invalid/") } catch { fatalError("placeholder URL must parse") }
    }()

    /// Parses and normalises `text`. As the URL Standard says: C0 controls and spaces around
    /// it are trimmed and tabs and line breaks inside it removed; other controls are
    /// percent-encoded, and refused in a host. `http`, `https`, `ws`, `wss` and `ftp` URLs are
    /// read as the URL Standard reads them (see `HostParser` and `URLTail`), so the URL rules
    /// see is the URL a browser opens, and `string` is what a browser would open.
    public init(_ text: String) throws(URLParseError) {
        var parts = URLParts()
        try parts.parse(text)
        storage = Storage(parts)
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

/// The parts of a URL as `ParsedURL` reads them, and the parser that fills them in
/// (special schemes in `SpecialURL.swift`, the others in `GenericURL.swift`).
struct URLParts: Sendable, Equatable {
    /// The scheme, lowercased (`https`).
    var scheme: String = ""
    /// True when the URL has an authority (`//host`).
    var hasAuthority: Bool = false
    /// The user information before `@`, percent-encoded.
    var userinfo: String? = nil
    /// The host in ASCII form (IDN labels as `xn--`), lowercased; empty without a host.
    var host: String = ""
    /// The host with `xn--` labels decoded, for display and Unicode matchers.
    var unicodeHost: String = ""
    /// The port when it is not the scheme's default.
    var port: Int? = nil
    /// The path, serialised.
    var path: String = ""
    /// The query without `?`, serialised.
    var query: String? = nil
    /// The fragment without `#`, serialised.
    var fragment: String? = nil

    /// The normalised URL.
    var string: String = ""
    /// Set when normalising changed anything; otherwise the input already is the normal form
    /// and `string` is the input itself, with no re-serialising.
    var rewritten = false

    func serialized() -> String {
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
    static func isSpecial(_ scheme: String) -> Bool {
        switch scheme {
        case "https", "http", "ws", "wss", "ftp": return true
        default: return false
        }
    }

    static let defaultPorts: [String: Int] = ["http": 80, "https": 443, "ftp": 21, "ws": 80, "wss": 443]

    /// Parses `text` into these parts (`ParsedURL.init` says how).
    mutating func parse(_ text: String) throws(URLParseError) {
        guard text.utf8.count <= ParsedURL.maximumLength else {
            throw URLParseError(message:
                "URL is \(text.utf8.count) bytes long; the limit is \(ParsedURL.maximumLength) (128 KiB, the longest argument an app can be started with)")
        }
        var bytes = Self.preprocessed(text, rewritten: &rewritten)
        guard !bytes.isEmpty else { throw URLParseError(message: "empty URL") }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, Self.isSchemeStart(bytes[0]),
              bytes[1..<colon].allSatisfy(Self.isSchemeByte) else {
            throw URLParseError(message: "not a URL: it has no scheme (expected something like https://example.org/)")
        }
        if bytes[..<colon].contains(where: { $0 >= 0x41 && $0 <= 0x5A }) {
            rewritten = true
            for i in 0..<colon where bytes[i] >= 0x41 && bytes[i] <= 0x5A { bytes[i] += 32 }
        }
        scheme = String(decoding: bytes[..<colon], as: UTF8.self)
        if Self.isSpecial(scheme) {
            try parseSpecial(bytes[(colon + 1)...])
        } else {
            try parseGeneric(bytes[(colon + 1)...])
        }
        string = rewritten ? serialized() : text
        assert(string == serialized(), "ParsedURL: \(text) was taken as normal but serialises differently")
        guard string.utf8.count <= ParsedURL.maximumLength else {
            throw URLParseError(message:
                "URL is \(string.utf8.count) bytes long once percent-encoded; the limit is \(ParsedURL.maximumLength) (128 KiB, the longest argument an app can be started with)")
        }
    }

    /// The URL Standard's clean-up of its input: leading and trailing C0 controls and spaces
    /// trimmed, ASCII tabs and newlines removed wherever they are (browsers do the same, so the
    /// URL handed on is the one they would open). Sets `rewritten` when anything went.
    private static func preprocessed(_ text: String, rewritten: inout Bool) -> [UInt8] {
        var text = text
        return text.withUTF8 { input -> [UInt8] in
            var start = 0, end = input.count
            while start < end, input[start] <= 0x20 { start += 1 }
            while end > start, input[end - 1] <= 0x20 { end -= 1 }
            // Three memchr calls: a byte loop testing the three was ~5 instructions a byte of
            // every link parsed.
            let kept = UnsafeBufferPointer(rebasing: input[start..<end])
            let hasTabOrNewline = kept.index(of: 0x0A, from: 0) < kept.count || kept.index(of: 0x09, from: 0) < kept.count
                || kept.index(of: 0x0D, from: 0) < kept.count
            if start != 0 || end != input.count || hasTabOrNewline { rewritten = true }
            guard hasTabOrNewline else { return Array(UnsafeBufferPointer(rebasing: input[start..<end])) }
            var out: [UInt8] = []
            out.reserveCapacity(end - start)
            for i in start..<end where input[i] != 0x09 && input[i] != 0x0A && input[i] != 0x0D { out.append(input[i]) }
            return out
        }
    }

    /// True when `text`'s UTF-8 is `bytes` (on raw buffers: generic `elementsEqual` was slow).
    static func same(_ text: String, _ bytes: ArraySlice<UInt8>) -> Bool {
        var text = text
        return text.withUTF8 { textBytes in bytes.withUnsafeBufferPointer { textBytes.isEqual(to: $0) } }
    }

    private static func isSchemeStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isSchemeStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}

extension ParsedURL {
    /// `text` read as this URL with another query, without parsing it again, when `text` is
    /// this URL's scheme, authority and path followed by a query already in serialised form and
    /// this URL's own fragment: what cleaning tracking parameters makes of a link. Nil for any
    /// other `text`, which must then be parsed. Parsing the cleaned link again was ~4k
    /// instructions of every cleaned click.
    public func replacingQuery(withTextOf text: String) -> ParsedURL? {
        let parts = storage.parts
        let tailCount = (parts.query.map { $0.utf8.count + 1 } ?? 0) + (parts.fragment.map { $0.utf8.count + 1 } ?? 0)
        let headCount = parts.string.utf8.count - tailCount
        var given = text, own = parts.string, fragment = parts.fragment
        // Over the bytes: the UTF-8 views' generic slices cost as much as the parse saved.
        let query: String?? = given.withUTF8 { bytes -> String?? in
            guard headCount > 0, bytes.count >= headCount, bytes.count <= Self.maximumLength,
                  own.withUTF8({ $0.part(0..<headCount).isEqual(to: bytes.part(0..<headCount)) }) else { return nil }
            var at = headCount
            var query: String?
            if at < bytes.count, bytes[at] == UInt8(ascii: "?") {
                at += 1
                let start = at
                while at < bytes.count, bytes[at] != UInt8(ascii: "#") {
                    // Bytes the parser would percent-encode send the text to it.
                    let byte = bytes[at]
                    if byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<")
                        || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "'") { return nil }
                    at += 1
                }
                query = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
            }
            let rest = UnsafeBufferPointer(rebasing: bytes[at...])
            if fragment == nil {
                guard rest.isEmpty else { return nil }
            } else {
                guard rest.first == UInt8(ascii: "#"),
                      fragment?.withUTF8({ $0.isEqual(to: rest.part(1..<rest.count)) }) == true
                else { return nil }
            }
            return .some(query)
        }
        guard let query else { return nil }
        var replaced = parts
        replaced.query = query
        replaced.string = text
        replaced.rewritten = false
        return ParsedURL(parts: replaced)
    }
}

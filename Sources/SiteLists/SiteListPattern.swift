import URLModel

/// One site-list pattern, read as Chrome's Legacy Browser Support reads Enterprise Mode lists
/// (`BrowserSwitcherParsingMode` = IESiteListMode, the mode "more compatible with Microsoft
/// IE/Edge enterprise mode sitelists"):
///
/// - `example.com` is the host and every subdomain of it (never `notexample.com`);
/// - `example.com/path` also needs the path to start with `/path` (ASCII case ignored);
/// - `example.com:8080` also needs that port; `http://…` or `https://…` also that scheme;
/// - `!` in front inverts it (an exception: the longer pattern wins); `*` is every URL;
/// - a user name, password, query or fragment in a pattern is ignored, as Edge ignores them.
///
/// Of all patterns that match, the longest as written decides (`priority`), as Chrome decides.
public struct SiteListPattern: Sendable, Equatable {
    /// The pattern as written (with its `!`), for messages and the trace.
    public var text: String
    /// `!pattern`: an exception, the site does not switch.
    public var inverted: Bool
    /// `*`: every URL.
    public var isWildcard: Bool
    /// `http` or `https` when the pattern names one.
    public var scheme: String?
    /// The host, lowercased ASCII (Punycode), without a trailing dot.
    public var host: String
    /// The port, when the pattern names one.
    public var port: Int?
    /// The path prefix, lowercased ASCII, at least `/`.
    public var path: String
    /// The length of the pattern as written: of several that match, the longest wins.
    public var priority: Int

    /// Why a pattern cannot be read.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong.
        public var description: String
    }

    /// Reads `written` (surrounding spaces already trimmed).
    public init(_ written: String) throws(Problem) {
        text = written
        priority = written.utf8.count
        inverted = written.hasPrefix("!")
        var rest = Substring(inverted ? String(written.dropFirst()) : written)
        isWildcard = rest == "*" && !inverted
        scheme = nil
        host = ""
        port = nil
        path = "/"
        if isWildcard { return }
        guard !rest.isEmpty else { throw Problem(description: inverted ? "\"!\" must be followed by a site" : "empty pattern") }
        // One leading slash is dropped, as Chrome drops it (Edge reads "//host" as a file URL).
        if rest.hasPrefix("/"), !rest.hasPrefix("//") { rest = rest.dropFirst() }
        var url = String(rest)
        if let separator = Self.schemeSeparator(in: url) {
            let given = url[..<separator].lowercased()
            guard given == "http" || given == "https" else {
                throw Problem(description: "\"\(given)://\" patterns are not routed: a site list names http and https sites (or none, for both)")
            }
            scheme = given
        } else if url.contains("*") {
            throw Problem(description: "wildcards are not part of site-list patterns (only \"*\" alone, for every URL); list the domain, which includes its subdomains")
        } else {
            url = "http://" + url
        }
        let parsed: ParsedURL
        do { parsed = try ParsedURL(url) } catch {
            throw Problem(description: "not a site: \(error.message)")
        }
        guard !parsed.matchingHost.isEmpty else { throw Problem(description: "no host in the pattern") }
        host = parsed.matchingHost
        port = parsed.port
        path = parsed.path.isEmpty ? "/" : Self.asciiLowercased(parsed.path)
    }

    /// Whether the pattern holds for a URL's parts (`host` as `ParsedURL.matchingHost`, `path`
    /// as it is); `defaultPort` is the scheme's, for a pattern that names a port.
    public func matches(scheme urlScheme: String, host urlHost: String, port urlPort: Int?, path urlPath: String) -> Bool {
        if isWildcard { return true }
        if let scheme, scheme != urlScheme { return false }
        guard Self.host(urlHost, isWithin: host) else { return false }
        if let port, port != (urlPort ?? Self.defaultPort(urlScheme)) { return false }
        return Self.hasPrefixIgnoringASCIICase(urlPath, path)
    }

    /// Where `://` starts, when the text before it could be a scheme.
    static func schemeSeparator(in text: String) -> String.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == ":" { return text[index...].hasPrefix("://") && index != text.startIndex ? index : nil }
            guard character.isASCII, character.isLetter || character.isNumber || "+-.".contains(character) else { return nil }
            index = text.index(after: index)
        }
        return nil
    }

    static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    /// True for `domain` itself or any subdomain of it; never for `notdomain`.
    static func host(_ host: String, isWithin domain: String) -> Bool {
        let h = host.utf8, d = domain.utf8
        guard h.count >= d.count, h.elementsEqual(d) || h.suffix(d.count).elementsEqual(d) else { return false }
        return h.count == d.count || h[h.index(h.endIndex, offsetBy: -d.count - 1)] == UInt8(ascii: ".")
    }

    static func hasPrefixIgnoringASCIICase(_ text: String, _ prefix: String) -> Bool {
        var t = text.utf8.makeIterator()
        for p in prefix.utf8 {
            guard let c = t.next(), lower(c) == p else { return false }
        }
        return true
    }

    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map(lower), as: UTF8.self)
    }
}

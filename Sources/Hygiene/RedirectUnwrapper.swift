import URLModel

/// A redirector: a link wrapper whose real target sits, percent-encoded, in a query parameter.
public struct Redirector: Sendable, Hashable {
    /// Which hosts the wrapper lives on.
    public enum HostPattern: Sendable, Hashable {
        /// This host or any subdomain of it (`safelinks.protection.outlook.com`).
        case domain(String)
        /// Exactly one of these hosts.
        case exact([String])
        /// A label followed by any public suffix of one or two labels, with any subdomain:
        /// `google` matches `google.com`, `www.google.co.uk`, `google.de`.
        case anyTLD(String)
    }

    /// A short name shown in hygiene steps (`google`, `safelinks`).
    public var name: String
    /// The hosts it applies to.
    public var host: HostPattern
    /// The path it applies to, matched by whole segments: `/url` matches `/url` and `/url/x`,
    /// not `/urls`; `/` matches every path.
    public var pathPrefix: String
    /// The parameters that may carry the target, tried in this order.
    public var parameters: [String]

    /// Creates a redirector.
    public init(name: String, host: HostPattern, pathPrefix: String, parameters: [String]) {
        self.name = name
        self.host = host
        self.pathPrefix = pathPrefix
        self.parameters = parameters
    }

    /// Creates a redirector from a config host pattern: `google.*` means any public suffix,
    /// anything else is a domain (the host or any subdomain of it).
    public init(name: String, hostPattern: String, pathPrefix: String, parameters: [String]) {
        let lowered = hostPattern.lowercased()
        let host: HostPattern = lowered.hasSuffix(".*")
            ? .anyTLD(String(lowered.dropLast(2))) : .domain(lowered)
        self.init(name: name, host: host, pathPrefix: pathPrefix, parameters: parameters)
    }

    /// The redirectors unwrapped out of the box.
    public static let builtIn: [Redirector] = [
        Redirector(name: "google", host: .anyTLD("google"), pathPrefix: "/url", parameters: ["q", "url"]),
        Redirector(name: "safelinks", host: .domain("safelinks.protection.outlook.com"), pathPrefix: "/", parameters: ["url"]),
        Redirector(name: "facebook", host: .exact(["l.facebook.com", "lm.facebook.com"]), pathPrefix: "/l.php", parameters: ["u"]),
        Redirector(name: "youtube", host: .exact(["youtube.com", "www.youtube.com", "m.youtube.com"]), pathPrefix: "/redirect", parameters: ["q"]),
        Redirector(name: "slack", host: .domain("slack-redir.net"), pathPrefix: "/link", parameters: ["url"]),
        Redirector(name: "steam", host: .exact(["steamcommunity.com"]), pathPrefix: "/linkfilter", parameters: ["url", "u"]),
        Redirector(name: "duckduckgo", host: .exact(["duckduckgo.com", "www.duckduckgo.com"]), pathPrefix: "/l", parameters: ["uddg"]),
    ]

    func matches(host candidate: String) -> Bool {
        let bytes = Array(candidate.utf8)
        return matches(hostBytes: bytes[...])
    }

    /// Matches lower-cased or mixed-case host bytes without allocating for the common cases.
    func matches(hostBytes raw: ArraySlice<UInt8>) -> Bool {
        switch host {
        case .domain(let domain):
            return Self.equalOrSubdomain(raw, of: domain)
        case .exact(let hosts):
            return hosts.contains { Self.equalIgnoringCase(raw, $0) }
        case .anyTLD(let base):
            // Without a public-suffix list, a suffix is one alphabetic label (`com`, `de`) or a
            // short label plus a two-letter country code (`co.uk`, `com.au`): so
            // `google.evil.example` is not Google.
            guard Self.containsIgnoringCase(raw, base) else { return false }
            let labels = raw.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            func alphabetic(_ label: ArraySlice<UInt8>) -> Bool {
                label.count >= 2 && label.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }
            }
            for suffixCount in 1...2 where labels.count > suffixCount {
                let suffix = Array(labels.suffix(suffixCount))
                guard suffix.allSatisfy(alphabetic) else { continue }
                if suffixCount == 2, !(suffix[0].count <= 3 && suffix[1].count == 2) { continue }
                let restEnd = labels[labels.count - suffixCount - 1].endIndex
                if Self.equalOrSubdomain(raw[raw.startIndex..<restEnd], of: base) { return true }
            }
            return false
        }
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte }

    private static func equalIgnoringCase(_ a: ArraySlice<UInt8>, _ b: String) -> Bool {
        a.count == b.utf8.count && zip(a, b.utf8).allSatisfy { lower($0) == lower($1) }
    }

    private static func containsIgnoringCase(_ a: ArraySlice<UInt8>, _ b: String) -> Bool {
        let needle = Array(b.utf8)
        guard !needle.isEmpty, a.count >= needle.count else { return needle.isEmpty }
        var i = a.startIndex
        while i + needle.count <= a.endIndex {
            if zip(a[i..<(i + needle.count)], needle).allSatisfy({ lower($0) == lower($1) }) { return true }
            i += 1
        }
        return false
    }

    /// `host == domain` or `host` ends with `.domain`, ASCII case-insensitively.
    private static func equalOrSubdomain(_ host: ArraySlice<UInt8>, of domain: String) -> Bool {
        let d = domain.utf8
        if host.count == d.count { return equalIgnoringCase(host, domain) }
        guard host.count > d.count else { return false }
        let tail = host.suffix(d.count)
        return host[tail.startIndex - 1] == UInt8(ascii: ".") && equalIgnoringCase(tail, domain)
    }

    func matches(pathBytes path: ArraySlice<UInt8>) -> Bool {
        let prefix = pathPrefix.utf8
        if pathPrefix == "/" || pathPrefix.isEmpty { return true }
        guard path.count >= prefix.count, path.prefix(prefix.count).elementsEqual(prefix) else { return false }
        if path.count == prefix.count || pathPrefix.hasSuffix("/") { return true }
        return path[path.startIndex + prefix.count] == UInt8(ascii: "/")
    }
}

/// Unwraps redirector links, one layer at a time.
public struct RedirectUnwrapper: Sendable {
    /// The redirectors tried, built-in first, then extras from the config.
    public let redirectors: [Redirector]

    /// Per redirector, a cheap necessary condition on the host, as lower-cased bytes: most URLs
    /// fail it for every redirector, and the full test runs only when it holds.
    private let hostFilters: [HostFilter]

    private enum HostFilter: Sendable {
        /// The host ends with these bytes.
        case suffix([UInt8])
        /// The host is one of these.
        case oneOf([[UInt8]])
        /// The host contains these bytes.
        case contains([UInt8])

        init(_ pattern: Redirector.HostPattern) {
            func lowered(_ text: String) -> [UInt8] { text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 } }
            switch pattern {
            case .domain(let domain): self = .suffix(lowered(domain))
            case .exact(let hosts): self = .oneOf(hosts.map(lowered))
            case .anyTLD(let base): self = .contains(lowered(base))
            }
        }

        @inline(__always)
        private static func equal(_ host: ArraySlice<UInt8>, at start: Int, _ lowered: [UInt8]) -> Bool {
            var i = start
            for b in lowered {
                let h = host[i]
                if (h >= 0x41 && h <= 0x5A ? h + 32 : h) != b { return false }
                i += 1
            }
            return true
        }

        func mayMatch(_ host: ArraySlice<UInt8>) -> Bool {
            switch self {
            case .suffix(let tail):
                return host.count >= tail.count && Self.equal(host, at: host.endIndex - tail.count, tail)
            case .oneOf(let hosts):
                for candidate in hosts where candidate.count == host.count && Self.equal(host, at: host.startIndex, candidate) {
                    return true
                }
                return false
            case .contains(let needle):
                guard host.count >= needle.count else { return needle.isEmpty }
                for start in host.startIndex...(host.endIndex - needle.count) where Self.equal(host, at: start, needle) {
                    return true
                }
                return false
            }
        }
    }

    /// Creates an unwrapper with the built-in redirectors plus `extra`.
    public init(extra: [Redirector] = []) {
        redirectors = Redirector.builtIn + extra
        hostFilters = redirectors.map { HostFilter($0.host) }
    }

    /// Unwraps one layer: the target and the redirector's name, or nil when `url` is not a known
    /// redirector or its target is not an absolute http(s) URL (then the wrapper stays).
    public func unwrapOnce(_ url: String) -> (target: String, via: String)? {
        unwrapOnce(URLSplit(url))
    }

    /// `unwrapOnce(_:)` for a URL already split.
    func unwrapOnce(_ split: URLSplit) -> (target: String, via: String)? {
        guard split.isWebURL, split.queryMark != nil else { return nil }
        let host = split.bytes[split.hostRange]
        let path = split.bytes[split.pathRange]
        for number in redirectors.indices
        where hostFilters[number].mayMatch(host) && redirectors[number].matches(hostBytes: host) {
            let redirector = redirectors[number]
            guard redirector.matches(pathBytes: path) else { continue }
            for parameter in redirector.parameters {
                guard let raw = split.queryValue(named: parameter),
                      let target = Self.webTarget(fromEncoded: raw) else { continue }
                return (target, redirector.name)
            }
        }
        return nil
    }

    /// Percent-decodes a parameter value and accepts it only as an absolute http(s) URL.
    static func webTarget(fromEncoded raw: Substring) -> String? {
        guard let decoded = PercentEncoding.decode(String(raw)) else { return nil }
        return webTarget(decoded: decoded)
    }

    /// A decoded target as a URL: spaces and control bytes (decoded from `%20` inside an
    /// unencoded target) are escaped again, as a browser would; nil unless the result is an
    /// absolute http(s) URL with a plausible host.
    /// The target must also be a URL the rules can read (`ParsedURL`): unwrapping to one they
    /// cannot made the engine keep the original, wrapper and tracking parameters and all.
    static func webTarget(decoded: String) -> String? {
        var decoded = decoded
        // Usually there is nothing to escape, and the text stays as it is.
        if decoded.withUTF8({ !$0.contains { $0 <= 0x20 || $0 == 0x7F } }) {
            return isAbsoluteWebURL(decoded) && parses(decoded) ? decoded : nil
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(decoded.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in decoded.utf8 {
            if byte <= 0x20 || byte == 0x7F {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                bytes.append(byte)
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return isAbsoluteWebURL(text) && parses(text) ? text : nil
    }

    private static func parses(_ text: String) -> Bool {
        do { _ = try ParsedURL(text); return true } catch { return false }
    }

    /// True for `http(s)://host...` with no whitespace or control bytes and a host made of
    /// letters, digits, `-`, `.`, `_` (or an IP literal in brackets, or non-ASCII IDN labels).
    public static func isAbsoluteWebURL(_ text: String) -> Bool {
        var text = text
        guard text.withUTF8({ $0.allSatisfy { $0 > 0x20 && $0 != 0x7F } }) else { return false }
        let split = URLSplit(text)
        guard split.isWebURL else { return false }
        return split.bytes[split.hostRange].allSatisfy { byte in
            byte >= 0x80 || PercentEncoding.isUnreserved(byte) || byte == UInt8(ascii: "[")
                || byte == UInt8(ascii: "]") || byte == UInt8(ascii: ":")
        } && split.bytes[split.hostRange.lowerBound] != UInt8(ascii: ".")
    }
}

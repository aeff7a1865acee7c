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
        switch host {
        case .domain(let domain):
            return candidate == domain || candidate.hasSuffix("." + domain)
        case .exact(let hosts):
            return hosts.contains(candidate)
        case .anyTLD(let base):
            // Without a public-suffix list, a suffix is one alphabetic label (`com`, `de`) or a
            // short label plus a two-letter country code (`co.uk`, `com.au`): so
            // `google.evil.example` is not Google.
            let labels = candidate.split(separator: ".", omittingEmptySubsequences: false)
            func alphabetic(_ label: Substring) -> Bool {
                label.count >= 2 && label.utf8.allSatisfy { $0 >= 0x61 && $0 <= 0x7A }
            }
            for suffixCount in 1...2 where labels.count > suffixCount {
                let suffix = Array(labels.suffix(suffixCount))
                guard suffix.allSatisfy(alphabetic) else { continue }
                if suffixCount == 2, !(suffix[0].count <= 3 && suffix[1].count == 2) { continue }
                let rest = labels.dropLast(suffixCount).joined(separator: ".")
                if rest == base || rest.hasSuffix("." + base) { return true }
            }
            return false
        }
    }

    func matches(path: Substring) -> Bool {
        if pathPrefix == "/" || pathPrefix.isEmpty { return true }
        if path == pathPrefix { return true }
        if pathPrefix.hasSuffix("/") { return path.hasPrefix(pathPrefix) }
        return path.hasPrefix(pathPrefix + "/")
    }
}

/// Unwraps redirector links, one layer at a time.
public struct RedirectUnwrapper: Sendable {
    /// The redirectors tried, built-in first, then extras from the config.
    public let redirectors: [Redirector]

    /// Creates an unwrapper with the built-in redirectors plus `extra`.
    public init(extra: [Redirector] = []) {
        redirectors = Redirector.builtIn + extra
    }

    /// Unwraps one layer: the target and the redirector's name, or nil when `url` is not a known
    /// redirector or its target is not an absolute http(s) URL (then the wrapper stays).
    public func unwrapOnce(_ url: String) -> (target: String, via: String)? {
        let split = URLSplit(url)
        guard split.isWebURL, split.queryMark != nil else { return nil }
        for redirector in redirectors where redirector.matches(host: split.host) {
            guard redirector.matches(path: split.path) else { continue }
            for parameter in redirector.parameters {
                guard let raw = split.queryValue(named: parameter),
                      let target = Self.webTarget(fromEncoded: raw) else { continue }
                return (target, redirector.name)
            }
        }
        return nil
    }

    /// Percent-decodes a parameter value and accepts it only as an absolute http(s) URL without
    /// spaces or control characters.
    static func webTarget(fromEncoded raw: Substring) -> String? {
        guard let decoded = PercentEncoding.decode(String(raw)) else { return nil }
        return isAbsoluteWebURL(decoded) ? decoded : nil
    }

    /// True for `http(s)://host...` with no whitespace or control bytes.
    static func isAbsoluteWebURL(_ text: String) -> Bool {
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { return false }
        let split = URLSplit(text)
        return split.isWebURL
    }
}

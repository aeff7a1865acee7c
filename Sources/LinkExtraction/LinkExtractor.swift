/// A link found in text.
public struct ExtractedLink: Sendable, Equatable {
    /// The link exactly as it appears in the input.
    public var text: String
    /// The link ready to route: `http://` added to bare hosts, `http:` to `//host` links,
    /// `mailto:` to bare emails, and the scheme lowercased.
    public var url: String
    /// Byte offsets of `text` in the input's UTF-8.
    public var utf8Range: Range<Int>
    /// What the link is shown as, where markup says: the text of Markdown `[text](url)` and of
    /// HTML `<a href="url">text</a>` (tags dropped, entities decoded), the word or quoted phrase
    /// before `<url>`. Nil for a bare link, which shows itself.
    public var linkText: String?
    /// Byte offsets of the markup `linkText` was read from (between `[` and `]`, inside
    /// `<a>…</a>`, the word before `<url>`); nil when there is no link text.
    public var linkTextRange: Range<Int>?

    /// A link with the given text, URL, byte range and shown text.
    public init(text: String, url: String, utf8Range: Range<Int>, linkText: String? = nil, linkTextRange: Range<Int>? = nil) {
        self.text = text
        self.url = url
        self.utf8Range = utf8Range
        self.linkText = linkText
        self.linkTextRange = linkTextRange
    }
}

/// Finds links in plain text, chat logs, mail and Markdown, with linkify-it's rules (see
/// README): URLs with a scheme, `//host` links, bare hosts ending in a known top-level domain,
/// bare IPv4 hosts and emails. Trailing punctuation is left out, balanced brackets are kept.
/// One linear pass over the UTF-8 bytes; pure, no I/O.
public enum LinkExtractor {
    /// Which kinds of scheme-less link to look for.
    public struct Options: Sendable, Equatable {
        /// `example.com/path` and `//example.com` (needs `http` among the schemes).
        public var bareHosts: Bool
        /// `user@example.com` (needs `mailto` among the schemes).
        public var bareEmails: Bool
        /// `192.168.1.1/path` with no scheme.
        public var bareIPv4: Bool

        /// Options with every kind of bare link on by default.
        public init(bareHosts: Bool = true, bareEmails: Bool = true, bareIPv4: Bool = true) {
            self.bareHosts = bareHosts
            self.bareEmails = bareEmails
            self.bareIPv4 = bareIPv4
        }

        /// Every kind of bare link on.
        public static let `default` = Options()
    }

    /// The schemes found without being asked for: `http`, `https`, `ftp`, `mailto`.
    public static let defaultSchemes: Set<String> = ["http", "https", "ftp", "mailto"]

    /// Every link in `text`, in order, none overlapping, one per Markdown or HTML link: the
    /// shown text of a link (`[paypal.com](https://evil.example/)`) is that link's `linkText`,
    /// never a link of its own. `schemes` (case-insensitive) are the
    /// ones recognised before a `:`; add the ones your rules route (e.g. `zoommtg`, `tel`).
    /// `http`, `https` and `ftp` need `//host`; `mailto` needs `name@host`; any other scheme
    /// takes `//host/…` or, failing that, the characters a path may hold.
    public static func extract(from text: String, schemes: Set<String> = LinkExtractor.defaultSchemes,
                               options: Options = .default) -> [ExtractedLink] {
        let lowered = Set(schemes.map { $0.lowercased() })
        var copy = text
        return copy.withUTF8 { bytes in
            var scanner = LinkScanner(
                bytes: bytes, schemes: lowered,
                hostLinks: options.bareHosts && lowered.contains("http"),
                emails: options.bareEmails && lowered.contains("mailto"),
                bareIPv4: options.bareIPv4)
            return withoutShownText(scanner.scan().map { link(for: $0, in: bytes) })
        }
    }

    /// `links` (in order) less those lying wholly inside another one's link text.
    static func withoutShownText(_ links: [ExtractedLink]) -> [ExtractedLink] {
        guard links.contains(where: { $0.linkTextRange != nil }) else { return links }
        var dropped = Set<Int>()
        for (owner, link) in links.enumerated() {
            guard let shown = link.linkTextRange else { continue }
            // The first link starting at or after the text's start, by halving.
            var low = 0, high = links.count
            while low < high {
                let middle = (low + high) / 2
                if links[middle].utf8Range.lowerBound < shown.lowerBound { low = middle + 1 } else { high = middle }
            }
            var index = low
            while index < links.count, links[index].utf8Range.lowerBound < shown.upperBound {
                if index != owner, links[index].utf8Range.upperBound <= shown.upperBound { dropped.insert(index) }
                index += 1
            }
        }
        return dropped.isEmpty ? links : links.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }

    /// Builds the public value: exact text, normalised URL, byte range, shown text.
    private static func link(for found: LinkScanner.Found, in bytes: UnsafeBufferPointer<UInt8>) -> ExtractedLink {
        let slice = UnsafeBufferPointer(rebasing: bytes[found.start..<found.end])
        let text = String(decoding: slice, as: UTF8.self)
        let url: String
        switch found.kind {
        case .scheme(let nameLength):
            let name = UnsafeBufferPointer(rebasing: slice[0..<nameLength])
            let rest = UnsafeBufferPointer(rebasing: slice[nameLength...])
            url = String(decoding: name, as: UTF8.self).lowercased() + String(decoding: rest, as: UTF8.self)
        case .protocolRelative:
            url = "http:" + text
        case .bareHost:
            url = "http://" + text
        case .bareEmail:
            url = "mailto:" + text
        }
        let shown = ShownText.find(start: found.start, end: found.end, in: bytes)
        return ExtractedLink(text: text, url: url, utf8Range: found.start..<found.end,
                             linkText: shown?.text, linkTextRange: shown?.range)
    }
}

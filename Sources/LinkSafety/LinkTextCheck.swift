import LinkExtraction
import URLModel

/// Link text that names another domain than the link's target, as Thunderbird's phishing
/// detector reads it: the whole text (trimmed, quotes and brackets around it dropped) must
/// itself read as a link (a URL, a host with a known top-level domain, an email address, as
/// `LinkExtractor` finds them); words that are not are never compared ("Click here",
/// "PayPal"). The two sites are compared by registrable domain, so `www.paypal.com` shown for
/// `paypal.com` is fine and `paypal.com` shown for `paypal.com.evil.example` is not.
enum LinkTextCheck {
    /// Longest text compared; longer text is prose, not a domain.
    static let maximumLength = 2048

    /// The host the text shows (ASCII, lowercase, no trailing dot), or nil when it does not
    /// read as a link.
    static func shownHost(_ text: String) -> String? {
        guard text.utf8.count <= maximumLength else { return nil }
        var scalars = Substring(text).unicodeScalars[...]
        let wrappers: [(Unicode.Scalar, Unicode.Scalar)] = [("<", ">"), ("(", ")"), ("[", "]"), ("\"", "\""), ("'", "'"), ("“", "”"), ("‘", "’"), ("«", "»")]
        var changed = true
        while changed {
            changed = false
            while let first = scalars.first, isSpace(first) { scalars.removeFirst(); changed = true }
            while let last = scalars.last, isSpace(last) || ".,;:!?".unicodeScalars.contains(last) { scalars.removeLast(); changed = true }
            if let first = scalars.first, let last = scalars.last, scalars.count >= 2,
               wrappers.contains(where: { $0.0 == first && $0.1 == last }) {
                scalars = scalars.dropFirst().dropLast()
                changed = true
            }
        }
        let shown = String(String.UnicodeScalarView(scalars))
        guard !shown.isEmpty, !shown.unicodeScalars.contains(where: isSpace) else { return nil }
        let links = LinkExtractor.extract(from: shown)
        guard links.count == 1, let link = links.first, link.text == shown else { return nil }
        return host(ofLink: link.url)
    }

    /// The host a link goes to: its host, or a mailto's first recipient's domain (ASCII).
    static func host(ofLink text: String) -> String? {
        guard let url = try? ParsedURL(text) else { return nil }
        return host(of: url)
    }

    /// The host `url` goes to (ASCII, no trailing dot); a mailto's first recipient's domain.
    static func host(of url: ParsedURL) -> String? {
        if !url.host.isEmpty { return url.matchingHost }
        guard url.scheme == "mailto" else { return nil }
        return MailtoURL(url).to.lazy.compactMap(domain(ofAddress:)).first
    }

    /// The domain of `name@domain`, in ASCII.
    static func domain(ofAddress address: String) -> String? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        var domain = String(address[address.index(after: at)...]).lowercased()
        if domain.hasSuffix(".") { domain.removeLast() }
        guard !domain.isEmpty, domain.utf8.count <= 253 else { return nil }
        return Punycode.toASCII(host: domain)
    }

    /// The mismatch reason when `text` names another site than `target`.
    static func reason(text: String, target: String, suffixes: SuffixIndex) -> SafetyReason? {
        guard let shown = shownHost(text), shown != target else { return nil }
        let shownSite = suffixes.registrableDomain(of: shown) ?? shown
        let targetSite = suffixes.registrableDomain(of: target) ?? target
        guard shownSite != targetSite else { return nil }
        return SafetyReason(kind: .linkTextMismatch,
                            message: "the link says \(Punycode.toUnicode(host: shown)) but goes to \(targetSite)",
                            domain: shownSite)
    }

    /// `https://paypal.com@evil.example/`: user information that reads as a domain other than
    /// the host.
    static func userinfoReason(_ url: ParsedURL, suffixes: SuffixIndex) -> SafetyReason? {
        guard let userinfo = url.userinfo, !userinfo.isEmpty, !url.host.isEmpty else { return nil }
        let user = userinfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? userinfo
        let decoded = String(decoding: PercentEncoding.decodeBytes(Substring(user), plusAsSpace: false), as: UTF8.self)
        guard decoded.utf8.contains(UInt8(ascii: ".")), let shown = shownHost(decoded), shown != url.matchingHost else { return nil }
        let shownSite = suffixes.registrableDomain(of: shown) ?? shown
        return SafetyReason(kind: .misleadingUserinfo,
                            message: "the address starts with \(Punycode.toUnicode(host: shown))@, but the site is \(url.matchingHost)",
                            domain: shownSite)
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{A0}" || scalar == "\u{200B}"
            || scalar == "\u{2009}" || scalar == "\u{202F}" || scalar == "\u{3000}"
    }
}

import LinkExtraction
import Platform
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

    /// What link text shows, read as a person reads it.
    struct Shown: Equatable {
        /// The host (ASCII, lowercase, no trailing dot).
        var host: String
        /// The scheme the text spells out (`https`), nil for a bare domain.
        var scheme: String?
    }

    /// The host the text shows (ASCII, lowercase, no trailing dot), or nil when it does not
    /// read as a link.
    static func shownHost(_ text: String) -> String? { shown(text)?.host }

    /// What `text` shows, or nil when it does not read as a link. Characters a reader cannot
    /// see (default-ignorable code points: zero-width spaces and joiners, soft hyphens, word
    /// joiners, byte-order marks, variation selectors) are dropped first, the ideographic and
    /// fullwidth full stops (`。` `．` `｡`) read as `.`, as UTS #46 maps them for a URL parser.
    /// Spaces inside are read as a person does: a text that spells out its scheme
    /// (`http://mozilla .org`) loses them all, as Thunderbird strips what its text gathering
    /// inserted; a bare domain loses only those before a dot or after one that a lowercase
    /// letter or digit follows (`paypal .com`, `paypal. com`), so that prose ("Sign in to
    /// paypal.com", "Hello. World") is never read as a domain.
    static func shown(_ text: String) -> Shown? {
        guard text.utf8.count <= maximumLength else { return nil }
        // A text is read the same way every time (nothing here depends on the config), and the
        // same text comes back: the browser companion asks about a link on press and opens it
        // on release, a page repeats its links. Reading one runs the link finder (~10 µs).
        return recentlyShown.answer(text) { RecentlyShown(shown: reading(text)) }.shown
    }

    /// How many texts `shown` remembers; the whole memory goes when it fills (no order kept:
    /// a page's links are read within moments of each other).
    static let shownCacheSize = 256

    /// A text's reading, found or not (a text that is no link is worth remembering too).
    struct RecentlyShown { var shown: Shown? }

    /// The texts read lately, shared by every checker and thread.
    private static let recentlyShown = CheckMemo<String, RecentlyShown>(limit: shownCacheSize)

    /// `shown` without the memory.
    static func reading(_ text: String) -> Shown? {
        var scalars = Substring(visible(text)).unicodeScalars[...]
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
        let trimmed = String(String.UnicodeScalarView(scalars))
        // The scheme part holds no spaces, so removing them leaves it as it was.
        let scheme = spelledScheme(trimmed)
        let shown = withoutInnerSpaces(trimmed, spellsScheme: scheme != nil)
        guard !shown.isEmpty, !shown.unicodeScalars.contains(where: isSpace) else { return nil }
        let links = LinkExtractor.extract(from: shown)
        guard links.count == 1, let link = links.first, link.text == shown, let host = host(ofLink: link.url) else { return nil }
        return Shown(host: host, scheme: scheme)
    }

    /// `text` without the code points no one sees, and with the other full stops as `.`.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !$0.isASCII }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{3002}", "\u{FF0E}", "\u{FF61}": out.append(".")
            default: if !scalar.properties.isDefaultIgnorableCodePoint { out.append(scalar) }
            }
        }
        return String(out)
    }

    /// The scheme `text` starts with (`https` of `https://…`, lowercased), nil when none.
    private static func spelledScheme(_ text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return nil }
        let name = text[..<colon]
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return name.lowercased()
    }

    /// See `shown(_:)`: the spaces a reader does not see as separating words.
    private static func withoutInnerSpaces(_ text: String, spellsScheme: Bool) -> String {
        guard text.unicodeScalars.contains(where: isSpace) else { return text }
        if spellsScheme {
            return String(String.UnicodeScalarView(text.unicodeScalars.filter { !isSpace($0) }))
        }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard isSpace(scalars[index]) else { out.append(scalars[index]); index += 1; continue }
            var end = index
            while end < scalars.count, isSpace(scalars[end]) { end += 1 }
            let beforeDot = end < scalars.count && scalars[end] == "."
            let afterDot = out.last == "." && end < scalars.count && (("a"..."z").contains(scalars[end]) || ("0"..."9").contains(scalars[end]))
            if !beforeDot && !afterDot { out.append(contentsOf: scalars[index..<end]) }
            index = end
        }
        return String(out)
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
        // By bytes: a Character search walks grapheme clusters, several times the cost.
        guard let at = address.utf8.lastIndex(of: UInt8(ascii: "@")) else { return nil }
        var domain = String(Substring(address.utf8[address.utf8.index(after: at)...])).lowercased()
        if domain.hasSuffix(".") { domain.removeLast() }
        guard !domain.isEmpty, domain.utf8.count <= 253 else { return nil }
        return Punycode.toASCII(host: domain)
    }

    /// The mismatch reason when `text` names another site than `target`, or, for the same
    /// site, spells out `https` for a link that is `http` (a lesser reason: see
    /// `SafetyReason.Kind.isLesser`). `scheme` is the link's.
    static func reason(text: String, target: String, scheme: String? = nil, suffixes: SuffixIndex) -> SafetyReason? {
        guard let shown = shown(text) else { return nil }
        let (shownSite, targetSite) = shown.host == target ? (target, target)
            : (suffixes.registrableDomain(of: shown.host) ?? shown.host, suffixes.registrableDomain(of: target) ?? target)
        guard shownSite == targetSite else {
            return SafetyReason(kind: .linkTextMismatch,
                                message: "the link says \(Punycode.toUnicode(host: shown.host)) but goes to \(targetSite)",
                                domain: shownSite)
        }
        guard shown.scheme == "https", scheme == "http" else { return nil }
        return SafetyReason(kind: .linkTextScheme,
                            message: "the link says https:// but goes to http://\(Punycode.toUnicode(host: target)), which is not encrypted",
                            domain: targetSite)
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
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{A0}"
            || scalar == "\u{2009}" || scalar == "\u{202F}" || scalar == "\u{3000}"
    }
}

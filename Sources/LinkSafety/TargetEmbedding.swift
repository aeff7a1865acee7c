import URLModel

/// A domain the user trusts (a known domain) or a top site written as the first labels of
/// another registrable domain: `www.google.com.evil.example`, `google-com.evil.example`,
/// `google.com-login.evil.example`. Chromium's look-alike checks call this target embedding.
/// The domain itself and its subdomains are never flagged, nor a host whose own public suffix
/// holds the name's last labels (`google.com.au` is not `google.com` embedded).
///
/// The host is split into tokens at `.` and `-`; each run of two to four tokens that leaves at
/// least one token after it is looked up as written and with `.` between its tokens: a few
/// hash look-ups per link, and the Public Suffix List only when one is found.
enum TargetEmbedding {
    /// Shortest label of an embedded domain that counts: `x.com` or `hp.com` in front of another
    /// domain is as likely a word as a brand.
    static let minimumLabelLength = 3

    /// What was found: the trusted domain, the site the host really is, the known entry.
    struct Found: Equatable {
        var domain: String
        var site: String
        var known: KnownDomain?
    }

    /// The trusted domain embedded in `host` (ASCII, lowercase, no trailing dot), or nil.
    static func find(host: String, known: KnownDomains, suffixes: SuffixIndex) -> Found? {
        let bytes = Array(host.utf8)
        guard bytes.count <= 253 else { return nil }
        var tokens: [Range<Int>] = []
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "-") {
            if index > start { tokens.append(start..<index) }
            start = index + 1
            if tokens.count > 32 { return nil }
        }
        guard tokens.count >= 3 else { return nil }
        var site: String?? = .none
        for first in 0..<(tokens.count - 2) {
            for length in 2...4 where first + length < tokens.count {
                let span = tokens[first].lowerBound..<tokens[first + length - 1].upperBound
                for candidate in candidates(bytes, tokens[first..<(first + length)], span: span)
                where isTrusted(candidate, known: known) && !KnownDomains.isSameOrUnder(host, candidate) {
                    if site == nil { site = .some(suffixes.registrableDomain(of: host)) }
                    guard let real = site ?? nil, real != candidate,
                          let dot = real.utf8.firstIndex(of: UInt8(ascii: ".")) else { continue }
                    // The embedded name must end before the host's own public suffix.
                    let suffixLength = real.utf8.distance(from: real.utf8.index(after: dot), to: real.utf8.endIndex)
                    guard span.upperBound < bytes.count - suffixLength else { continue }
                    return Found(domain: candidate, site: real, known: known.known(ascii: candidate))
                }
            }
        }
        return nil
    }

    /// The run of tokens as written (`t-mobile.com`) and with dots between them
    /// (`google-com` as `google.com`), when their first label is long enough.
    private static func candidates(_ bytes: [UInt8], _ run: ArraySlice<Range<Int>>, span: Range<Int>) -> [String] {
        let written = String(decoding: bytes[span], as: UTF8.self)
        let dotted = run.map { String(decoding: bytes[$0], as: UTF8.self) }.joined(separator: ".")
        var out: [String] = []
        for candidate in written == dotted ? [written] : [written, dotted] {
            guard let dot = candidate.utf8.firstIndex(of: UInt8(ascii: ".")),
                  candidate.utf8.distance(from: candidate.utf8.startIndex, to: dot) >= minimumLabelLength else { continue }
            out.append(candidate)
        }
        return out
    }

    private static func isTrusted(_ domain: String, known: KnownDomains) -> Bool {
        TopSites.domains.contains(domain) || known.contains(domain)
    }

    /// "starts with paypal.com, which your rule 'Pay' opens in firefox:Banking, but the site is
    /// evil.example".
    static func message(for found: Found) -> String {
        let shown = Punycode.toUnicode(host: found.domain)
        let which = found.known.map { $0.description.isEmpty ? "," : ", which \($0.description)," } ?? ","
        return "starts with \(shown)\(which) but the site is \(Punycode.toUnicode(host: found.site))"
    }
}

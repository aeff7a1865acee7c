import URLModel

/// A domain the user trusts (a known domain) or a top site written as the first labels of
/// another registrable domain: `www.google.com.evil.example`, `google-com.evil.example`,
/// `google.com-login.evil.example`. Chromium's look-alike checks call this target embedding.
/// The domain itself and its subdomains are never flagged, nor a host whose own public suffix
/// holds the name's last labels (`google.com.au` is not `google.com` embedded).
///
/// The host is split into tokens at `.` and `-`; each run of two to four tokens that ends in a
/// trusted name's last label and leaves at least one token after it is looked up as written
/// and with `.` between its tokens: a hash look-up per token for most links, and the Public
/// Suffix List only when a name is found.
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
        var copy = host
        return copy.withUTF8 { bytes in find(bytes, host: host, known: known, suffixes: suffixes) }
    }

    private static func find(_ bytes: UnsafeBufferPointer<UInt8>, host: String, known: KnownDomains, suffixes: SuffixIndex) -> Found? {
        guard bytes.count <= 253 else { return nil }
        // On the stack: a host has at most 127 tokens, and most links none to find.
        return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: 128) { buffer in
            var count = 0
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "-") {
                if index > start, count < buffer.count { buffer[count] = start..<index; count += 1 }
                start = index + 1
            }
            guard count >= 3 else { return nil }
            return find(bytes, tokens: UnsafeBufferPointer(rebasing: buffer[0..<count]), host: host, known: known, suffixes: suffixes)
        }
    }

    private static func find(_ bytes: UnsafeBufferPointer<UInt8>, tokens: UnsafeBufferPointer<Range<Int>>, host: String,
                             known: KnownDomains, suffixes: SuffixIndex) -> Found? {
        var site: String?? = .none
        // Each token that ends a trusted name (`com` of google.com) and leaves one after it; most
        // hosts have none, and a look-up of a short token does not allocate.
        for last in 1..<(tokens.count - 1) {
            let end = String(decoding: UnsafeBufferPointer(rebasing: bytes[tokens[last]]), as: UTF8.self)
            guard TopSites.finalLabels.contains(end) || known.hasFinalLabel(end) else { continue }
            for length in 2...4 where last + 1 >= length {
                let first = last + 1 - length
                let span = tokens[first].lowerBound..<tokens[last].upperBound
                for candidate in candidates(bytes, tokens[first...last], span: span)
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
    private static func candidates(_ bytes: UnsafeBufferPointer<UInt8>, _ run: Slice<UnsafeBufferPointer<Range<Int>>>, span: Range<Int>) -> [String] {
        let written = String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self)
        let dotted = bytes[span].contains(UInt8(ascii: "-"))
            ? run.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }.joined(separator: ".") : written
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

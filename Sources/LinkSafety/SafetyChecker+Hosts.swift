import URLModel

/// What callers need besides the verdict: how to show a host, its registrable domain, and
/// whether a host may join the known domains (a visited site).
extension SafetyChecker {
    /// The registrable domain of `host` (ASCII) under this checker's Public Suffix List; nil for
    /// an IP address, a single label or a public suffix.
    public func registrableDomain(of host: String) -> String? {
        suffixes.registrableDomain(of: host)
    }

    /// True when nothing about `host` itself misleads: the IDN rules find nothing in it and it
    /// looks like none of the known domains. Only such hosts should join the known domains (a
    /// look-alike the user once opened must not make the real site look like it).
    public func trusts(host: String, unicodeHost: String) -> Bool {
        if HostText.hasPunycodeLabel(host), !Self.idnReasons(host: host, unicodeHost: unicodeHost).isEmpty { return false }
        return knownDomains.lookalike(host: host, unicodeHost: unicodeHost) == nil
    }

    /// How to show `url`'s host so that it cannot mislead: Unicode only when the verdict is
    /// `safe` and the IDN check ran, ASCII (`xn--…`) otherwise.
    public func shownHost(of url: ParsedURL, verdict: SafetyVerdict) -> String {
        checks.idn ? verdict.shownHost(of: url) : url.host
    }
}

extension SafetyChecker {
    /// Builds the known domains, reads the block lists and indexes the Public Suffix List now, so no link pays for it:
    /// call it on a background thread after a config loads (the checker is thread-safe; a link
    /// checked meanwhile waits for the list it needs).
    public func prepare() {
        if checks.lookalikes { _ = knownDomains.count }
        if checks.blocklists { for list in blocklists { _ = list.summary } }
        if checks.linkText || checks.lookalikes { _ = suffixes.registrableDomain(of: "www.example.com") }
    }
}

import URLModel

/// Whether a link goes to the site of the page it is on (the same registrable domain, as the
/// Public Suffix List decides), which the companion leaves to the browser unless told otherwise.
public final class SameSite {
    private let listText: [UInt8]?
    private var domains: [String: String?] = [:]

    /// Judges with the list `listText` (Debian's `publicsuffix`), or URLModel's fallback when nil.
    public init(listText: [UInt8]?) { self.listText = listText }

    /// True when `url` and `origin` are web addresses of one site; false when either is not one.
    public func holds(url: String, origin: String?) -> Bool {
        guard let origin, let link = try? ParsedURL(url), let page = try? ParsedURL(origin),
              ["http", "https"].contains(link.scheme), ["http", "https"].contains(page.scheme),
              !link.host.isEmpty, !page.host.isEmpty else { return false }
        if link.host == page.host { return true }
        guard let linkSite = site(link.host), let pageSite = site(page.host) else { return false }
        return linkSite == pageSite
    }

    /// The registrable domain of `host`, each looked up once (a pass over the list costs ~1 ms).
    private func site(_ host: String) -> String? {
        if let known = domains[host] { return known }
        if domains.count > 4096 { domains.removeAll() }
        let domain = PublicSuffixList.registrableDomain(of: host, listText: listText)
        domains[host] = domain
        return domain
    }
}

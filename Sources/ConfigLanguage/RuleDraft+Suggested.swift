import URLModel

extension RuleDraft {
    /// The drafts "Make a rule…" offers for a clicked `url`, each sending links to `action`, the
    /// default first: the registrable domain (`match.domain`), the host when it is not itself
    /// that domain (`match.host`), the host and the path's first segment (`match.path`), or for
    /// a `mailto:` the first recipient's domain (`match.to`). Empty when `url` does not parse or
    /// has neither a host nor a recipient.
    ///
    /// `suffixList` is the Public Suffix List's text (`PublicSuffixList.debianPath`; nil uses the
    /// built-in fallback). Hosts come in their Unicode form unless `unicodeHosts` is false: pass
    /// false for a host the safety check calls a look-alike, as the chooser names it in ASCII.
    /// The port is not matched (no matcher looks at it); a value that would need glob escaping
    /// (a `[` in a path segment, an IPv6 host) is left out rather than offered and refused.
    public static func suggested(for url: String, action: Action, suffixList: [UInt8]?, unicodeHosts: Bool = true) -> [RuleDraft] {
        guard let parsed = try? ParsedURL(url) else { return [] }
        var matches: [Match] = []
        if parsed.scheme == "mailto" {
            if let domain = firstRecipientDomain(MailtoURL(parsed), unicode: unicodeHosts) { matches.append(.mailDomain(domain)) }
        } else if !parsed.matchingHost.isEmpty {
            let host = unicodeHosts ? parsed.matchingUnicodeHost : parsed.matchingHost
            let domain = PublicSuffixList.registrableDomain(of: host, listText: suffixList)
            if let domain { matches.append(.domain(domain)) }
            if domain != host { matches.append(.host(host)) }
            if let segment = parsed.path.split(separator: "/", omittingEmptySubsequences: true).first, parsed.path.hasPrefix("/") {
                matches.append(.pathPrefix(host: host, path: "/" + segment))
            }
        }
        return matches.compactMap { match in
            let draft = RuleDraft(name: defaultName(match: match, action: action), match: match, action: action)
            return (try? draft.text) == nil ? nil : draft
        }
    }

    /// The name the form starts with: what it matches, an arrow, and where links go
    /// (`docs.example.org only → firefox-esr:Work`); the form may change it, and should again
    /// when the user picks another match.
    public static func defaultName(match: Match, action: Action) -> String {
        let matched: String
        switch match {
        case .domain(let domain): matched = domain
        case .host(let host): matched = "\(host) only"
        case .pathPrefix(let host, let path): matched = host + path
        case .mailDomain(let domain): matched = "mail to @\(domain)"
        }
        let does: String
        switch action {
        case .open(let target): does = target
        case .copy: does = "copy"
        case .discard: does = "discard"
        case .ask: does = "ask"
        }
        return "\(matched) → \(does)"
    }

    /// The domain of the first recipient (To before Cc before Bcc), in the form asked for.
    private static func firstRecipientDomain(_ mailto: MailtoURL, unicode: Bool) -> String? {
        let ordered = mailto.addresses.filter { $0.kind == .to } + mailto.addresses.filter { $0.kind == .cc }
            + mailto.addresses.filter { $0.kind == .bcc }
        guard let address = ordered.first else { return nil }
        var text = Substring(unicode ? address.display : address.ascii)
        // `Name <a@corp.example>` keeps its brackets in both forms.
        if text.hasSuffix(">") { text = text.dropLast() }
        guard let at = text.lastIndex(of: "@") else { return nil }
        let domain = text[text.index(after: at)...].lowercased()
        return domain.isEmpty ? nil : domain
    }
}

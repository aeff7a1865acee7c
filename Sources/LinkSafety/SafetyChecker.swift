import URLModel

/// Which checks a `SafetyChecker` runs (`[settings] safety = "off"` is `.none`).
public struct SafetyChecks: Sendable, Equatable {
    /// IDN labels that browsers would show in punycode (see `IDNPolicy`).
    public var idn: Bool
    /// Look-alikes of the known domains, and known domains or top sites written in front of
    /// another domain (target embedding).
    public var lookalikes: Bool
    /// Link text naming another domain, and domains before `@` in the URL.
    public var linkText: Bool
    /// The block lists.
    public var blocklists: Bool

    /// Choose each check.
    public init(idn: Bool = true, lookalikes: Bool = true, linkText: Bool = true, blocklists: Bool = true) {
        self.idn = idn
        self.lookalikes = lookalikes
        self.linkText = linkText
        self.blocklists = blocklists
    }

    /// Every check.
    public static let all = SafetyChecks()
    /// None: every link is `safe`.
    public static let none = SafetyChecks(idn: false, lookalikes: false, linkText: false, blocklists: false)
}

/// The one entry point: a safety verdict for a link, from its URL and, when known, the text it
/// was shown as. Pure apart from reading block lists on first use, cheap, and safe to share
/// between threads; Routing calls it once per decision.
///
/// An ASCII host with no known domains and no block lists costs a scan of the host for `xn--`
/// and nothing else (no ICU); known domains add a table-driven skeleton and a few hash
/// look-ups, block lists a hash look-up per label.
public struct SafetyChecker: Sendable {
    /// The checks run.
    public var checks: SafetyChecks
    /// The domains that matter to the user; a checker made with `knownDomainsOnFirstUse` builds
    /// them when first asked (`prepare()` does, off the loop), not as the config loads.
    public var knownDomains: KnownDomains {
        get { domains.value }
        set { domains = KnownDomainsOnFirstUse(newValue) }
    }
    private var domains: KnownDomainsOnFirstUse
    /// The block lists, checked in order.
    public var blocklists: [BlockList] {
        // What the memo says of a host's lists was said of these.
        didSet { hostChecked = HostFactsMemo() }
    }
    /// The Public Suffix List, indexed the first time link text needs it.
    let suffixes: SuffixIndex
    /// Link text against its target, remembered: the same text is shown for many links (an
    /// email's "Click here"), and the answer depends only on the two and the suffix list.
    private let linkTextChecked = CheckMemo<LinkTextKey, SafetyReason?>()
    /// What each host's checks found, remembered (see `facts(host:unicodeHost:)`).
    private var hostChecked = HostFactsMemo()

    /// A checker.
    public init(checks: SafetyChecks = .all, knownDomains: KnownDomains = .none, blocklists: [BlockList] = [], publicSuffixes: SuffixIndex? = nil) {
        self.init(checks: checks, domains: KnownDomainsOnFirstUse(knownDomains), blocklists: blocklists,
                  suffixes: publicSuffixes ?? SuffixIndex(text: nil))
    }

    /// A checker whose known domains `build` makes when they are first needed: a thousand
    /// rules' domains took ~2 ms of the daemon's start before it could serve.
    public init(checks: SafetyChecks = .all, knownDomainsOnFirstUse build: @escaping @Sendable () -> KnownDomains,
                blocklists: [BlockList] = [], publicSuffixes: SuffixIndex? = nil) {
        self.init(checks: checks, domains: KnownDomainsOnFirstUse(building: build), blocklists: blocklists,
                  suffixes: publicSuffixes ?? SuffixIndex(text: nil))
    }

    private init(checks: SafetyChecks, domains: KnownDomainsOnFirstUse, blocklists: [BlockList], suffixes: SuffixIndex) {
        self.checks = checks
        self.domains = domains
        self.blocklists = blocklists
        self.suffixes = suffixes
    }

    /// The verdict for `url`; `linkText` is the text the link was shown as (Markdown or HTML
    /// link text, `text <url>`, or what a caller passes as `link-text`), nil when unknown.
    /// `mailto` is `url`'s fields when the caller has them already (a mailto's parse was a
    /// quarter of its verdict's cost).
    public func verdict(for url: ParsedURL, linkText: String? = nil, mailto: MailtoURL? = nil) -> SafetyVerdict {
        // Most links have a host; only a mailto is judged by its recipients' domains.
        let hosts = url.host.isEmpty ? Self.hosts(of: url, mailto: mailto) : []
        var reasons: [SafetyReason] = []
        if !url.host.isEmpty {
            // A host no list names at all (most) needs no list looked at again: each list's
            // look-up was ~1.6k instructions a click.
            let found = facts(host: url.matchingHost, unicodeHost: url.matchingUnicodeHost)
            if found.listed {
                for list in blocklists { if let block = list.block(for: url) { return .block(block) } }
            }
            if !found.reasons.isEmpty { reasons += found.reasons }
        } else {
            // The recipients' domains the same way: the lists are looked at only for those one names.
            let found = hosts.map { facts(host: $0.ascii, unicodeHost: $0.unicode) }
            let listed = hosts.indices.filter { found[$0].listed }
            if !listed.isEmpty {
                for list in blocklists {
                    if let block = listed.lazy.compactMap({ list.block(host: hosts[$0].ascii, scheme: url.scheme) }).first { return .block(block) }
                }
            }
            for host in found { reasons += host.reasons }
        }
        if checks.linkText {
            if let reason = LinkTextCheck.userinfoReason(url, suffixes: suffixes) { reasons.append(reason) }
            if let linkText, let target = url.host.isEmpty ? hosts.first?.ascii : url.matchingHost,
               let reason = linkTextChecked.answer(LinkTextKey(text: linkText, target: target, scheme: url.scheme), compute: {
                   LinkTextCheck.reason(text: linkText, target: target, scheme: url.scheme, suffixes: suffixes)
               }) {
                reasons.append(reason)
            }
        }
        return reasons.isEmpty ? .safe : .warn(reasons)
    }

    /// One host's IDN and look-alike reasons, and whether a block list names it, remembered per
    /// host: the skeleton and the known-domain and embedding look-ups were most of a decision's
    /// cost, for the same answer at every click on a site.
    private func facts(host: String, unicodeHost: String) -> HostFacts {
        let listsRun = checks.blocklists && !blocklists.isEmpty
        guard checks.idn || checks.lookalikes || listsRun else { return HostFacts(reasons: [], listed: false) }
        let run = HostChecksRun(idn: checks.idn, lookalikes: checks.lookalikes, blocklists: listsRun, domains: domains.version)
        let hash = BlockIndex.fnv1a(host)
        if let found = hostChecked.facts(hash: hash, host: host, unicodeHost: unicodeHost, run: run) { return found }
        var found: [SafetyReason] = []
        uncachedCheck(host: host, unicodeHost: unicodeHost, into: &found)
        let facts = HostFacts(reasons: found, listed: listsRun && blocklists.contains { $0.mentions(host: host) })
        hostChecked.remember(facts, hash: hash, host: host, unicodeHost: unicodeHost, run: run)
        return facts
    }

    private func uncachedCheck(host: String, unicodeHost: String, into reasons: inout [SafetyReason]) {
        if checks.idn, HostText.hasPunycodeLabel(host) { reasons += Self.idnReasons(host: host, unicodeHost: unicodeHost) }
        if checks.lookalikes, let known = knownDomains.lookalike(host: host, unicodeHost: unicodeHost) {
            reasons.append(SafetyReason(kind: .lookalikeDomain, message: KnownDomains.message(for: known), domain: known.domain))
        }
        if checks.lookalikes, let found = TargetEmbedding.find(host: host, known: knownDomains, suffixes: suffixes) {
            reasons.append(SafetyReason(kind: .targetEmbedding, message: TargetEmbedding.message(for: found), domain: found.domain))
        }
    }

    /// The reasons, one per label at most, that `host`'s labels should not be shown in Unicode.
    static func idnReasons(host: String, unicodeHost: String) -> [SafetyReason] {
        let labels = HostText.labels(host)
        guard let tld = labels.last.map(String.init) else { return [] }
        let unicodeLabels = HostText.labels(unicodeHost)
        let sameShape = unicodeLabels.count == labels.count
        let tldUnicode = sameShape ? String(unicodeLabels[unicodeLabels.count - 1]) : Punycode.toUnicode(host: tld)
        var reasons: [SafetyReason] = []
        for (index, label) in labels.enumerated() where HostText.hasPunycodeLabel(String(label)) {
            let unicode = sameShape ? String(unicodeLabels[index]) : Punycode.toUnicode(host: String(label))
            if let reason = IDNPolicy.reason(label: unicode, ascii: String(label), tld: tld, tldUnicode: tldUnicode) {
                reasons.append(reason)
            }
        }
        return reasons
    }

    /// A mailto's recipients' domains (at most 16), ASCII and Unicode.
    static func hosts(of url: ParsedURL, mailto: MailtoURL?) -> [(ascii: String, unicode: String)] {
        guard url.scheme == "mailto" else { return [] }
        let mail = mailto ?? MailtoURL(url)
        var seen = Set<String>()
        var hosts: [(ascii: String, unicode: String)] = []
        for address in mail.to + mail.cc + mail.bcc {
            guard let domain = LinkTextCheck.domain(ofAddress: address), seen.insert(domain).inserted else { continue }
            hosts.append((domain, Punycode.toUnicode(host: domain)))
            if hosts.count == 16 { break }
        }
        return hosts
    }
}

import JSON
import URLModel

/// What openurld thinks of a link before it opens it, judged offline: nothing about the link
/// leaves the machine.
public enum SafetyVerdict: Sendable, Equatable {
    /// Nothing found.
    case safe
    /// Opening it may mislead: the reasons, most telling first.
    case warn([SafetyReason])
    /// A block list names it.
    case block(SafetyBlock)

    /// `safe`, `warn` or `block`, as `openurl test --json` writes it.
    public var name: String {
        switch self {
        case .safe: return "safe"
        case .warn: return "warn"
        case .block: return "block"
        }
    }

    /// True for a `warn` whose every reason is lesser (`SafetyReason.Kind.isLesser`): it is
    /// carried out with a notification under every policy but `off`.
    public var isLesser: Bool {
        if case .warn(let reasons) = self { return !reasons.isEmpty && reasons.allSatisfy(\.kind.isLesser) }
        return false
    }

    /// The reasons of a `warn`, empty otherwise.
    public var reasons: [SafetyReason] {
        if case .warn(let reasons) = self { return reasons }
        return []
    }

    /// One line for a notification or the chooser: the first reason, or the list that blocks;
    /// nil when safe.
    public var summary: String? {
        switch self {
        case .safe: return nil
        case .warn(let reasons): return reasons.first?.message
        case .block(let block): return block.message
        }
    }

    /// How to show `url`'s host: in Unicode when the link is safe, in ASCII (`xn--`) otherwise,
    /// so that a look-alike cannot pass for the name it imitates. (A checker with the IDN check
    /// off calls every host safe: show ASCII then, or run the IDN check alone for display.)
    public func shownHost(of url: ParsedURL) -> String {
        if case .safe = self { return url.unicodeHost }
        return url.host
    }

    /// The verdict as a JSON object (the `safety` object of `openurl test --json`):
    /// `{"verdict":"warn","reasons":[{"kind":…,"message":…},…]}`, `{"verdict":"block","block":{…}}`,
    /// `{"verdict":"safe"}`. `url`, when given and with a host, adds `shown_host` (see
    /// `shownHost(of:)`).
    public func json(for url: ParsedURL? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("verdict", .string(name))]
        if let url, !url.host.isEmpty { members.append(("shown_host", .string(shownHost(of: url)))) }
        switch self {
        case .safe: break
        case .warn(let reasons): members.append(("reasons", .array(reasons.map(\.json))))
        case .block(let block): members.append(("block", block.json))
        }
        return .object(members)
    }
}

/// One reason a link is a `warn`.
public struct SafetyReason: Sendable, Equatable {
    /// What was found, as `kind` in JSON.
    public enum Kind: String, Sendable, CaseIterable {
        /// A label mixes scripts browsers do not allow together (Latin with Cyrillic, …).
        case idnMixedScript = "idn-mixed-script"
        /// A label written wholly in letters of another script that look like Latin ones.
        case idnWholeScript = "idn-whole-script"
        /// A label made of digits and characters that look like digits.
        case idnDigitLookalike = "idn-digit-lookalike"
        /// A character not used in domain names (symbols, rare or historic letters, look-alikes
        /// of `/`, `-` or quotes).
        case idnCharacter = "idn-disallowed-character"
        /// An invisible character (zero-width joiners) or a repeated combining mark.
        case idnInvisible = "idn-invisible"
        /// A pattern browsers refuse: Kana or CJK look-alikes of `/` or `-` next to Latin,
        /// combining marks on the wrong letters.
        case idnDangerousPattern = "idn-dangerous-pattern"
        /// A letter allowed only under one country's domain (`þ` under `.is`).
        case idnTLDCharacter = "idn-tld-character"
        /// Digits of two numbering systems in one label.
        case idnMixedDigits = "idn-mixed-digits"
        /// A label that is not valid punycode.
        case idnInvalid = "idn-invalid"
        /// The host looks like a domain that matters to this user but is not it.
        case lookalikeDomain = "lookalike-domain"
        /// The link's text names another domain than the one it goes to.
        case linkTextMismatch = "link-text-mismatch"
        /// `https://paypal.com@evil.example/`: a domain before `@` that is not the host.
        case misleadingUserinfo = "misleading-userinfo"
        /// The link's text spells out `https://` for the same site, but the link is `http`.
        case linkTextScheme = "link-text-scheme"
        /// A domain the user trusts (or a top site) written in front of another registrable
        /// domain: `www.google.com.evil.example`, `google-com.evil.example`.
        case targetEmbedding = "target-embedding"

        /// True for a reason that only ever notifies, whatever the policy: nothing about the
        /// site misleads, only how it is reached (`link-text-scheme`).
        public var isLesser: Bool { self == .linkTextScheme }
    }

    /// What was found.
    public var kind: Kind
    /// A sentence that reads well after the host in a notification ("its name mixes Latin and
    /// Cyrillic letters", "looks like paypal.com, which your rule 'Pay' opens in firefox:Banking").
    public var message: String
    /// The label concerned, in ASCII (`xn--…`), for the IDN kinds.
    public var label: String?
    /// The domain imitated or named (`paypal.com`), for `lookalike-domain`, `link-text-mismatch`,
    /// `misleading-userinfo` and `target-embedding`; the site itself for `link-text-scheme`.
    public var domain: String?

    /// A reason.
    public init(kind: Kind, message: String, label: String? = nil, domain: String? = nil) {
        self.kind = kind
        self.message = message
        self.label = label
        self.domain = domain
    }

    /// `{"kind":…,"message":…}` with `label` and `domain` when set.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("kind", .string(kind.rawValue)), ("message", .string(message))]
        if let label { members.append(("label", .string(label))) }
        if let domain { members.append(("domain", .string(domain))) }
        return .object(members)
    }
}

/// The block list entry that blocks a link.
public struct SafetyBlock: Sendable, Equatable {
    /// The list's name ("uBlock filters – Badware risks").
    public var list: String
    /// Where the list was read from.
    public var path: String
    /// The entry as the list writes it (`||evil.example^$doc`).
    public var entry: String
    /// Its line in the list, from 1.
    public var line: Int

    /// A block.
    public init(list: String, path: String, entry: String, line: Int) {
        self.list = list
        self.path = path
        self.entry = entry
        self.line = line
    }

    /// "listed in uBlock filters – Badware risks (||evil.example^$doc)".
    public var message: String { "listed in \(list) (\(entry))" }

    /// `{"list":…,"path":…,"entry":…,"line":…,"message":…}`.
    public var json: JSONValue {
        .object([("list", .string(list)), ("path", .string(path)), ("entry", .string(entry)),
                 ("line", .number(line)), ("message", .string(message))])
    }
}

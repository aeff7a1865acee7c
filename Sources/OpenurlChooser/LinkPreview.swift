import URLModel
import JSON
import LinkSafety
import RouterContract
import Platform

/// What the chooser window shows about a link, computed without I/O so it can be tested as a
/// table and printed by `openurl-chooser --dump`: the URL as it will be opened with its
/// registrable domain set apart, the original when hygiene changed it, the host in both forms,
/// warnings, a mailto's fields, the choices and the ways to remember a choice.
public struct LinkPreview: Sendable {
    /// A way to remember a choice: what the written rule will match.
    public struct RememberScope: Sendable, Equatable {
        /// `domain` (the registrable domain and its subdomains), `host` (exactly this host),
        /// `opener` (links from this app) or `mail-domain` (mail to this domain).
        public var scope: String
        /// The domain, host, opener or mail domain.
        public var value: String
        /// What the check button says.
        public var label: String
    }

    /// The link's safety verdict as the window shows it.
    public struct Safety: Sendable, Equatable {
        /// `safe`, `warn` or `block`.
        public var verdict: String
        /// What was found, one sentence each ("its name mixes Latin and Cyrillic letters").
        public var messages: [String]
        /// True when hosts and addresses may be shown in Unicode (safe, and the IDN check ran).
        public var showsUnicode: Bool

        /// A safety note.
        public init(verdict: String, messages: [String], showsUnicode: Bool) {
            self.verdict = verdict
            self.messages = messages
            self.showsUnicode = showsUnicode
        }

        /// The note for `verdict`, as the IDN check alone shows it when the caller sent none.
        public init(_ verdict: SafetyVerdict, showsUnicode: Bool) {
            self.verdict = verdict.name
            switch verdict {
            case .safe: messages = []
            case .warn(let reasons): messages = reasons.map(\.message)
            case .block(let block): messages = [block.message]
            }
            self.showsUnicode = showsUnicode
        }

        /// The `safety` object of a decision (`openurl test --json`, the question line); nil
        /// when it is not one.
        public init?(json: JSONValue?) {
            guard let json, let verdict = json["verdict"]?.string else { return nil }
            self.verdict = verdict
            var messages = (json["reasons"]?.items ?? []).compactMap { $0["message"]?.string }
            if let block = json["block"]?["message"]?.string { messages.append(block) }
            self.messages = messages
            // A caller that says nothing of the form is trusted only for a safe verdict with a host shown in Unicode.
            showsUnicode = json["shows_unicode"]?.bool ?? (verdict == "safe")
        }

        /// The note as JSON (`openurl-chooser --dump`).
        public var json: JSONValue {
            .object([("verdict", .string(verdict)), ("messages", .array(messages.map { .string($0) })), ("shows_unicode", .bool(showsUnicode))])
        }
    }

    /// A mailto link's fields.
    public struct Mail: Sendable, Equatable {
        public var to: [String], cc: [String], bcc: [String]
        /// The subject, if any.
        public var subject: String?
        /// The first `bodyPreviewLength` characters of the body, if any.
        public var bodyPreview: String?
    }

    /// Characters of a mail body shown.
    public static let bodyPreviewLength = 280

    /// The URL that a choice opens.
    public var url: String
    /// The URL as clicked, when hygiene or a rewrite changed it.
    public var original: String?
    /// `url` cut around the registrable domain: before, the domain, after (all empty but `before`
    /// when there is no host).
    public var urlParts: (before: String, domain: String, after: String)
    /// The host (ASCII form); empty for a mailto or a URL without a host.
    public var host: String
    /// The host in Unicode when it is an IDN host.
    public var unicodeHost: String?
    /// The registrable domain (`example.co.uk`), nil for an IP address or a bare suffix.
    public var registrableDomain: String?
    /// The safety verdict: what the decision found, or the IDN check alone when none was sent.
    public var safety: Safety
    /// The host as it may be shown: Unicode only when the verdict is safe, else ASCII.
    public var shownHost: String? {
        if host.isEmpty { return nil }
        return safety.showsUnicode ? (unicodeHost ?? host) : host
    }
    /// The warning line the window shows, nil when safe.
    public var warning: String? {
        guard safety.verdict != "safe" else { return nil }
        let place = shownHost ?? mail?.to.first ?? ""
        let found = safety.messages.isEmpty ? "this link may mislead" : safety.messages.joined(separator: "; ")
        return place.isEmpty ? found : "\(place): \(found)"
    }
    /// Notes worth a glance: plain http, a changed URL.
    public var notes: [String]
    /// For a mailto.
    public var mail: Mail?
    /// The choices, in order (`1`–`9` pick them).
    public var choices: [OfferedChoice]
    /// Ways to remember, the first the default: the narrowest (this host, when it is not the
    /// registrable domain), then the registrable domain, then the opener.
    public var remember: [RememberScope]
    /// The opener app, when known.
    public var opener: String?

    /// The window title: "Open link — example.org" (the host in ASCII unless the link is safe).
    public var title: String {
        let place = mail.flatMap { $0.to.first } ?? shownHost
        return place.map { "Open link — \($0)" } ?? "Open link"
    }

    /// Builds the preview of `url` (the final URL) clicked as `original`; `publicSuffixes` is the
    /// list text (nil: the built-in fallback); `safety` is the decision's verdict (nil: the IDN
    /// check alone judges the host).
    public init(url: String, original: String?, choices: [OfferedChoice], opener: String?, publicSuffixes: [UInt8]?,
                safety: Safety? = nil) throws(URLParseError) {
        let parsed = try ParsedURL(url)
        let shown: Safety
        if let safety { shown = safety } else {
            let verdict = Self.idnOnly.verdict(for: parsed)
            shown = Safety(verdict, showsUnicode: verdict == .safe)
        }
        self.safety = shown
        /// An address as it may be shown: its domain in ASCII unless the link is safe.
        func address(_ text: String) -> String {
            guard !shown.showsUnicode, let at = text.lastIndex(of: "@") else { return text }
            let domain = String(text[text.index(after: at)...])
            return String(text[...at]) + (Punycode.toASCII(host: domain.lowercased()) ?? domain)
        }
        func hostName(_ ascii: String) -> String { shown.showsUnicode ? Punycode.toUnicode(host: ascii) : ascii }
        self.url = parsed.string
        self.original = original.flatMap { $0 == parsed.string || $0 == url ? nil : $0 }
        self.choices = choices
        self.opener = opener.flatMap { $0.isEmpty ? nil : $0 }
        host = parsed.host
        unicodeHost = parsed.unicodeHost != parsed.host ? parsed.unicodeHost : nil
        notes = []
        remember = []
        mail = nil
        registrableDomain = nil
        urlParts = (parsed.string, "", "")
        if parsed.scheme == "mailto" {
            let mailto = MailtoURL(parsed)
            let body = mailto.body.map { $0.count > Self.bodyPreviewLength ? String($0.prefix(Self.bodyPreviewLength)) + "…" : $0 }
            mail = Mail(to: mailto.to.map(address), cc: mailto.cc.map(address), bcc: mailto.bcc.map(address), subject: mailto.subject, bodyPreview: body)
            if let first = mailto.to.first, let at = first.lastIndex(of: "@") {
                let domain = String(first[first.index(after: at)...]).lowercased()
                if !domain.isEmpty {
                    let label = shown.showsUnicode ? domain : (Punycode.toASCII(host: domain) ?? domain)
                    remember.append(RememberScope(scope: "mail-domain", value: domain, label: "Remember for mail to @\(label)"))
                }
            }
        } else if !parsed.host.isEmpty {
            let domain = PublicSuffixList.registrableDomain(of: parsed.host, listText: publicSuffixes)
            registrableDomain = domain
            if let domain, let range = Self.hostRange(in: parsed.string, host: parsed.host) {
                let hostEnd = range.upperBound
                let domainStart = parsed.string.index(hostEnd, offsetBy: -domain.count)
                urlParts = (String(parsed.string[..<domainStart]), String(parsed.string[domainStart..<hostEnd]), String(parsed.string[hostEnd...]))
            }
            // The narrowest scope that answers this question first (the default), so remembering an
            // answer for news.example.org does not decide for the whole of example.org; a
            // look-alike host is named in ASCII, as its warning names it (`hostName`).
            let site = domain ?? parsed.host
            if let domain, domain != parsed.host {
                remember.append(RememberScope(scope: "host", value: parsed.host, label: "Remember for \(hostName(parsed.host)) only"))
            }
            remember.append(RememberScope(scope: "domain", value: site, label: "Remember for \(hostName(site))"))
        }
        if let opener = self.opener {
            remember.append(RememberScope(scope: "opener", value: opener, label: "Remember for links from \(opener)"))
        }
        if parsed.scheme == "http" {
            notes.append("Plain http: the connection is not encrypted, and anyone on the network can read or change the page")
        }
        if self.original != nil { notes.append("Cleaned: tracking parameters or a redirect wrapper were removed") }
    }

    /// The window's keys, as its footer lists them: Tab moves the focus between areas and never
    /// the selection, and "Remember" and its scope menu have their own mnemonics.
    public var keyHints: String {
        var keys = ["1–9 open", "Enter opens the selected", "Tab moves between the link, the choices and Remember (never the selection)"]
        switch remember.count {
        case 0: break
        case 1: keys.append("Alt+R remember")
        default: keys.append("Alt+R remember, Alt+F for what")
        }
        keys += ["Ctrl+Enter opens and stays", "Ctrl+C copies", "Esc cancels"]
        return keys.joined(separator: " · ")
    }

    /// The IDN rules alone (no known domains, lists or link text): what a window asked without a
    /// verdict can still judge.
    static let idnOnly = SafetyChecker(checks: SafetyChecks(idn: true, lookalikes: false, linkText: false, blocklists: false))

    /// Where the host sits in a normalised URL string (after `scheme://` and any userinfo).
    private static func hostRange(in url: String, host: String) -> Range<String.Index>? {
        guard let authority = url.firstRange(ofText: "://") else { return nil }
        var start = authority.upperBound
        let authorityEnd = url[start...].firstIndex(where: { "/?#".contains($0) }) ?? url.endIndex
        if let at = url[start..<authorityEnd].lastIndex(of: "@") { start = url.index(after: at) }
        guard url[start...].hasPrefix(host) else { return nil }
        return start..<url.index(start, offsetBy: host.count)
    }

    /// The model as JSON (what `openurl-chooser --dump` prints).
    public var json: JSONValue {
        func strings(_ items: [String]) -> JSONValue { .array(items.map { .string($0) }) }
        func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }
        var mailValue = JSONValue.null
        if let mail {
            let fields: [(String, JSONValue)] = [
                ("to", strings(mail.to)), ("cc", strings(mail.cc)), ("bcc", strings(mail.bcc)),
                ("subject", optional(mail.subject)), ("body_preview", optional(mail.bodyPreview)),
            ]
            mailValue = .object(fields)
        }
        var choiceValues: [JSONValue] = []
        for (index, choice) in choices.enumerated() {
            let shortcut: JSONValue = index < 9 ? .string(String(index + 1)) : .null
            let fields: [(String, JSONValue)] = [("key", .string(choice.key)), ("label", .string(choice.label)), ("icon", .string(choice.icon)), ("shortcut", shortcut)]
            choiceValues.append(.object(fields))
        }
        var rememberValues: [JSONValue] = []
        for scope in remember {
            let fields: [(String, JSONValue)] = [("scope", .string(scope.scope)), ("value", .string(scope.value)), ("label", .string(scope.label))]
            rememberValues.append(.object(fields))
        }
        var members: [(String, JSONValue)] = []
        members.append(("title", .string(title)))
        members.append(("url", .string(url)))
        members.append(("original", optional(original)))
        members.append(("url_parts", strings([urlParts.before, urlParts.domain, urlParts.after])))
        members.append(("host", .string(host)))
        members.append(("unicode_host", optional(unicodeHost)))
        members.append(("registrable_domain", optional(registrableDomain)))
        members.append(("shown_host", optional(shownHost)))
        members.append(("safety", safety.json))
        members.append(("warning", optional(warning)))
        members.append(("notes", strings(notes)))
        members.append(("mail", mailValue))
        members.append(("opener", optional(opener)))
        members.append(("choices", .array(choiceValues)))
        members.append(("remember", .array(rememberValues)))
        members.append(("keys", .string(keyHints)))
        return .object(members)
    }
}

import URLModel
import RoutingCore

/// The words openurld's notifications say. Pure: no I/O.
public enum NotificationText {
    /// The action key of the "Open" button on a copy confirmation.
    public static let openActionKey = "open"
    /// The longest text shown in a body line; longer URLs are cut in the middle of nowhere useful,
    /// so they end with an ellipsis (the clipboard still holds all of it).
    public static let maximumShownLength = 300

    /// Escapes text for a server that reads markup in bodies (`body-markup`): `&`, `<`, `>`, `"`, `'`.
    public static func escapeMarkup(_ text: String) -> String { MarkupText.escaped(text) }

    /// The host as a person should read it: `example.org`, or for an IDN host both forms,
    /// `bücher.de (xn--bcher-kva.de)`, so a look-alike domain is visible; only the ASCII form
    /// when `showsUnicode` is false (a link judged `warn` or `block`). Nil without a host.
    public static func hostLabel(_ url: ParsedURL, showsUnicode: Bool = true) -> String? {
        guard !url.host.isEmpty else { return nil }
        return showsUnicode ? hostLabel(ascii: url.host, unicode: url.unicodeHost) : url.host
    }

    /// `unicode (ascii)` when they differ, else the host.
    static func hostLabel(ascii: String, unicode: String) -> String {
        unicode == ascii ? ascii : "\(unicode) (\(ascii))"
    }

    /// An e-mail address with an IDN domain shown both ways: `a@bücher.de (a@xn--bcher-kva.de)`;
    /// only in ASCII when `showsUnicode` is false.
    public static func addressLabel(_ address: String, showsUnicode: Bool = true) -> String {
        guard let at = address.lastIndex(of: "@") else { return address }
        let local = address[..<at], domain = String(address[address.index(after: at)...])
        let ascii = Punycode.toASCII(host: domain.lowercased()) ?? domain
        let unicode = Punycode.toUnicode(host: ascii)
        if !showsUnicode { return "\(local)@\(ascii)" }
        return unicode == ascii ? address : "\(local)@\(unicode) (\(local)@\(ascii))"
    }

    /// The line a copy confirmation ends with when a mailto's Bcc recipients were not copied.
    public static let bccLeftOutLine = "Bcc left out: its recipients are hidden from the others, so they were not copied."

    /// The copy confirmation: "Copied address" for a mailto whose recipients were copied,
    /// "Copied link" otherwise; the body leads with the host, then what was copied, then, when
    /// `leftOutBcc`, that the Bcc recipients were left out, then what the safety checks found
    /// (`safety`); one "Open" action.
    public static func copied(text: String, url: ParsedURL, leftOutBcc: Bool = false, safety: DecisionSafety = .unchecked) -> NotificationRequest {
        let isAddress = url.scheme == "mailto" && !text.contains(":")
        let unicode = safety.showsUnicode
        var lines: [String] = []
        if isAddress {
            lines.append(text.split(separator: ",").map { addressLabel($0.trimmingSpaces, showsUnicode: unicode) }.joined(separator: ", "))
        } else {
            if let host = hostLabel(url, showsUnicode: unicode) { lines.append(host) }
            lines.append(shortened(text))
        }
        if leftOutBcc { lines.append(bccLeftOutLine) }
        if let found = safety.summary { lines.append("⚠ " + found) }
        return NotificationRequest(
            summary: safety.summary == nil ? (isAddress ? "Copied address" : "Copied link") : (isAddress ? "Copied an address that may mislead" : "Copied a link that may mislead"),
            body: lines.joined(separator: "\n"),
            actions: [(key: openActionKey, label: "Open")], icon: NotificationClient.Icon.copy)
    }

    /// A launch that failed: which target, why, and the link (so it is not lost).
    public static func launchFailed(target: String, url: String, error: String, choices: [Choice] = []) -> NotificationRequest {
        NotificationRequest(
            summary: "Could not open link in \(target)", body: "\(error)\n\(shortened(url))" + (choices.isEmpty ? "" : "\nOpen it with:"),
            actions: choices.map { (key: $0.key, label: $0.label) }, urgency: .critical, timeout: choices.isEmpty ? -1 : 0,
            icon: NotificationClient.Icon.error)
    }

    /// A copy that failed: why, and the link (so it is not lost).
    public static func copyFailed(url: String, error: String) -> NotificationRequest {
        NotificationRequest(summary: "Could not copy", body: "\(error)\n\(shortened(url))", urgency: .critical, icon: NotificationClient.Icon.error)
    }

    /// A link refused before anything was tried (a scheme that is not routed, a bad target).
    public static func refused(url: String, reason: String) -> NotificationRequest {
        NotificationRequest(summary: "Link not opened", body: "\(reason)\n\(shortened(url))", urgency: .critical, icon: NotificationClient.Icon.error)
    }

    /// One call handed more links than are opened at once: how many went, how many did not.
    public static func tooManyLinks(total: Int, opened: Int) -> NotificationRequest {
        NotificationRequest(summary: "\(total - opened) of \(total) links not opened",
                            body: "One request handed over \(total) links; only the first \(opened) were opened.",
                            urgency: .critical, icon: NotificationClient.Icon.error)
    }

    /// The action key of "Open anyway" on a blocked link.
    public static let openAnywayActionKey = "open-anyway"

    /// A ClearURLs `completeProvider` blocked the link: which rule, the link, "Open anyway".
    public static func blocked(provider: String, url: String) -> NotificationRequest {
        NotificationRequest(
            summary: "Link blocked by \(provider)", body: "The ClearURLs rule \(provider) blocks this link.\n\(shortened(url))",
            actions: [(key: openAnywayActionKey, label: "Open anyway")], icon: NotificationClient.Icon.error)
    }

    /// A discard that asked to be told (`notify = true`): by which rule.
    public static func discarded(url: String, rule: String?) -> NotificationRequest {
        NotificationRequest(summary: rule.map { "Link discarded by rule \($0)" } ?? "Link discarded by [default]", body: shortened(url))
    }

    /// A config that failed to (re)load; `diagnostic` is `FILE:LINE:COLUMN: message`.
    /// `usingDefaults`: no config had loaded yet, so the built-in defaults are in force.
    public static func configReloadFailed(_ diagnostic: String, usingDefaults: Bool = false) -> NotificationRequest {
        let text = String(diagnostic.drop { $0 == "\n" })
        return NotificationRequest(
            summary: usingDefaults ? "openurld: config error, using built-in defaults" : "openurld: config not reloaded",
            body: "\(text)\n" + (usingDefaults ? "Links go to the previous default handler" : "The previous rules stay in use")
                + ". Check with: openurl check",
            urgency: .critical, icon: NotificationClient.Icon.error)
    }

    /// The remembered answers did not load; the config is in force without them.
    public static func rememberedFailed(_ diagnostic: String, config: String) -> NotificationRequest {
        NotificationRequest(
            summary: "openurld: remembered answers not loaded",
            body: "\(diagnostic)\nThe rules of \(config) are in force; questions a remembered answer would settle are asked again. Check with: openurl check",
            urgency: .critical, icon: NotificationClient.Icon.error)
    }

    /// The system configuration (the administrator's) has an error: the user cannot fix it.
    public static func systemConfigFailed(_ diagnostic: String) -> NotificationRequest {
        NotificationRequest(
            summary: "The system configuration has an error (ask your administrator)",
            body: escapeMarkup("openurld keeps the rules of it that last loaded.\n" + String(diagnostic.drop { $0 == "\n" })),
            urgency: .normal, icon: NotificationClient.Icon.error)
    }

    /// The action keys of a takeover offer.
    public static let takeBackActionKey = "take-back"
    /// Keeps the app that took the defaults.
    public static let keepActionKey = "keep"

    /// Another app took some of openurld's defaults: "Take back" or "Keep APP".
    public static func defaultsTaken(app: String, schemes: String, files: String) -> NotificationRequest {
        NotificationRequest(summary: "\(app) took over \(schemes) links",
                            body: escapeMarkup("openurld no longer receives them (changed in \(files))."),
                            actions: [(takeBackActionKey, "Take back"), (keepActionKey, "Keep \(app)")], timeout: 0)
    }

    /// The action keys of an unanswered question's notification.
    public static let askAgainActionKey = "ask-again"

    /// Why questions went unanswered.
    public enum Unanswered: Sendable, Equatable {
        /// Nobody answered within `ask_timeout`.
        case noAnswer
        /// The daemon stopped while they waited, and their time ran out before it was back.
        case interrupted
    }

    /// Links whose question went unanswered, newest last: one low-urgency notification for all
    /// of them ("Link not opened: no answer", "3 links not opened: …"), with **Open** (each link
    /// to the first target its question offered) and **Ask again**.
    public static func unanswered(_ urls: [String], reasons: Set<Unanswered>) -> NotificationRequest {
        let why: String
        switch (reasons.contains(.noAnswer), reasons.contains(.interrupted)) {
        case (true, false): why = "no answer"
        case (false, true): why = "the question was interrupted"
        default: why = "no answer, or the question was interrupted"
        }
        let summary = urls.count == 1 ? "Link not opened: \(why)" : "\(urls.count) links not opened: \(why)"
        var lines = urls.suffix(5).reversed().map(shortened)
        if urls.count > 5 { lines.append("… and \(urls.count - 5) more") }
        return NotificationRequest(summary: summary, body: lines.joined(separator: "\n"),
                                   actions: [(key: openActionKey, label: "Open"), (key: askAgainActionKey, label: "Ask again")],
                                   urgency: .low, icon: NotificationClient.Icon.browser)
    }

    /// The click record (`recent`) cannot be written: why, and that links still work.
    public static func historyUnwritable(path: String, why: String) -> NotificationRequest {
        NotificationRequest(summary: "openurld: history cannot be written",
                            body: "\(shortened(why))\nLinks still open. openurl recent keeps them in memory and \(path) gets them when space returns.",
                            icon: NotificationClient.Icon.error)
    }

    /// State files refused (`files`: path and why): a link, or a file not openurld's own, is
    /// where each should be. The summary names them, the body says why, each on its line.
    public static func stateFilesRefused(_ files: [(path: String, why: String)]) -> NotificationRequest {
        let names = files.map { $0.path.split(separator: "/").last.map(String.init) ?? $0.path }
        let lines = files.map { "\($0.path) \(shortened($0.why))." }
        return NotificationRequest(summary: "openurld: not writing \(names.joined(separator: ", "))",
                                   body: (lines + ["Links still open; openurl recent keeps them in memory. Remove the link to let openurld write its own file there again."]).joined(separator: "\n"),
                                   icon: NotificationClient.Icon.error)
    }

    /// The ask prompt: host and link in the body, one action per choice, keyed by the choice as
    /// written in the config (`firefox.desktop`, `work`, `copy`) and labelled as the window labels it.
    /// With a verdict (`safety`), the host is shown in ASCII and what was found comes first.
    public static func ask(url: ParsedURL, choices: [Choice], safety: DecisionSafety = .unchecked) -> NotificationRequest {
        var lines: [String] = []
        if let found = safety.summary { lines.append("⚠ " + found) }
        if let host = hostLabel(url, showsUnicode: safety.showsUnicode) { lines.append(host) }
        lines.append(shortened(url.string))
        let summary = safety.summary == nil ? "Open link with…" : "Careful: open \(safety.shownHost ?? "this link") with…"
        return NotificationRequest(summary: summary, body: lines.joined(separator: "\n"),
                                   actions: choices.map { (key: $0.key, label: $0.label) }, timeout: 0, icon: NotificationClient.Icon.browser)
    }

    static func shortened(_ text: String) -> String {
        text.count <= maximumShownLength ? text : String(text.prefix(maximumShownLength - 1)) + "…"
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

import Routing
import URLModel

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
    /// `bücher.de (xn--bcher-kva.de)`, so a look-alike domain is visible. Nil without a host.
    public static func hostLabel(_ url: ParsedURL) -> String? {
        guard !url.host.isEmpty else { return nil }
        return hostLabel(ascii: url.host, unicode: url.unicodeHost)
    }

    /// `unicode (ascii)` when they differ, else the host.
    static func hostLabel(ascii: String, unicode: String) -> String {
        unicode == ascii ? ascii : "\(unicode) (\(ascii))"
    }

    /// An e-mail address with an IDN domain shown both ways: `a@bücher.de (a@xn--bcher-kva.de)`.
    public static func addressLabel(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return address }
        let local = address[..<at], domain = String(address[address.index(after: at)...])
        let ascii = Punycode.toASCII(host: domain.lowercased()) ?? domain
        let unicode = Punycode.toUnicode(host: ascii)
        return unicode == ascii ? address : "\(local)@\(unicode) (\(local)@\(ascii))"
    }

    /// The line a copy confirmation ends with when a mailto's Bcc recipients were not copied.
    public static let bccLeftOutLine = "Bcc left out: its recipients are hidden from the others, so they were not copied."

    /// The copy confirmation: "Copied address" for a mailto whose recipients were copied,
    /// "Copied link" otherwise; the body leads with the host, then what was copied, then, when
    /// `leftOutBcc`, that the Bcc recipients were left out; one "Open" action.
    public static func copied(text: String, url: ParsedURL, leftOutBcc: Bool = false) -> NotificationRequest {
        let isAddress = url.scheme == "mailto" && !text.contains(":")
        var lines: [String] = []
        if isAddress {
            lines.append(text.split(separator: ",").map { addressLabel($0.trimmingSpaces) }.joined(separator: ", "))
        } else {
            if let host = hostLabel(url) { lines.append(host) }
            lines.append(shortened(text))
        }
        if leftOutBcc { lines.append(bccLeftOutLine) }
        return NotificationRequest(
            summary: isAddress ? "Copied address" : "Copied link", body: lines.joined(separator: "\n"),
            actions: [(key: openActionKey, label: "Open")], icon: NotificationClient.Icon.copy)
    }

    /// A launch that failed: which target, why, and the link (so it is not lost).
    public static func launchFailed(target: String, url: String, error: String) -> NotificationRequest {
        NotificationRequest(
            summary: "Could not open link in \(target)", body: "\(error)\n\(shortened(url))",
            urgency: .critical, icon: NotificationClient.Icon.error)
    }

    /// A copy that failed: why, and the link (so it is not lost).
    public static func copyFailed(url: String, error: String) -> NotificationRequest {
        NotificationRequest(summary: "Could not copy", body: "\(error)\n\(shortened(url))", urgency: .critical, icon: NotificationClient.Icon.error)
    }

    /// A link refused before anything was tried (a scheme that is not routed, a bad target).
    public static func refused(url: String, reason: String) -> NotificationRequest {
        NotificationRequest(summary: "Link not opened", body: "\(reason)\n\(shortened(url))", urgency: .critical, icon: NotificationClient.Icon.error)
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

    /// The ask prompt: host and link in the body, one action per choice, keyed by the choice as
    /// written in the config (`firefox.desktop`, `work`, `copy`) and labelled as the window labels it.
    public static func ask(url: ParsedURL, choices: [Choice]) -> NotificationRequest {
        var lines: [String] = []
        if let host = hostLabel(url) { lines.append(host) }
        lines.append(shortened(url.string))
        return NotificationRequest(summary: "Open link with…", body: lines.joined(separator: "\n"),
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

import URLModel

/// A web link that has a native app: the conversion from the web address to the app's own URL.
/// Applied only when a desktop entry declares the app's scheme (`x-scheme-handler/zoommtg`).
public struct AppLink: Sendable {
    /// The name used in `app_links = ["zoom", ...]` and in traces.
    public var name: String
    /// The scheme of the converted URL; an entry must declare `x-scheme-handler/` + this.
    public var scheme: String
    /// The converted URL, or nil when the link is not one of this app's.
    public var convert: @Sendable (ParsedURL) -> String?

    /// The built-in conversions, a line each.
    public static let table: [AppLink] = [
        AppLink(name: "zoom", scheme: "zoommtg", convert: { zoom($0) }),
        AppLink(name: "teams", scheme: "msteams", convert: { teams($0) }),
        AppLink(name: "slack", scheme: "slack", convert: { slack($0) }),
        AppLink(name: "spotify", scheme: "spotify", convert: { spotify($0) }),
        AppLink(name: "figma", scheme: "figma", convert: { figma($0) }),
        AppLink(name: "discord", scheme: "discord", convert: { discord($0) }),
        AppLink(name: "notion", scheme: "notion", convert: { notion($0) }),
        AppLink(name: "linear", scheme: "linear", convert: { linear($0) }),
        AppLink(name: "webex", scheme: "webexteams", convert: { webex($0) }),
        AppLink(name: "jitsi", scheme: "jitsi-meet", convert: { jitsi($0) }),
        AppLink(name: "telegram", scheme: "tg", convert: { telegram($0) }),
        AppLink(name: "element", scheme: "element", convert: { element($0) }),
        AppLink(name: "steam", scheme: "steam", convert: { steam($0) }),
        AppLink(name: "vscode", scheme: "vscode", convert: { vscode($0) }),
        AppLink(name: "obsidian", scheme: "obsidian", convert: { obsidian($0) }),
    ]

    /// The names of the built-in conversions.
    public static var names: [String] { table.map(\.name) }

    /// `https://*.zoom.us/j/<id>?pwd=<p>` → `zoommtg://zoom.us/join?action=join&confno=<id>&pwd=<p>`.
    static func zoom(_ url: ParsedURL) -> String? {
        guard isWeb(url), url.host == "zoom.us" || url.host.hasSuffix(".zoom.us") else { return nil }
        let parts = segments(url)
        guard parts.count == 2, parts[0] == "j", isDigits(parts[1]) else { return nil }
        var converted = "zoommtg://zoom.us/join?action=join&confno=" + parts[1]
        if let password = url.queryItems.first(where: { $0.name == "pwd" })?.value, !password.isEmpty {
            converted += "&pwd=" + PercentEncoding.encode(password)
        }
        return converted
    }

    /// `https://teams.microsoft.com/l/meetup-join/...` → `msteams:/l/meetup-join/...` (query kept).
    static func teams(_ url: ParsedURL) -> String? {
        guard isWeb(url), url.host == "teams.microsoft.com", url.path.hasPrefix("/l/meetup-join/") else { return nil }
        return "msteams:" + url.path + (url.query.map { "?" + $0 } ?? "")
    }

    /// `https://app.slack.com/client/<team>/<channel>` → `slack://channel?team=<team>&id=<channel>`.
    static func slack(_ url: ParsedURL) -> String? {
        guard isWeb(url), url.host == "app.slack.com" else { return nil }
        let parts = segments(url)
        guard parts.count >= 3, parts[0] == "client", isWord(parts[1]), isWord(parts[2]) else { return nil }
        return "slack://channel?team=\(parts[1])&id=\(parts[2])"
    }

    /// `https://open.spotify.com/[intl-xx/]<type>/<id>` → `spotify:<type>:<id>`.
    static func spotify(_ url: ParsedURL) -> String? {
        guard isWeb(url), url.host == "open.spotify.com" else { return nil }
        var parts = segments(url)
        if let first = parts.first, first.hasPrefix("intl-") { parts.removeFirst() }
        let types: Set<String> = ["track", "album", "artist", "playlist", "episode", "show", "user"]
        guard parts.count == 2, types.contains(parts[0]), isWord(parts[1]) else { return nil }
        return "spotify:\(parts[0]):\(parts[1])"
    }

    static func isWeb(_ url: ParsedURL) -> Bool { url.scheme == "https" || url.scheme == "http" }

    static func segments(_ url: ParsedURL) -> [String] {
        url.path.split(separator: "/").map(String.init)
    }

    static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Letters and digits only: ids pasted into another URL must not carry its syntax.
    static func isWord(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { PercentEncoding.isUnreserved($0) && $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "~") }
    }
}

/// `[settings] app_links` and a rule's `app_links`: which conversions apply.
public enum AppLinkSetting: Sendable, Equatable {
    /// Every conversion whose app is installed (the default, and `true`).
    case all
    /// None (`false`).
    case none
    /// Only these (`["zoom", "teams"]`), each when its app is installed.
    case only(Set<String>)

    /// Whether the conversion `name` may apply.
    public func allows(_ name: String) -> Bool {
        switch self {
        case .all: return true
        case .none: return false
        case .only(let names): return names.contains(name)
        }
    }
}

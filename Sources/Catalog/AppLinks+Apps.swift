import URLModel

// The conversions added in issue 34. Each takes only the link shapes it knows and leaves
// anything else (another path, a query it would have to drop) to the browser: a link that
// opens the right page in the browser is better than one that opens the app at the wrong place.
extension AppLink {
    /// `https://[www.]figma.com/(file|design|board|proto|slides)/<key>/…` → `figma://<same path and query>`.
    static func figma(_ url: ParsedURL) -> String? {
        guard isWeb(url), url.host == "figma.com" || url.host == "www.figma.com" else { return nil }
        let parts = segments(url)
        let kinds: Set<String> = ["file", "design", "board", "proto", "slides"]
        guard parts.count >= 2, kinds.contains(parts[0]), isWord(parts[1]) else { return nil }
        // The path and query are already in their normal, percent-encoded form: copied as they are.
        return "figma:/" + url.path + (url.query.map { "?" + $0 } ?? "")
    }

    /// `https://discord.com/channels/<guild>/<channel>[/<message>]` → `discord://-/channels/…`;
    /// `https://discord.gg/<code>` and `https://discord.com/invite/<code>` → `discord://-/invite/<code>`.
    static func discord(_ url: ParsedURL) -> String? {
        guard isWeb(url), url.query == nil else { return nil }
        let parts = segments(url)
        if url.host == "discord.gg" {
            guard parts.count == 1, isWord(parts[0]) else { return nil }
            return "discord://-/invite/" + parts[0]
        }
        guard ["discord.com", "www.discord.com", "discordapp.com"].contains(url.host), let first = parts.first else { return nil }
        if first == "invite" {
            guard parts.count == 2, isWord(parts[1]) else { return nil }
            return "discord://-/invite/" + parts[1]
        }
        // Direct messages live under the guild `@me`.
        guard first == "channels", (3...4).contains(parts.count), parts[1] == "@me" || isDigits(parts[1]),
              parts.dropFirst(2).allSatisfy(isDigits) else { return nil }
        return "discord://-/" + parts.joined(separator: "/")
    }

    /// `https://[www.]notion.so/<page>` → `notion://www.notion.so/<page>` (query kept).
    static func notion(_ url: ParsedURL) -> String? {
        guard isWeb(url), url.host == "notion.so" || url.host == "www.notion.so", !segments(url).isEmpty else { return nil }
        return "notion://www.notion.so" + url.path + (url.query.map { "?" + $0 } ?? "")
    }

    /// `https://linear.app/<workspace>/(issue|project|team|view|initiative|document)/…` → `linear://<workspace>/…`.
    static func linear(_ url: ParsedURL) -> String? {
        guard isWeb(url), url.host == "linear.app" else { return nil }
        let parts = segments(url)
        // The second part tells a workspace's page from the site's own (`/pricing`, `/docs/…`).
        let pages: Set<String> = ["issue", "project", "team", "view", "initiative", "document"]
        guard parts.count >= 3, isWord(parts[0]), pages.contains(parts[1]) else { return nil }
        return "linear:/" + url.path
    }

    /// `https://<site>.webex.com/meet/<name>` (a personal room) → `webexteams://meet?sip=<name>@<site>.webex.com`.
    static func webex(_ url: ParsedURL) -> String? {
        guard isWeb(url), url.host.hasSuffix(".webex.com"), url.query == nil else { return nil }
        let site = url.host.dropLast(".webex.com".count)
        let parts = segments(url)
        guard isWord(String(site)), parts.count == 2, parts[0] == "meet", isRoomName(parts[1]) else { return nil }
        return "webexteams://meet?sip=" + PercentEncoding.encode(parts[1] + "@" + url.host)
    }

    /// `https://meet.jit.si/<room>` → `jitsi-meet://meet.jit.si/<room>`.
    static func jitsi(_ url: ParsedURL) -> String? {
        // A fragment carries settings (`#config.startWithAudioMuted=true`) the app URL would lose.
        guard isWeb(url), url.host == "meet.jit.si", url.query == nil, url.fragment == nil else { return nil }
        let parts = segments(url)
        guard parts.count == 1, isWord(parts[0]) else { return nil }
        return "jitsi-meet://meet.jit.si/" + parts[0]
    }

    /// `https://t.me/<name>[/<post>]` → `tg://resolve?domain=<name>[&post=<post>]`; `t.me/+<hash>` and
    /// `t.me/joinchat/<hash>` → `tg://join?invite=<hash>`; `t.me/addstickers/<set>` → `tg://addstickers?set=<set>`.
    static func telegram(_ url: ParsedURL) -> String? {
        // A query (`?start=` for a bot, `?comment=`) changes what the link does: left to the browser.
        guard isWeb(url), url.host == "t.me" || url.host == "telegram.me", url.query == nil else { return nil }
        let parts = segments(url)
        switch (parts.first, parts.count) {
        case (let first?, 1) where first.hasPrefix("+"):
            let hash = String(first.dropFirst())
            return isWord(hash) ? "tg://join?invite=" + hash : nil
        case ("joinchat", 2):
            return isWord(parts[1]) ? "tg://join?invite=" + parts[1] : nil
        case ("addstickers", 2):
            return isWord(parts[1]) ? "tg://addstickers?set=" + parts[1] : nil
        case (let name?, 1) where isTelegramUsername(name):
            return "tg://resolve?domain=" + name
        case (let name?, 2) where isTelegramUsername(name) && isDigits(parts[1]):
            return "tg://resolve?domain=\(name)&post=\(parts[1])"
        default:
            return nil
        }
    }

    /// `https://matrix.to/#/<#alias:server|!room:server>` → `element://vector/webapp/#/room/<id>`;
    /// `https://matrix.to/#/@user:server` → `element://vector/webapp/#/user/<id>`.
    static func element(_ url: ParsedURL) -> String? {
        guard isWeb(url), url.host == "matrix.to", url.path == "/", url.query == nil,
              let fragment = url.fragment, fragment.hasPrefix("/") else { return nil }
        let id = String(fragment.dropFirst())
        guard let sigil = id.first, isMatrixID(id) else { return nil }
        return "element://vector/webapp/#/" + (sigil == "@" ? "user/" : "room/") + id
    }

    /// `https://store.steampowered.com/app/<id>[/…]` → `steam://store/<id>`;
    /// `https://steamcommunity.com/…` → `steam://openurl/<the link>`.
    static func steam(_ url: ParsedURL) -> String? {
        guard isWeb(url) else { return nil }
        if url.host == "steamcommunity.com" {
            // Steam reads everything after `openurl/` as the address, so the whole link fits unchanged.
            return segments(url).isEmpty ? nil : "steam://openurl/" + url.string
        }
        let parts = segments(url)
        guard url.host == "store.steampowered.com", parts.count >= 2, parts[0] == "app", isDigits(parts[1]) else { return nil }
        return "steam://store/" + parts[1]
    }

    /// `https://vscode.dev/github/<owner>/<repo>[/…]` and `https://github.dev/<owner>/<repo>[/…]` →
    /// `vscode://vscode.git/clone?url=https%3A%2F%2Fgithub.com%2F<owner>%2F<repo>.git`.
    static func vscode(_ url: ParsedURL) -> String? {
        guard isWeb(url) else { return nil }
        var parts = segments(url)
        switch url.host {
        case "vscode.dev":
            guard parts.first == "github" else { return nil }
            parts.removeFirst()
        case "github.dev":
            break
        default:
            return nil
        }
        guard parts.count >= 2, isWord(parts[0]), isRepositoryName(parts[1]) else { return nil }
        return "vscode://vscode.git/clone?url=" + PercentEncoding.encode("https://github.com/\(parts[0])/\(parts[1]).git")
    }

    /// `https://obsidian.md/plugins?id=<id>` → `obsidian://show-plugin?id=<id>`;
    /// `https://obsidian.md/themes?id=<name>` → `obsidian://show-theme?name=<name>`.
    static func obsidian(_ url: ParsedURL) -> String? {
        guard isWeb(url), url.host == "obsidian.md", url.queryItems.count == 1, url.queryItems[0].name == "id" else { return nil }
        let value = url.queryItems[0].value
        guard !value.isEmpty else { return nil }
        switch url.path {
        case "/plugins": return "obsidian://show-plugin?id=" + PercentEncoding.encode(value)
        case "/themes": return "obsidian://show-theme?name=" + PercentEncoding.encode(value)
        default: return nil
        }
    }

    /// Telegram's rule for public usernames: 5 to 32 letters, digits and `_`, starting with a
    /// letter; t.me's own pages that fit it are not usernames.
    static func isTelegramUsername(_ text: String) -> Bool {
        let pages: Set<String> = ["joinchat", "addstickers", "addemoji", "addlist", "addtheme", "share", "proxy", "socks",
                                  "login", "invoice", "boost", "contact", "setlanguage", "confirmphone", "giftcode"]
        guard (5...32).contains(text.utf8.count), let first = text.utf8.first, isLetter(first), !pages.contains(text.lowercased()) else { return false }
        return text.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") }
    }

    /// `#alias:server`, `!room:server` or `@user:server`, with a plain localpart and a host name
    /// (and port) for a server: nothing that could end the fragment or start another route.
    static func isMatrixID(_ id: String) -> Bool {
        guard let sigil = id.first, "#!@".contains(sigil) else { return false }
        let body = id.dropFirst().split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard body.count == 2, !body[0].isEmpty, !body[1].isEmpty else { return false }
        let localpart = body[0].utf8.allSatisfy { PercentEncoding.isUnreserved($0) && $0 != UInt8(ascii: "~") || $0 == UInt8(ascii: "=") }
        let server = body[1].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = server[0].utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
        return localpart && !server[0].isEmpty && host && (server.count == 1 || isDigits(String(server[1])))
    }

    /// A GitHub repository name: letters, digits, `-`, `_` and `.`, but not `.` or `..`.
    static func isRepositoryName(_ text: String) -> Bool {
        text != "." && text != ".." && !text.isEmpty && text.utf8.allSatisfy { PercentEncoding.isUnreserved($0) && $0 != UInt8(ascii: "~") }
    }

    /// A Webex personal room name (`jane.doe`): like a word, and dots between.
    static func isRoomName(_ text: String) -> Bool {
        text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { isWord(String($0)) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

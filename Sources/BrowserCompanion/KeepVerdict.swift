import Catalog

/// What the daemon's `Explain` said it would do with a link, as far as the companion needs it.
public struct ExplainedLink: Sendable, Equatable {
    /// `open`, `copy`, `ask`, `discard`, `system`, `held`, `unavailable`.
    public var decision: String
    /// The target as written (`chromium:Work`), nil for none.
    public var target: String?
    /// The URL as given and after hygiene and rewrites.
    public var url: String
    /// The URL after hygiene and rewrites.
    public var finalURL: String
    /// The desktop entry an open launches (`system` for the handler before openurld), nil for none.
    public var launchEntry: String?
    /// The arguments the launch puts before the URL.
    public var launchArguments: [String]
    /// The URL the launch hands over (nil: none, or the final URL).
    public var launchURL: String?
    /// Whether the safety verdict warns (a warning asks, so the link goes to the daemon).
    public var warns: Bool

    /// An explained link.
    public init(decision: String, target: String?, url: String, finalURL: String, launchEntry: String?, launchArguments: [String],
                launchURL: String? = nil, warns: Bool = false) {
        self.decision = decision
        self.target = target
        self.url = url
        self.finalURL = finalURL
        self.launchEntry = launchEntry
        self.launchArguments = launchArguments
        self.launchURL = launchURL
        self.warns = warns
    }
}

/// Whether a clicked link stays in the browser it was clicked in, and why: the rules' launch is
/// this very browser, in this profile (or no profile named), in a normal window, with the link
/// as clicked. Anything else (another app, browser or profile, a private or app window, copy,
/// ask, discard, a cleaned or converted link) goes to the daemon's `Open`.
public struct KeepVerdict: Sendable, Equatable {
    /// True when the browser keeps the link.
    public var keep: Bool
    /// Why, for the extension's console and the tests.
    public var why: String

    /// A verdict.
    public init(keep: Bool, why: String) {
        self.keep = keep
        self.why = why
    }

    /// The verdict on `explained` for a click in `browser`; `systemEntry` is the desktop entry a
    /// `system` decision opens (the handler before openurld), when known.
    public static func judge(_ explained: ExplainedLink, in browser: HostBrowser, systemEntry: String?) -> KeepVerdict {
        guard explained.decision == "open" || explained.decision == "system" else {
            return KeepVerdict(keep: false, why: "the rules \(explained.decision) it")
        }
        if explained.warns { return KeepVerdict(keep: false, why: "its safety verdict warns") }
        guard explained.finalURL == explained.url else {
            return KeepVerdict(keep: false, why: "the rules change it to \(explained.finalURL)")
        }
        guard var entry = explained.launchEntry else { return KeepVerdict(keep: false, why: "the rules run a command for it") }
        if let handed = explained.launchURL, handed != explained.finalURL {
            // A container's ext+openurld: link: only the extension's page can open it there.
            return KeepVerdict(keep: false, why: "the rules hand \(explained.target ?? entry) another link (\(handed))")
        }
        if entry == "system" {
            guard let systemEntry else { return KeepVerdict(keep: false, why: "the previous default handler is not known") }
            entry = systemEntry
        }
        let entryID = entry.split(separator: ":", maxSplits: 1).first.map(String.init) ?? entry
        guard let key = browser.key, HostBrowser.knownKey(entryID) == key, !entry.contains(":") else {
            return KeepVerdict(keep: false, why: "the rules open it in \(explained.target ?? entry)")
        }
        let family = KnownBrowser.table.first { $0.key == key }
        let arguments = explained.launchArguments
        if let family, !family.privateArguments.isEmpty, arguments.contains(where: { family.privateArguments.contains($0) }) {
            return KeepVerdict(keep: false, why: "the rules open it in a private window")
        }
        if arguments.contains(where: { $0.hasPrefix("--app=") || $0.hasPrefix("--app-") }) {
            return KeepVerdict(keep: false, why: "the rules open it in an app window")
        }
        guard let wanted = HostBrowser.argument(after: ["--profile", "-profile", "--profile-directory"], in: arguments) else {
            return KeepVerdict(keep: true, why: "the rules open it in \(explained.target ?? entryID), this browser")
        }
        guard let profile = browser.profile else {
            return KeepVerdict(keep: false, why: "the rules open it in \(explained.target ?? wanted), and this browser's profile cannot be told")
        }
        guard profile == wanted else {
            return KeepVerdict(keep: false, why: "the rules open it in \(explained.target ?? wanted), another profile")
        }
        return KeepVerdict(keep: true, why: "the rules open it in \(explained.target ?? wanted), this profile")
    }
}

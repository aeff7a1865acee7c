/// Where an `open` sends a link.
public enum Target: Sendable, Equatable, CustomStringConvertible {
    /// A desktop entry, optionally one of its actions (`firefox.desktop:new-private-window`).
    case desktopEntry(id: String, action: String?)
    /// A named `[apps.NAME]` target.
    case app(String)
    /// A webmail compose target (`gmail`, or a `[webmail.NAME]`).
    case webmail(String)
    /// A built-in local mail target (`thunderbird`, `mutt`: see `Mailer`).
    case mailer(String)
    /// The handler that was the default before openurld.
    case system
    /// A discovered browser, possibly a profile or a private window (`firefox:Work`).
    case browser(BrowserTarget)
    /// A target that names nothing installed (`brave:Work` once Brave is gone), as written:
    /// deciding it refuses the link and says why (`Config.missingApps`).
    case unavailable(String)

    /// The target as written in the config.
    public var description: String {
        switch self {
        case .desktopEntry(let id, let action): return action.map { "\(id):\($0)" } ?? id
        case .app(let name), .webmail(let name), .mailer(let name), .unavailable(let name): return name
        case .system: return "system"
        case .browser(let target): return target.description
        }
    }
}

/// What a rule does with a link.
public enum Intent: Sendable, Equatable {
    /// Launch a target.
    case open(Target)
    /// Launch the first of these targets whose program runs for this user, else the first
    /// (`open = ["firefox:Work", "chromium"]`).
    case openFirstRunning([Target])
    /// Copy text (a template; nil means the URL, or the recipients of a mailto).
    case copy(template: String?)
    /// Offer choices.
    case ask([Choice.Action])
    /// Drop the link.
    case discard
    /// Hand it to the previous default handler.
    case system

    /// The decision this action produces.
    public var kind: Decision.Kind {
        switch self {
        case .open, .openFirstRunning: return .open
        case .copy: return .copy
        case .ask: return .ask
        case .discard: return .discard
        case .system: return .system
        }
    }
}

/// The kind of window a browser target opens.
public enum BrowserWindow: String, Sendable, Equatable {
    /// A normal window (or tab).
    case normal
    /// A private (incognito) window: `:private`.
    case `private`
    /// An app-mode window without tabs (Chromium's `--app=URL`): `:app`.
    case app
}

/// A browser, possibly in a profile, a private or an app-mode window, as a target resolved it.
public struct BrowserTarget: Sendable, Equatable, CustomStringConvertible {
    /// The browser as written (`firefox`).
    public var browser: String
    /// The profile as written (`Work`), nil for the browser's default.
    public var profile: String?
    /// The kind of window (`chromium:Work:private`, `chromium:app`).
    public var window: BrowserWindow
    /// The desktop entry launched.
    public var desktopID: String
    /// Inserted before the URL in the entry's `Exec` (`--profile DIR`, `--incognito`); for an
    /// app-mode window, the profile's arguments before `--app=URL`.
    public var arguments: [String]
    /// A Firefox container (`firefox:Work:container:Shopping`), opened through the companion
    /// extension's `ext+openurld:` page; nil for none.
    public var container: String?

    /// Creates a target.
    public init(browser: String, profile: String?, window: BrowserWindow = .normal, desktopID: String, arguments: [String], container: String? = nil) {
        self.browser = browser
        self.profile = profile
        self.window = window
        self.desktopID = desktopID
        self.arguments = arguments
        self.container = container
    }

    /// `browser`, `browser:profile`, `browser:private`, `browser:profile:app`, `browser:profile:container:NAME`.
    public var description: String {
        var parts = [browser]
        if let profile { parts.append(profile) }
        if window != .normal { parts.append(window.rawValue) }
        if let container { parts += ["container", container] }
        return parts.joined(separator: ":")
    }
}

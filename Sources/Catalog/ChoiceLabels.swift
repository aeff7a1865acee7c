import RoutingCore

/// How choices are named and drawn, from what discovery found installed.
public struct ChoiceLabels: Sendable {
    /// What is installed.
    public var catalog: AppCatalog
    /// The desktop entry of each named app (`[apps.NAME]` with `desktop = ID`), for its icon.
    public var appEntries: [String: String]

    /// Labels from `catalog` and the config's `[apps]`.
    public init(catalog: AppCatalog, appEntries: [String: String] = [:]) {
        self.catalog = catalog
        self.appEntries = appEntries
    }

    /// How many choices have a number key (`1`–`9`).
    public static let numberKeys = 9

    /// The choices for `actions`, each labelled for links of `scheme`; labels that would repeat
    /// get the key appended, so each button is distinct.
    public func choices(_ actions: [Choice.Action], scheme: String? = nil) -> [Choice] {
        let labels = actions.map { label($0, scheme: scheme) }
        return zip(actions, labels).map { action, label in
            let shown = labels.filter { $0 == label }.count > 1 ? "\(label) (\(action.description))" : label
            return Choice(action: action, label: shown, icon: icon(action, scheme: scheme))
        }
    }

    /// A choice's display name: the desktop entry's `Name` (and action name), a named app or
    /// webmail capitalised (`Work`, `Gmail`), `Copy`, `Discard`, and for `system` the app it opens
    /// (`Firefox ESR (default browser)`, `Thunderbird (default mail app)`).
    public func label(_ action: Choice.Action, scheme: String? = nil) -> String {
        switch action {
        case .copy: return "Copy"
        case .discard: return "Discard"
        case .open(let target): return label(target, scheme: scheme)
        }
    }

    /// A target's display name, as `label(_:)` gives it. An entry that is also what `system`
    /// opens for `scheme` says so (`Firefox ESR (default browser)`); an entry that is not
    /// installed is named by its id as written, never by a name made up from it.
    public func label(_ target: Target, scheme: String? = nil) -> String {
        switch target {
        case .system:
            let role = Self.defaultRole(scheme: scheme)
            guard let entry = previousHandler(scheme) else { return Self.capitalised(role) }
            return "\(entry.name) (\(role))"
        case .app(let name), .webmail(let name): return Self.capitalised(name)
        case .unavailable(let name): return "\(name) (not installed)"
        case .mailer(let name):
            let mailer = Mailer.named(name)
            return mailer.flatMap { $0.entry(in: catalog)?.name } ?? mailer?.title ?? Self.capitalised(name)
        case .desktopEntry(let id, let action):
            let entry = catalog.entry(id: id)
            let name = entry?.name ?? id
            guard let action else { return markedDefault(name, id: id, scheme: scheme) }
            let actionName = entry?.actions.first { $0.id == action }?.name ?? action
            return "\(name): \(actionName)"
        case .browser(let browser):
            let name = catalog.entry(id: browser.desktopID)?.name ?? Self.capitalised(browser.browser)
            let window: String? = browser.window == .private ? "Private window" : browser.window == .app ? "App window" : nil
            switch (browser.profile, window) {
            case (nil, nil): return markedDefault(name, id: browser.desktopID, scheme: scheme)
            case (nil, let window?): return "\(name): \(window)"
            case (let profile?, nil): return "\(name): \(profile)"
            case (let profile?, let window?): return "\(name): \(profile), \(window)"
            }
        }
    }

    /// What `system` is for `scheme`: `default browser`, `default mail app`, `default for geo:`.
    static func defaultRole(scheme: String?) -> String {
        switch (scheme ?? "https").lowercased() {
        case "http", "https": return "default browser"
        case "mailto": return "default mail app"
        case let other: return "default for \(other):"
        }
    }

    /// The entry `system` opens for `scheme` (http when none is given).
    private func previousHandler(_ scheme: String?) -> AppEntry? {
        catalog.previousHandlers[(scheme ?? "https").lowercased()]
    }

    /// `name`, with `(default browser)` when the entry `id` is what `system` opens for `scheme`.
    private func markedDefault(_ name: String, id: String, scheme: String?) -> String {
        guard scheme != nil, previousHandler(scheme)?.id == id else { return name }
        return "\(name) (\(Self.defaultRole(scheme: scheme)))"
    }

    /// An icon per choice: the desktop entry's, else a themed icon for the kind of choice.
    public func icon(_ action: Choice.Action, scheme: String? = nil) -> String {
        switch action {
        case .copy: return "edit-copy"
        case .discard: return "user-trash"
        case .open(.webmail): return "mail-send"
        case .open(.unavailable): return "dialog-warning"
        case .open(.mailer(let name)): return nonEmpty(Mailer.named(name)?.entry(in: catalog)?.icon) ?? "mail-send"
        case .open(.system): return nonEmpty(previousHandler(scheme)?.icon) ?? (scheme?.lowercased() == "mailto" ? "mail-send" : "web-browser")
        case .open(.browser(let target)): return nonEmpty(catalog.entry(id: target.desktopID)?.icon) ?? "web-browser"
        case .open(.desktopEntry(let id, _)): return nonEmpty(catalog.entry(id: id)?.icon) ?? "application-x-executable"
        case .open(.app(let name)):
            if let id = appEntries[name], let icon = nonEmpty(catalog.entry(id: id)?.icon) { return icon }
            return "application-x-executable"
        }
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    static func capitalised(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }
}

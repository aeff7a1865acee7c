/// One choice of an `ask`, as every way of asking offers it: what it does, the key the config
/// and the notification action use, what it is called and its icon. Computed once, in
/// `RuleEngine`, so `openurl test`, `Explain`, the window and the notification show one list.
public struct Choice: Sendable, Equatable {
    /// What choosing it does.
    public var action: AskChoice
    /// What the button says: the desktop entry's `Name`, a named app or webmail capitalised.
    public var label: String
    /// A themed icon name or an absolute path.
    public var icon: String

    /// A choice.
    public init(action: AskChoice, label: String, icon: String) {
        self.action = action
        self.label = label
        self.icon = icon
    }

    /// The choice as the config writes it (`firefox.desktop`, `work`, `copy`): unique in a list.
    public var key: String { action.description }
}

/// How choices are named and drawn, from what discovery found installed.
public struct ChoiceLabels: Sendable {
    /// What is installed.
    public var catalog: AppCatalog
    /// The named apps (`[apps.NAME]`), for their desktop entry's icon.
    public var apps: [String: AppTarget]

    /// Labels from `catalog` and the config's `[apps]`.
    public init(catalog: AppCatalog, apps: [String: AppTarget] = [:]) {
        self.catalog = catalog
        self.apps = apps
    }

    /// The choices for `actions`, each labelled; labels that would repeat get the key appended,
    /// so each button is distinct.
    public func choices(_ actions: [AskChoice]) -> [Choice] {
        let labels = actions.map(label)
        return zip(actions, labels).map { action, label in
            let shown = labels.filter { $0 == label }.count > 1 ? "\(label) (\(action.description))" : label
            return Choice(action: action, label: shown, icon: icon(action))
        }
    }

    /// A choice's display name: the desktop entry's `Name` (and action name), a named app or
    /// webmail capitalised (`Work`, `Gmail`), `Copy`, `Discard`, `Default browser`.
    public func label(_ action: AskChoice) -> String {
        switch action {
        case .copy: return "Copy"
        case .discard: return "Discard"
        case .open(let target): return label(target)
        }
    }

    /// A target's display name, as `label(_:)` gives it.
    public func label(_ target: OpenTarget) -> String {
        switch target {
        case .system: return "Default browser"
        case .app(let name), .webmail(let name): return Self.capitalised(name)
        case .mailer(let name):
            let mailer = Mailer.named(name)
            return mailer.flatMap { $0.entry(in: catalog)?.name } ?? mailer?.title ?? Self.capitalised(name)
        case .desktopEntry(let id, let action):
            let entry = catalog.entry(id: id)
            let name = entry?.name ?? Self.capitalised(id.hasSuffix(".desktop") ? String(id.dropLast(8)) : id)
            guard let action else { return name }
            let actionName = entry?.actions.first { $0.id == action }?.name ?? action
            return "\(name): \(actionName)"
        case .browser(let browser):
            let name = catalog.entry(id: browser.desktopID)?.name ?? Self.capitalised(browser.browser)
            let window: String? = browser.window == .private ? "Private window" : browser.window == .app ? "App window" : nil
            switch (browser.profile, window) {
            case (nil, nil): return name
            case (nil, let window?): return "\(name): \(window)"
            case (let profile?, nil): return "\(name): \(profile)"
            case (let profile?, let window?): return "\(name): \(profile), \(window)"
            }
        }
    }

    /// An icon per choice: the desktop entry's, else a themed icon for the kind of choice.
    public func icon(_ action: AskChoice) -> String {
        switch action {
        case .copy: return "edit-copy"
        case .discard: return "user-trash"
        case .open(.webmail): return "mail-send"
        case .open(.mailer(let name)): return nonEmpty(Mailer.named(name)?.entry(in: catalog)?.icon) ?? "mail-send"
        case .open(.system): return "web-browser"
        case .open(.browser(let target)): return nonEmpty(catalog.entry(id: target.desktopID)?.icon) ?? "web-browser"
        case .open(.desktopEntry(let id, _)): return nonEmpty(catalog.entry(id: id)?.icon) ?? "application-x-executable"
        case .open(.app(let name)):
            if case .desktop(let id, _)? = apps[name], let icon = nonEmpty(catalog.entry(id: id)?.icon) { return icon }
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

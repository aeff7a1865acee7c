/// One choice of an `ask`, as every way of asking offers it: what it does, the key the config
/// and the notification action use, what it is called and its icon. Computed once, in
/// `RuleEngine`, so `openurl test`, `Explain`, the window and the notification show one list.
public struct Choice: Sendable, Equatable {
    /// What choosing it does.
    public var action: Choice.Action
    /// What the button says: the desktop entry's `Name`, a named app or webmail capitalised.
    public var label: String
    /// A themed icon name or an absolute path.
    public var icon: String

    /// A choice.
    public init(action: Choice.Action, label: String, icon: String) {
        self.action = action
        self.label = label
        self.icon = icon
    }

    /// The choice as the config writes it (`firefox.desktop`, `work`, `copy`): unique in a list.
    public var key: String { action.description }

    /// What a choice does: open a target, copy or discard (as `ask = [...]` writes it).
    public enum Action: Sendable, Equatable, CustomStringConvertible {
        /// Open with a target.
        case open(Target)
        /// Copy the link.
        case copy
        /// Drop the link.
        case discard

        /// The choice as written in the config.
        public var description: String {
            switch self {
            case .open(let target): return target.description
            case .copy: return "copy"
            case .discard: return "discard"
            }
        }
    }
}

/// Where a config file sits among the layers openurld reads.
public enum ConfigLayer: String, Sendable, CaseIterable {
    /// The machine's policy: `$XDG_CONFIG_DIRS/openurld/config.toml` and `config.d/*.toml`.
    case system
    /// The user's `$XDG_CONFIG_HOME/openurld/config.toml`.
    case user
    /// The user's remembered answers, `remembered.toml` beside it.
    case remembered
}

/// Where a rule (or a locked setting) comes from, and what the system configuration said of it.
public struct RuleSource: Sendable, Equatable, CustomStringConvertible {
    /// The layer of its file.
    public var layer: ConfigLayer
    /// The file.
    public var file: String
    /// The 1-based line where it starts.
    public var line: Int
    /// `locked = true` (system rules only).
    public var locked = false
    /// `recommended = true` (system rules only).
    public var recommended = false

    /// A source.
    public init(layer: ConfigLayer, file: String, line: Int, locked: Bool = false, recommended: Bool = false) {
        self.layer = layer
        self.file = file
        self.line = line
        self.locked = locked
        self.recommended = recommended
    }

    /// `system /etc/xdg/openurld/config.toml:12, locked`.
    public var description: String {
        "\(layer.rawValue) \(file):\(line)" + (locked ? ", locked" : "") + (recommended ? ", recommended" : "")
    }
}

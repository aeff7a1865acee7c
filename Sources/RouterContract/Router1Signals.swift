import DBus

extension Router1.Property {
    /// `s`: the daemon's version.
    public static let version = "Version"
    /// `s`: the user's config file.
    public static let configPath = "ConfigPath"
    /// `s`: why the user's config did not load, empty when it did (emits `PropertiesChanged`).
    public static let configError = "ConfigError"
    /// `s`: the same for the system configuration.
    public static let systemConfigError = "SystemConfigError"
    /// `a{ss}`: the daemon's own display variables.
    public static let environment = "Environment"
}

/// `Routed(s url, s decision, s target, s rule)`: a link was routed. The daemon emits it and
/// listeners read it back through `arguments` and `init(arguments:)`.
public struct RoutedSignal: Equatable, Sendable {
    /// The signal's member name.
    public static let name = "Routed"
    /// Its arguments, for the introspection data.
    public static let declaration = DBusSignalDeclaration(name, arguments: [.init("url", "s"), .init("decision", "s"), .init("target", "s"), .init("rule", "s")])

    /// The link, the decision's kind, its target (empty when none) and the rule (empty for the default).
    public var url: String, decision: String, target: String, rule: String

    /// A signal.
    public init(url: String, decision: String, target: String, rule: String) {
        self.url = url
        self.decision = decision
        self.target = target
        self.rule = rule
    }

    /// The arguments, in order.
    public var arguments: [DBusValue] { [.string(url), .string(decision), .string(target), .string(rule)] }

    /// Reads the arguments; a missing or mistyped one is a `ContractError` naming it.
    public init(arguments: [DBusValue]) throws(ContractError) {
        let names = ["url", "decision", "target", "rule"]
        var texts: [String] = []
        for (index, name) in names.enumerated() {
            guard index < arguments.count else { throw ContractError(Self.name, key: name, "missing") }
            guard let text = arguments[index].string else { throw ContractError(Self.name, key: name, "must be a string (s)") }
            texts.append(text)
        }
        self.init(url: texts[0], decision: texts[1], target: texts[2], rule: texts[3])
    }
}

/// `ConfigReloaded(b ok, s error)`: the config was read again; `error` says why it did not load.
public struct ConfigReloadedSignal: Equatable, Sendable {
    /// The signal's member name.
    public static let name = "ConfigReloaded"
    /// Its arguments, for the introspection data.
    public static let declaration = DBusSignalDeclaration(name, arguments: [.init("ok", "b"), .init("error", "s")])

    /// Whether it loaded.
    public var ok: Bool
    /// Why it did not load, empty when it did.
    public var error: String

    /// A signal.
    public init(ok: Bool, error: String) {
        self.ok = ok
        self.error = error
    }

    /// The signal of a reload that failed with `error`, or loaded when it is empty.
    public init(error: String) {
        self.init(ok: error.isEmpty, error: error)
    }

    /// The arguments, in order.
    public var arguments: [DBusValue] { [.bool(ok), .string(error)] }

    /// Reads the arguments; a missing or mistyped one is a `ContractError` naming it.
    public init(arguments: [DBusValue]) throws(ContractError) {
        guard arguments.count > 0 else { throw ContractError(Self.name, key: "ok", "missing") }
        guard let ok = arguments[0].bool else { throw ContractError(Self.name, key: "ok", "must be a boolean (b)") }
        guard arguments.count > 1 else { throw ContractError(Self.name, key: "error", "missing") }
        guard let error = arguments[1].string else { throw ContractError(Self.name, key: "error", "must be a string (s)") }
        self.init(ok: ok, error: error)
    }
}

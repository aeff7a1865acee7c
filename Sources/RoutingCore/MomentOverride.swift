/// Facts of a click's moment given by hand rather than seen: `openurl test`'s `--network`,
/// `--vpn`, `--vpn-name`, `--at`, `--modifiers` and `--window`, and `Explain`'s `moment` option.
/// Both read their values through the parsers here, so the same words mean the same moment and
/// a bad value gets the same message; each caller only says which option it came from.
public struct MomentOverride: Sendable, Equatable {
    /// The network's name (a connection's name or Wi-Fi SSID), when given.
    public var network: String?
    /// Whether a VPN is up, when given (a VPN name alone implies it).
    public var vpn: Bool?
    /// The VPN connection's name, when given.
    public var vpnName: String?
    /// The local time, when given.
    public var time: LocalTime?
    /// The keys held, when given (empty for `none`).
    public var modifiers: Set<Modifier>?
    /// The focused window's title, when given.
    public var window: String?

    /// An override; every fact left nil is seen as for any click.
    public init(network: String? = nil, vpn: Bool? = nil, vpnName: String? = nil, time: LocalTime? = nil,
                modifiers: Set<Modifier>? = nil, window: String? = nil) {
        self.network = network
        self.vpn = vpn
        self.vpnName = vpnName
        self.time = time
        self.modifiers = modifiers
        self.window = window
    }

    /// True when it replaces nothing.
    public var isEmpty: Bool { replaces.isEmpty }

    /// The facts it replaces, so the caller does not read them: the network and VPN are one fact
    /// (NetworkManager's active connections), so giving either replaces both, as `openurl test` does.
    public var replaces: MomentNeeds {
        var needs: MomentNeeds = []
        if network != nil || vpn != nil || vpnName != nil { needs.insert(.network) }
        if time != nil { needs.insert(.time) }
        if window != nil { needs.insert(.window) }
        if modifiers != nil { needs.insert(.modifiers) }
        return needs
    }

    /// `moment` with the given facts put in: the network becomes the named one (a Wi-Fi
    /// connection whose SSID is its name) plus, when a VPN is up, a VPN named `vpnName` (or "VPN").
    public func applied(to moment: Moment) -> Moment {
        var moment = moment
        if replaces.contains(.network) {
            var connections: [ActiveConnection] = []
            if let network { connections.append(ActiveConnection(id: network, type: "802-11-wireless", ssid: network)) }
            if vpn ?? (vpnName != nil) { connections.append(ActiveConnection(id: vpnName ?? "VPN", type: "vpn", vpn: true)) }
            moment.network = .known(NetworkFacts(connections: connections))
        }
        if let time { moment.time = .known(time) }
        if let window { moment.window = .known(window) }
        if let modifiers { moment.modifiers = .known(modifiers) }
        return moment
    }

    /// A value that does not say a moment's fact; `message(option:)` words it for the option it came in.
    public enum ValueError: Error, Equatable {
        /// Not a local date and time; the value as given.
        case time(String)
        /// Not a modifier key; the word as given.
        case modifier(String)
        /// A VPN name with the VPN said to be down.
        case vpnNameWithoutVPN

        /// The message, naming the option as the caller's user wrote it: `test: --at` gives
        /// `test: --at "x": expected a local date and time like "2026-12-01 18:30"`.
        public func message(option: String) -> String {
            switch self {
            case .time(let text):
                return "\(option) \"\(text)\": expected a local date and time like \"2026-12-01 18:30\""
            case .modifier(let word):
                return "\(option): unknown key \"\(word)\" (expected a comma-separated list of \(Modifier.allCases.map(\.rawValue).joined(separator: ", ")), or none)"
            case .vpnNameWithoutVPN:
                return "\(option): a VPN name says a VPN is up, but the VPN is given as down"
            }
        }
    }

    /// `2026-12-01 18:30` as a local time.
    public static func time(parsing text: String) throws(ValueError) -> LocalTime {
        guard let time = LocalTime(parsing: text) else { throw .time(text) }
        return time
    }

    /// `shift,ctrl` (any case, spaces allowed) as the keys held; `none` (or nothing) is no key.
    public static func modifiers(parsing text: String) throws(ValueError) -> Set<Modifier> {
        var held = Set<Modifier>()
        for word in text.split(separator: ",").map({ String($0.filter { $0 != " " }).lowercased() }) where word != "none" {
            guard let key = Modifier(rawValue: word) else { throw .modifier(word) }
            held.insert(key)
        }
        return held
    }
}

import DBus
import RouterContract
import RoutingCore

/// The daemon as the settings window sees it: every call goes over `Router1` on the session bus
/// (the daemon is started by D-Bus activation when it is not running). Calls block; each is one
/// round trip of a millisecond or so, except `Reload`, which answers once the config is in force.
final class RouterClient {
    /// A rule in force, as `DescribeRules` lists it (with what it matches, as the config's keys read).
    struct Rule: Equatable {
        var description: RuleDescription
        var match: String { description.match }
        var name: String { description.name }
        var isRemembered: Bool { description.layer == "remembered" }
    }

    private let connection: DBusConnection

    /// Connects to the session bus.
    init() throws {
        connection = try DBusConnection.session()
    }

    private func call(_ method: String, _ arguments: [DBusValue] = [], timeout: Double = 10) throws -> [DBusValue] {
        try connection.call(destination: Router1.busName, path: Router1.objectPath, interface: Router1.interface, method: method,
                            arguments: arguments, timeout: timeout)
    }

    /// The rules in force, remembered answers first, as `openurl rules` lists them.
    func rules() throws -> [Rule] {
        try RuleDescription.list(try call(Router1.Method.describeRules).first).map(Rule.init(description:))
    }

    /// Turns a rule on or off until the daemon exits (`SetRuleEnabled`); `#N` names a rule by index.
    func setEnabled(_ name: String, _ enabled: Bool) throws {
        _ = try call(Router1.Method.setRuleEnabled, [.string(name), .bool(enabled)])
    }

    /// What a click on `url` would do now (`Explain`: the decision with its trace), with the
    /// moment's facts the caller fixes (`moment`) and the app it came from (`opener`).
    func explain(_ url: String, moment: [(String, DBusValue)], opener: String?) throws -> [String: DBusValue] {
        var options: [(String, DBusValue)] = []
        if !moment.isEmpty { options.append((Router1.Option.moment, .vardict(pairs: moment))) }
        if let opener, !opener.isEmpty { options.append((Router1.Option.opener, .string(opener))) }
        return try call(Router1.Method.explain, [.string(url), .vardict(pairs: options)]).first?.dictionary ?? [:]
    }

    /// The recent clicks, newest first.
    func recent(limit: UInt32 = 100) throws -> [RecentLink] {
        RecentLink.list(try call(Router1.Method.recent, [.uint32(limit)]).first)
    }

    /// Routes a recent click again by the rules (`Reopen` with no target).
    func reopen(_ id: UInt32) throws {
        _ = try call(Router1.Method.reopen, [.uint32(id), .string("")])
    }

    /// Copies a link as `openurl copy` does (the daemon owns the clipboard and confirms it).
    func copy(_ url: String) throws {
        _ = try call(Router1.Method.copy, [.string(url), .vardict(pairs: [])])
    }

    /// Forgets a remembered answer (`ForgetRemembered`).
    func forget(_ name: String) throws {
        _ = try call(Router1.Method.forgetRemembered, [.string(name)])
    }

    /// Every target a rule may name for `scheme` (`ListTargets`).
    func targets(scheme: String) throws -> [TargetListing] {
        TargetListing.list(try call(Router1.Method.listTargets, [.string(scheme)]).first)
    }

    /// Reads the config again; throws the loader's `FILE:LINE:COLUMN: message` when it does not load.
    func reload() throws {
        _ = try call(Router1.Method.reload, timeout: 30)
    }

    /// The user's config file the daemon reads.
    func configPath() throws -> String {
        let reply = try connection.call(destination: Router1.busName, path: Router1.objectPath, interface: "org.freedesktop.DBus.Properties",
                                        method: "Get", arguments: [.string(Router1.interface), .string("ConfigPath")], timeout: 10)
        return reply.first?.string ?? ""
    }
}

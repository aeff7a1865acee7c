import DBus
import JSON
import RoutingCore

extension Decision {
    /// The `a{sv}` result of `Open` and `Explain`: the keys of `openurl test --json` (a key whose
    /// value would be null is left out), with `trace` as lines of text.
    public func dbusResult(extra: [(String, DBusValue)] = []) -> DBusValue {
        typealias Key = Router1.Result
        var pairs: [(String, DBusValue)] = [
            (Key.url, .string(url)),
            (Key.finalURL, .string(finalURL)),
            (Key.decision, .string(kind.rawValue)),
        ]
        if let target { pairs.append((Key.target, .string(target.description))) }
        switch rule {
        case .named(let name)?: pairs.append((Key.rule, .string(name)))
        case .index(let index)?: pairs.append((Key.rule, .uint32(UInt32(clamping: index))))
        case nil: break
        }
        if let copyText { pairs.append((Key.copyText, .string(copyText))) }
        if kind == .ask { pairs.append((Key.choices, .stringArray(choices.map(\.key)))) }
        if let error { pairs.append((Key.error, .string(error))) }
        pairs.append((Key.safety, DBusValue(json: safety.json)))
        pairs.append((Key.trace, .stringArray(trace.map(\.text))))
        if case .open(_, let launch) = effect, let described = Self.launchValue(launch) { pairs.append((Key.launch, described)) }
        return .vardict(pairs: pairs + extra)
    }

    /// The entry a launch starts and the arguments it puts before the URL; nil for a raw argv.
    private static func launchValue(_ launch: Launch) -> DBusValue? {
        let entry: String
        let arguments: [String]
        var url: String?
        switch launch {
        case .desktopEntry(let id, let action, let handed): (entry, arguments, url) = (action.map { "\(id):\($0)" } ?? id, [], handed)
        case .desktopEntryAdding(let id, let added, let handed): (entry, arguments, url) = (id, added, handed)
        case .desktopEntryAppending(let id, let appended): (entry, arguments) = (id, appended)
        case .desktopEntryWithArguments(let id, let replaced): (entry, arguments) = (id, replaced)
        case .system(let handed): (entry, arguments, url) = ("system", [], handed)
        case .argv: return nil
        }
        var pairs: [(String, DBusValue)] = [(Router1.Launch.entry, .string(entry)), (Router1.Launch.arguments, .stringArray(arguments))]
        if let url { pairs.append((Router1.Launch.url, .string(url))) }
        return .vardict(pairs: pairs)
    }
}

extension DBusValue {
    /// A JSON value as D-Bus carries it: an object is `a{sv}` (null members left out), a list
    /// of objects `aa{sv}`, of strings `as`, any other list `av`; numbers are `x`.
    public init(json: JSONValue) {
        switch json {
        case .null: self = .string("")
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .int64(Int64(number))
        case .fraction(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .object(let members):
            self = .vardict(pairs: members.compactMap { member in
                if case .null = member.1 { return nil }
                return (member.0, DBusValue(json: member.1))
            })
        case .array(let items):
            if items.allSatisfy({ if case .object = $0 { return true } else { return false } }), !items.isEmpty {
                self = .array(elementSignature: "a{sv}", items.map { DBusValue(json: $0) })
            } else if items.allSatisfy({ if case .string = $0 { return true } else { return false } }) {
                self = .stringArray(items.compactMap(\.string))
            } else {
                self = .array(elementSignature: "v", items.map { DBusValue(json: $0).asVariant })
            }
        }
    }
}

/// The `a{sv}` options of `Open`, `Copy` and `Explain`, read and checked for type.
public struct OpenOptions {
    /// The click's activation token.
    public var activationToken: String?
    /// Who opened the link, when the caller says.
    public var opener: Opener?
    /// Decide only.
    public var dryRun = false
    /// Ask, whatever the rules say.
    public var ask = false
    /// `deadline` (t): microseconds on CLOCK_MONOTONIC after which the client has given up and
    /// routed the link itself; a call still unhandled then is dropped (`ClickDeadline`).
    public var deadline: UInt64?
    /// `environment` (a{ss}): the caller's display variables (`ClickEnvironment.names` only).
    public var environment: [String: String] = [:]
    /// `process-id` (u): the calling process, as the caller says (it only names the opener).
    public var processID: UInt32?
    /// `context` (a{sv}): the text the link was shown as (`link-text`) and the page it was on
    /// (`origin-url`), for the safety verdict.
    public var context: LinkContext?
    /// `moment` (a{sv}): facts to decide by instead of those the daemon sees (`Router1.MomentOption`
    /// keys), as `openurl test`'s options give them; nil when not given.
    public var moment: MomentOverride?

    /// Known keys are checked for type; unknown keys are ignored, so newer clients keep working.
    public init(_ value: DBusValue, method: String) throws {
        guard let options = value.dictionary else { throw DBusError.invalidArgs("\(method): options must be a{sv}") }
        func string(_ key: String) throws -> String? {
            guard let item = options[key] else { return nil }
            guard let text = item.string else { throw DBusError.invalidArgs("\(method): option \(key) must be a string (s)") }
            return text
        }
        func bool(_ key: String) throws -> Bool {
            guard let item = options[key] else { return false }
            guard let flag = item.bool else { throw DBusError.invalidArgs("\(method): option \(key) must be a boolean (b)") }
            return flag
        }
        activationToken = try string(Router1.Option.activationToken) ?? string(Router1.Option.desktopStartupID)
        let openerName = try string(Router1.Option.opener)
        let desktopID = try string(Router1.Option.openerDesktopID)
        let flatpakID = try string(Router1.Option.openerFlatpakID)
        let snapID = try string(Router1.Option.openerSnapID)
        if openerName != nil || desktopID != nil || flatpakID != nil || snapID != nil {
            opener = Opener(desktopID: desktopID ?? openerName, flatpakID: flatpakID ?? openerName, processName: openerName, snapID: snapID)
        }
        dryRun = try bool(Router1.Option.dryRun)
        ask = try bool(Router1.Option.ask)
        if let item = options[Router1.Option.processID] {
            guard case .uint32(let value) = item else { throw DBusError.invalidArgs("\(method): option process-id must be a uint32 (u)") }
            processID = value
        }
        if let item = options[ClickDeadline.optionKey] {
            guard case .uint64(let value) = item else { throw DBusError.invalidArgs("\(method): option deadline must be a uint64 (t)") }
            deadline = value
        }
        if let item = options[Router1.Option.context] {
            guard let entries = item.dictionary else { throw DBusError.invalidArgs("\(method): option context must be a{sv}") }
            func text(_ key: String) throws -> String? {
                guard let value = entries[key] else { return nil }
                guard let text = value.string else { throw DBusError.invalidArgs("\(method): context \(key) must be a string (s)") }
                // Link text is compared, never shown whole: more than 64 KiB is prose, not a link.
                guard text.utf8.count <= 65_536 else { throw DBusError.invalidArgs("\(method): context \(key) is over 64 KiB") }
                return text
            }
            context = LinkContext(linkText: try text(Router1.Context.linkText), originURL: try text(Router1.Context.originURL))
        }
        if let item = options[Router1.Option.moment] {
            moment = try Self.moment(item, method: method)
            // A made-up moment only explains: a click is never carried out by facts that are not so.
            guard dryRun || method == Router1.Method.explain else {
                throw DBusError.invalidArgs("\(method): option moment is for Explain and a dry-run Open only")
            }
        }
        if let item = options[ClickEnvironment.optionKey] {
            guard let entries = item.dictionary else { throw DBusError.invalidArgs("\(method): option environment must be a{ss}") }
            for name in ClickEnvironment.names {
                guard let value = entries[name] else { continue }
                guard let text = value.string else { throw DBusError.invalidArgs("\(method): environment \(name) must be a string") }
                if !text.isEmpty { environment[name] = text }
            }
        }
    }
}

extension OpenOptions {
    /// The `moment` option's facts; each key left out is seen as for any click, unknown keys are
    /// ignored (as the options' are), a wrong type or value is `InvalidArgs` worded as `openurl test` words it.
    static func moment(_ value: DBusValue, method: String) throws -> MomentOverride {
        typealias Key = Router1.MomentOption
        guard let entries = value.dictionary else { throw DBusError.invalidArgs("\(method): option moment must be a{sv}") }
        func string(_ key: String) throws -> String? {
            guard let item = entries[key] else { return nil }
            guard let text = item.string else { throw DBusError.invalidArgs("\(method): moment \(key) must be a string (s)") }
            return text
        }
        var given = MomentOverride(network: try string(Key.network), vpnName: try string(Key.vpnName), window: try string(Key.window))
        if let item = entries[Key.vpn] {
            guard let flag = item.bool else { throw DBusError.invalidArgs("\(method): moment \(Key.vpn) must be a boolean (b)") }
            given.vpn = flag
        }
        // The messages are `openurl test`'s, naming the key where it names the option.
        func invalid(_ error: MomentOverride.ValueError, _ key: String) -> DBusError {
            DBusError.invalidArgs(error.message(option: "\(method): moment \(key)"))
        }
        if given.vpn == false, given.vpnName != nil { throw invalid(.vpnNameWithoutVPN, Key.vpnName) }
        if let at = try string(Key.at) {
            do throws(MomentOverride.ValueError) { given.time = try MomentOverride.time(parsing: at) } catch { throw invalid(error, Key.at) }
        }
        if let keys = try string(Key.modifiers) {
            do throws(MomentOverride.ValueError) { given.modifiers = try MomentOverride.modifiers(parsing: keys) } catch { throw invalid(error, Key.modifiers) }
        }
        return given
    }
}

import DBus
import Routing

extension Decision {
    /// The `a{sv}` result of `Open` and `Explain`: the keys of `openurl test --json` (a key whose
    /// value would be null is left out), with `trace` as lines of text.
    func dbusResult(extra: [(String, DBusValue)] = []) -> DBusValue {
        var pairs: [(String, DBusValue)] = [
            ("url", .string(url)),
            ("final_url", .string(finalURL)),
            ("decision", .string(kind.rawValue)),
        ]
        if let target { pairs.append(("target", .string(target.description))) }
        switch rule {
        case .named(let name)?: pairs.append(("rule", .string(name)))
        case .index(let index)?: pairs.append(("rule", .uint32(UInt32(clamping: index))))
        case nil: break
        }
        if let copyText { pairs.append(("copy_text", .string(copyText))) }
        if kind == .ask { pairs.append(("choices", .stringArray(choices.map(\.key)))) }
        if let error { pairs.append(("error", .string(error))) }
        pairs.append(("trace", .stringArray(trace.map(\.text))))
        return .vardict(pairs: pairs + extra)
    }
}

/// Reads the `a{sv}` options of `Open`, `Copy` and `Explain`.
struct OpenOptions {
    var activationToken: String?
    var opener: Opener?
    var dryRun = false
    var ask = false
    /// `deadline` (t): microseconds on CLOCK_MONOTONIC after which the client has given up and
    /// routed the link itself; a call still unhandled then is dropped (`ClickDeadline`).
    var deadline: UInt64?
    /// `environment` (a{ss}): the caller's display variables (`ClickEnvironment.names` only).
    var environment: [String: String] = [:]

    /// Known keys are checked for type; unknown keys are ignored, so newer clients keep working.
    init(_ value: DBusValue, method: String) throws {
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
        activationToken = try string("activation-token") ?? string("desktop-startup-id")
        let openerName = try string("opener")
        let desktopID = try string("opener-desktop-id")
        let flatpakID = try string("opener-flatpak-id")
        if openerName != nil || desktopID != nil || flatpakID != nil {
            opener = Opener(desktopID: desktopID ?? openerName, flatpakID: flatpakID ?? openerName, processName: openerName)
        }
        dryRun = try bool("dry-run")
        ask = try bool("ask")
        if let item = options[ClickDeadline.optionKey] {
            guard case .uint64(let value) = item else { throw DBusError.invalidArgs("\(method): option deadline must be a uint64 (t)") }
            deadline = value
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

import DBus
import RoutingCore

/// `ListTargets(s scheme) → aa{sv}`: each thing a rule can open, as `openurl apps` lists it.
/// The daemon encodes it and callers decode it; both go through `dbusValue` and
/// `init(dbusValue:)`, the one place its keys live.
extension TargetListing {
    /// The keys, in the order they are written.
    enum Key {
        static let target = "target", kind = "kind", name = "name", isDefault = "default", app = "app"
    }

    /// The element signature of the reply's array.
    public static let dbusSignature = "a{sv}"

    /// The `a{sv}` entry; `app` only when there is one.
    public var dbusValue: DBusValue {
        var pairs: [(String, DBusValue)] = [(Key.target, .string(target)), (Key.kind, .string(kind.rawValue)),
                                            (Key.name, .string(name)), (Key.isDefault, .bool(isDefault))]
        if let app { pairs.append((Key.app, .string(app))) }
        return .vardict(pairs: pairs)
    }

    /// Reads an entry; nil without a target or with a kind this build does not know.
    public init?(dbusValue value: DBusValue) {
        guard let item = value.dictionary, let target = item[Key.target]?.string, !target.isEmpty,
              let kind = item[Key.kind]?.string.flatMap(Kind.init(rawValue:)) else { return nil }
        self.init(target: target, kind: kind, name: item[Key.name]?.string ?? target, app: item[Key.app]?.string,
                  isDefault: item[Key.isDefault]?.bool ?? false)
    }

    /// A whole reply; entries that do not read are left out.
    public static func list(_ reply: DBusValue?) -> [TargetListing] {
        (reply?.array ?? []).compactMap(TargetListing.init(dbusValue:))
    }
}

/// `ListApps(s scheme) → a(ss)`: the desktop entries that declare a scheme, id and name.
public struct ListedApp: Equatable, Sendable {
    /// The desktop id (`firefox-esr.desktop`).
    public var id: String
    /// Its `Name`.
    public var name: String

    /// An entry.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The element signature of the reply's array.
    public static let signature = "(ss)"

    /// The `(ss)` structure.
    public var dbusValue: DBusValue { .structure([.string(id), .string(name)]) }

    /// Reads a structure; nil for anything else.
    public init?(dbusValue value: DBusValue) {
        guard case .structure(let fields) = value, fields.count == 2, let id = fields[0].string, let name = fields[1].string else { return nil }
        self.init(id: id, name: name)
    }

    /// A whole reply; entries that do not read are left out.
    public static func list(_ reply: DBusValue?) -> [ListedApp] {
        (reply?.array ?? []).compactMap(ListedApp.init(dbusValue:))
    }
}

import ConfigFiles
import DBus
import ConfigLanguage
import RoutingCore
import RouterContract

extension Rule {
    /// `DescribeRules`' entry: `index` (0 for a remembered answer), `name`, `action`, `enabled`,
    /// `layer`, `file`, `line`, `locked`, `recommended`.
    var dbusDescription: DBusValue {
        RuleDescription(index: Int32(clamping: index), name: name ?? "", action: action.summary, enabled: enabled, layer: source.layer.rawValue,
                        file: source.file, line: UInt32(clamping: source.line), locked: source.locked, recommended: source.recommended).dbusValue
    }
}

extension ConfigSourceStatus {
    /// `ConfigSources`' entry: `layer`, `path`, `kind` (`config` or `sitelist`), `problem` (empty
    /// when it loaded as it is), `last_good`, `rules`, and for a site list `name`, `format`,
    /// `version`, `entries`, `greylist` and `named_at` (the config file and line naming it).
    var dbusDescription: DBusValue {
        var pairs: [(String, DBusValue)] = [
            ("layer", .string(layer.rawValue)), ("path", .string(path)), ("kind", .string(siteList == nil ? "config" : "sitelist")),
            ("problem", .string(problem ?? "")), ("last_good", .bool(usingLastGood)), ("rules", .uint32(UInt32(clamping: rules))),
        ]
        if let siteList {
            pairs += [("name", .string(siteList.label)), ("format", .string(siteList.format)), ("version", .string(siteList.version ?? "")),
                      ("entries", .uint32(UInt32(clamping: siteList.entries))), ("greylist", .bool(siteList.greylist)),
                      ("named_at", .string(siteList.namedAt))]
        }
        return .vardict(pairs: pairs)
    }
}

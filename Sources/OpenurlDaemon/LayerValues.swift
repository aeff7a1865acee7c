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
        ConfigSourceDescription(layer: layer.rawValue, path: path, kind: siteList == nil ? ConfigSourceDescription.configKind : ConfigSourceDescription.siteListKind,
                                problem: problem ?? "", lastGood: usingLastGood, rules: UInt32(clamping: rules),
                                name: siteList?.label, format: siteList?.format, version: siteList.map { $0.version ?? "" },
                                entries: siteList.map { UInt32(clamping: $0.entries) }, greylist: siteList?.greylist, namedAt: siteList?.namedAt).dbusValue
    }
}

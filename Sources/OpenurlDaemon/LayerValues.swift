import ConfigFiles
import DBus
import ConfigLanguage
import RoutingCore
import RouterContract

extension Config {
    /// `DescribeRules`' entry for `rule`: `index` (0 for a remembered answer), `name`, `action`,
    /// `enabled`, `layer`, `file`, `line`, `locked`, `recommended`, `match` (what it matches, as
    /// its keys read) and `target` (where it sends links, empty when it opens nothing).
    func dbusDescription(of rule: Rule) -> DBusValue {
        RuleDescription(index: Int32(clamping: rule.index), name: rule.name ?? "", action: rule.action.summary, enabled: rule.enabled,
                        layer: rule.source.layer.rawValue, file: rule.source.file, line: UInt32(clamping: rule.source.line),
                        locked: rule.source.locked, recommended: rule.source.recommended,
                        match: matchText(of: rule), target: rule.action.targetText).dbusValue
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

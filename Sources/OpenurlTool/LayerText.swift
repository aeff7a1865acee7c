import ConfigFiles
import ConfigLanguage
import RoutingCore
import RouterContract

/// How the layers read out: `openurl check`, `status` and `rules` name each file of the system
/// configuration, each site list with its version and entries, and where each rule comes from.
enum LayerText {
    /// The line for one source: `system: /etc/xdg/openurld/config.toml: OK, 3 rules (1 locked)`.
    static func line(_ source: ConfigSourceStatus, rules: [Rule]) -> String {
        var text = "\(source.layer.rawValue): \(source.path): "
        if source.problem != nil {
            text += source.usingLastGood ? "ERROR, its last good version is in force"
                : (source.siteList != nil ? "ERROR, none of its entries is in force" : "ERROR, left out")
        } else {
            text += "OK"
        }
        if let list = source.siteList {
            text += ", \(list.format) list" + (list.version.map { " version \($0)" } ?? "") + ", \(list.entries) entries"
            text += (list.greylist ? ", a greylist" : "") + " (\(list.label), named at \(list.namedAt))"
            if let skipped = list.skipped { text += "; " + skipped }
        } else {
            let mine = rules.filter { $0.source.file == source.path && $0.source.layer == source.layer }
            text += ", \(source.rules) rules"
            let locked = mine.filter(\.source.locked).count, recommended = mine.filter(\.source.recommended).count
            let kinds = [locked > 0 ? "\(locked) locked" : nil, recommended > 0 ? "\(recommended) recommended" : nil].compactMap { $0 }
            if !kinds.isEmpty { text += " (" + kinds.joined(separator: ", ") + ")" }
        }
        return text
    }

    /// The label and detail `openurl status` shows for one of the daemon's `ConfigSources`; a
    /// field the daemon did not send (or sent mistyped) reads `?` (a count 0).
    static func sourceLine(_ source: ConfigSourceDescription) -> (label: String, detail: String) {
        let layer = source.layer ?? "?"
        var detail = source.path ?? "?"
        if source.isSiteList {
            let version = source.version.flatMap { $0.isEmpty ? nil : " version \($0)" } ?? ""
            detail += ": \(source.format ?? "?") list\(version), \(source.entries ?? 0) entries"
                + (source.greylist == true ? ", a greylist" : "") + " (named at \(source.namedAt ?? "?"))"
        } else {
            detail += ": \(source.rules ?? 0) rules"
        }
        let label = source.isSiteList ? "\(layer) site list \(source.name ?? "")" : "\(layer) config"
        return (label, detail)
    }

    /// What a user is told of a broken system configuration, with the problems for whoever fixes it.
    static func systemProblem(_ problems: String) -> String {
        "the system configuration has an error (ask your administrator); the rules of it that last loaded stay in use:\n" + problems
    }

    /// `user ~/.config/openurld/config.toml:7` or `system /etc/xdg/openurld/config.toml:4, locked`.
    static func origin(layer: String, file: String, line: Int, locked: Bool, recommended: Bool) -> String {
        "\(layer) \(file):\(line)" + (locked ? ", locked" : "") + (recommended ? ", recommended" : "")
    }
}

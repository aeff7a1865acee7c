import RoutingCore
import TOML


/// Reading the link safety keys: `[settings] safety`, `safety_checks`, `blocklists`, and a
/// rule's `safety`.
extension ConfigReader {
    mutating func readSafetySettings(_ node: TOMLNode) {
        if let safety = node["safety"], let value = readSafetyPolicy(safety, "settings.safety") { config.settings.safety = value }
        if let checks = node["safety_checks"], let items = collector.strings(checks, "settings.safety_checks") {
            let names = SafetyCheckName.allCases.map(\.rawValue)
            var chosen = Set<SafetyCheckName>()
            for (item, position) in items {
                guard let name = SafetyCheckName(rawValue: item) else {
                    let hint = DiagnosticCollector.nearest(to: item, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
                    collector.report("settings.safety_checks: unknown check \"\(item)\" (known: \(names.joined(separator: ", ")))\(hint)", at: position)
                    continue
                }
                chosen.insert(name)
            }
            config.settings.safetyChecks = SafetyCheckName.checks(chosen)
        }
        if let lists = node["blocklists"] { readBlockLists(lists) }
    }

    /// `"auto"` or a list of paths (`[]` for none).
    private mutating func readBlockLists(_ node: TOMLNode) {
        switch node.value {
        case .string("auto"):
            config.settings.blocklists = .auto
        case .array(let items) where items.isEmpty:
            config.settings.blocklists = .files([])
        case .array:
            guard let items = collector.strings(node, "settings.blocklists") else { return }
            var files: [BlockListFile] = []
            for (path, position) in items {
                guard !path.isEmpty else {
                    collector.report("settings.blocklists: an empty path; give a file, or remove the entry", at: position)
                    continue
                }
                files.append(BlockListFile(path: path, position: position))
            }
            config.settings.blocklists = .files(files)
        default:
            collector.report("settings.blocklists: expected \"auto\" or a list of files (uBlock filter lists or hosts files), found \(node.typeDescription == "a string" ? "\"\(node.stringValue ?? "")\"" : node.typeDescription)", at: node.position)
        }
    }

    /// `warn`, `ask`, `block` or `off`.
    mutating func readSafetyPolicy(_ node: TOMLNode, _ what: String) -> SafetyPolicy? {
        guard let name = collector.string(node, what) else { return nil }
        if let policy = SafetyPolicy(rawValue: name) { return policy }
        let names = SafetyPolicy.allCases.map(\.rawValue)
        let hint = DiagnosticCollector.nearest(to: name, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
        collector.report("\(what): unknown safety policy \"\(name)\" (expected one of \(names.joined(separator: ", ")))\(hint)", at: node.position)
        return nil
    }
}

extension TOMLNode {
    /// The string, for a string value.
    var stringValue: String? {
        if case .string(let text) = value { return text }
        return nil
    }
}

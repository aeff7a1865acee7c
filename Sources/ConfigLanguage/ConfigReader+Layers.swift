import SiteLists
import RoutingCore
import TOML

/// What the layers add to reading a file: locks, where rules come from, and `[[sitelist]]`.
extension ConfigReader {
    /// A note (a warning that does not stop the file from loading).
    mutating func note(_ message: String, at position: SourcePosition) {
        config.notes.append(ConfigDiagnostic(path: collector.path, position: position, message: message))
    }

    /// `locked`/`recommended` outside the system configuration is an error: it would mean nothing.
    mutating func refuseOutsideSystem(_ node: TOMLNode, _ key: String, _ what: String) -> Bool {
        guard let value = node[key] else { return false }
        guard layer == .system else {
            collector.report("\(what).\(key): only the system configuration ($XDG_CONFIG_DIRS/openurld) can use \(key)", at: value.keyPosition)
            return false
        }
        return true
    }

    /// `[settings] locked` of a system file; in the files after it, the locked keys are left
    /// out (with a note). Returns the settings table to read.
    mutating func readSettingLocks(_ node: TOMLNode, _ members: [(key: String, node: TOMLNode)]) -> TOMLNode {
        if refuseOutsideSystem(node, "locked", "settings"), let lockedNode = node["locked"] {
            var names: [String] = []
            switch lockedNode.value {
            case .boolean(let all): names = all ? members.map(\.key).filter { $0 != "locked" } : []
            default:
                let known = ConfigSchema.names(ConfigSchema.lockableSettings)
                for (name, position) in collector.strings(lockedNode, "settings.locked") ?? [] {
                    guard known.contains(name) else {
                        let hint = DiagnosticCollector.nearest(to: name, among: known).map { "; did you mean \"\($0)\"?" } ?? ""
                        collector.report("settings.locked: unknown setting \"\(name)\"\(hint)", at: position)
                        continue
                    }
                    names.append(name)
                }
            }
            for name in names { config.locks.keys["settings." + name] = RuleSource(layer: .system, file: collector.path, line: lockedNode.position.line, locked: true) }
        }
        guard layer != .system else { return node }
        var kept: [(key: String, node: TOMLNode)] = []
        for member in members {
            if let lock = config.locks.keys["settings." + member.key] {
                note("settings.\(member.key) is locked by the system configuration (\(lock.file):\(lock.line)); this value is not used", at: member.node.keyPosition)
            } else {
                kept.append(member)
            }
        }
        var filtered = node
        filtered.value = .table(kept)
        return filtered
    }

    /// `[default] locked`; false when a lock keeps this file's `[default]` from being read.
    mutating func readDefaultLock(_ node: TOMLNode) -> Bool {
        if refuseOutsideSystem(node, "locked", "default"), let lockedNode = node["locked"],
           let locked = collector.bool(lockedNode, "default.locked"), locked {
            config.locks.keys["default"] = RuleSource(layer: .system, file: collector.path, line: lockedNode.position.line, locked: true)
        }
        if layer != .system, let lock = config.locks.keys["default"] {
            note("[default] is locked by the system configuration (\(lock.file):\(lock.line)); this one is not used", at: node.keyPosition)
            return false
        }
        return true
    }

    /// The rule names this file must not reuse: those of its own layer in earlier files.
    func namesTaken() -> [String: RuleSource] {
        var names: [String: RuleSource] = [:]
        for rule in config.rules where rule.source.layer == layer {
            if let name = rule.name, names[name] == nil { names[name] = rule.source }
        }
        return names
    }

    /// Where a rule or site list comes from, with its `locked` and `recommended`.
    mutating func ruleSource(_ item: TOMLNode, _ what: String) -> RuleSource {
        var source = RuleSource(layer: layer, file: collector.path, line: item.position.line)
        if refuseOutsideSystem(item, "locked", what) { source.locked = item["locked"].flatMap { collector.bool($0, "\(what).locked") } ?? false }
        if refuseOutsideSystem(item, "recommended", what) {
            source.recommended = item["recommended"].flatMap { collector.bool($0, "\(what).recommended") } ?? false
        }
        if source.locked && source.recommended {
            collector.report("\(what): locked and recommended do not go together (a locked rule comes first, a recommended one after the user's)", at: item.position)
        }
        return source
    }

    /// A rule's identity for toggles: the system's are kept apart from the user's of the same name.
    func identity(_ base: String) -> String { layer == .system ? "system:" + base : base }

    /// What a rule's identity leaves out (built once: a Set literal per rule was ~700 instructions).
    static let identityOmits: Set<String> = ["enabled"]

    /// `[[sitelist]]`: each list becomes a rule with a `.siteList` matcher (greylists do not), and
    /// every list is recorded in `Config.siteLists` for the caller to read.
    mutating func readSiteLists(_ node: TOMLNode) {
        guard case .array(let items) = node.value else {
            collector.report("sitelist: expected [[sitelist]] tables, found \(node.typeDescription)", at: node.position)
            return
        }
        var names = namesTaken()
        for (offset, item) in items.enumerated() {
            let context = "[[sitelist]] #\(offset + 1)"
            guard let members = collector.table(item, context) else { continue }
            collector.checkKeys(members, known: ConfigLoader.siteListKeys, in: "[[sitelist]]")
            guard let pathNode = item["path"], let formatNode = item["format"] else {
                collector.report("\(context): expected path = \"/etc/…/sites.xml\" and format = \"emie-v2\", \"emie-v1\" or \"lines\"", at: item.position)
                continue
            }
            let path = collector.string(pathNode, "sitelist.path")
            if path?.isEmpty == true { collector.report("sitelist.path: empty", at: pathNode.position) }
            var format: SiteListFormat?
            if let written = collector.string(formatNode, "sitelist.format") {
                format = SiteListFormat(rawValue: written)
                if format == nil {
                    let known = SiteListFormat.allCases.map(\.rawValue)
                    let hint = DiagnosticCollector.nearest(to: written, among: known).map { "; did you mean \"\($0)\"?" } ?? ""
                    collector.report("sitelist.format: unknown format \"\(written)\" (expected \(known.joined(separator: ", ")))\(hint)", at: formatNode.position)
                }
            }
            let greylist = item["greylist"].flatMap { collector.bool($0, "sitelist.greylist") } ?? false
            let name = item["name"].flatMap { collector.string($0, "sitelist.name") }
            let source = ruleSource(item, "sitelist")
            var action: Intent?
            if let openNode = item["open"] {
                if greylist {
                    collector.report("\(context): a greylist has no open (its sites never switch); remove open or greylist", at: openNode.keyPosition)
                } else if let target = collector.string(openNode, "sitelist.open") {
                    action = resolveTarget(target, at: openNode.position).map { .open($0) }
                }
            } else if !greylist {
                collector.report("\(context): expected open = TARGET for the sites the list switches (or greylist = true)", at: item.position)
            }
            if let name, let value = item["name"] {
                if let first = names[name] {
                    collector.report("duplicate rule name \"\(name)\" (first used at \(first.file):\(first.line)); rule and site list names must be unique", at: value.position)
                } else {
                    names[name] = source
                }
            }
            guard let path, let format else { continue }
            let index = config.siteLists.count
            config.siteLists.append(SiteListSource(name: name, path: path, format: format, greylist: greylist, source: source,
                                                   position: pathNode.position, resolvedPath: nil, list: .empty(format)))
            guard !greylist, let action else { continue }
            var rule = Rule(name: name, index: offset + 1, matchers: [.siteList(SiteListMatch(source: index, list: .empty(format), greylists: []))],
                            action: action, notify: item["notify"].flatMap { collector.bool($0, "sitelist.notify") },
                            enabled: item["enabled"].flatMap { collector.bool($0, "sitelist.enabled") } ?? true,
                            clean: nil, unwrap: nil, appLinks: nil, position: item.position)
            rule.source = source
            rule.identity = identity(name.map { "name:" + $0 } ?? "sitelist:" + item.canonicalText(omitting: Self.identityOmits))
            config.rules.append(rule)
        }
    }
}

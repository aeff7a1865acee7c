import ConfigFiles
import LinkSafety
import ConfigLanguage
import Routing
import RoutingCore
import TOML

/// What `openurl check` and `openurl status` say about link safety: the policy, the checks,
/// the known domains, and each block list read and counted.
extension Client {
    /// `check`'s safety part: each block list read now; one that cannot be read is an error at
    /// the config line that names it (exit 3).
    func checkSafety(_ config: Config, path: String) -> Int32 {
        for line in Self.safetyLines(config) { Output.print(line) }
        var code = ExitCode.success
        for (list, summary) in zip(config.blockLists, SafetyFiles.summaries(config)) {
            if let error = summary.error {
                let position = Self.position(of: list.path, in: config.settings.blocklists, configPath: path)
                Output.error("\(path):\(position): settings.blocklists: \(error)")
                code = ExitCode.config
            } else if summary.counts.hosts + summary.counts.urls + summary.counts.labelPrefixes == 0 {
                Output.error("warning: settings.blocklists: \(list.path) holds no entry a link can match (uBlock filter syntax or a hosts file expected)")
            }
        }
        return code
    }

    /// The safety summary lines, the block lists counted (they are read here).
    static func safetyLines(_ config: Config) -> [String] {
        let settings = config.settings
        guard settings.safety != .off else { return ["safety: off (no link safety checks)"] }
        let checks = settings.safetyChecks
        let names = [("idn", checks.idn), ("lookalikes", checks.lookalikes), ("link_text", checks.linkText), ("blocklists", checks.blocklists)]
            .filter(\.1).map(\.0)
        let known = RuleEngine(config: config).safety.knownDomains.count
        var lines = ["safety: \(settings.safety.rawValue); checks: \(names.isEmpty ? "none" : names.joined(separator: ", ")); \(known) known domains from the rules (sites opened lately are added by the daemon)"]
        if config.blockLists.isEmpty {
            if case .auto = settings.blocklists {
                lines.append("block lists: none found (blocklists = \"auto\" reads Debian's webext-ublock-origin-firefox lists; install that package)")
            } else {
                lines.append("block lists: none")
            }
        }
        for summary in SafetyFiles.summaries(config) { lines.append("block list: " + SafetyFiles.describe(summary)) }
        return lines
    }

    /// `LINE:COLUMN` of the `blocklists` entry that resolves to `file`.
    static func position(of file: String, in setting: BlockListSetting, configPath: String) -> String {
        guard case .files(let files) = setting,
              let entry = files.first(where: { SafetyFiles.resolve($0.path, besides: configPath) == file }) else { return "1:1" }
        return "\(entry.position.line):\(entry.position.column)"
    }
}

import LinkSafety
import Platform
import URLModel
import ConfigLanguage
import RoutingCore
import TOML

/// The files link safety reads: the block lists `[settings] blocklists` names (found and checked
/// at load, read on first use) and the Public Suffix List (for registrable domains).
public enum SafetyFiles {
    /// Finds the block lists `config` names and reads the Public Suffix List into it; an error
    /// (`FILE:LINE:COLUMN: settings.blocklists: …`) for a named file that cannot be opened.
    /// `snapshots`: where the lists keep their compiled form between starts (the daemon's).
    static func attach(to config: inout Config, path: String, snapshots: BlockListSnapshots? = nil) -> ConfigFile.LoadError? {
        guard config.settings.safety != .off else { return nil }
        config.publicSuffixes = FileSystem.contents(PublicSuffixList.debianPath).map { SuffixIndex(text: $0) }
        switch config.settings.blocklists {
        case .auto:
            config.blockLists = BlockListDiscovery.auto(isFile: FileSystem.isRegularFile).map { found in
                let file = found.path
                return BlockList(path: file, name: found.name, snapshots: snapshots, read: { FileSystem.contents(file) })
            }
        case .files(let files):
            var lists: [BlockList] = []
            for file in files {
                let resolved = resolve(file.path, besides: path)
                if let problem = problem(opening: resolved) {
                    return ConfigFile.LoadError(description: "\(path):\(file.position.line):\(file.position.column): settings.blocklists: \(resolved): \(problem)")
                }
                lists.append(BlockList(path: resolved, snapshots: snapshots, read: { FileSystem.contents(resolved) }))
            }
            config.blockLists = lists
        }
        return nil
    }

    /// `~/x` in the home directory, a relative path beside the config file.
    public static func resolve(_ file: String, besides configPath: String) -> String {
        let expanded = file.hasPrefix("~/") ? Environment.homeDirectory() + file.dropFirst() : file
        return expanded.hasPrefix("/") ? expanded : Path.parent(configPath) + "/" + expanded
    }

    /// Why `path` cannot be read as a list, or nil.
    static func problem(opening path: String) -> String? {
        do {
            let file = try ReadableFile(path)
            guard try file.status().kind == .regular else { return "not a regular file" }
            return nil
        } catch {
            return "cannot be read: \(error.message)"
        }
    }

    /// What each of `config`'s lists holds, reading them now (`openurl check`, `openurl status`):
    /// the name, path, entry counts, and an error for a list that could not be read.
    public static func summaries(_ config: Config) -> [BlockList.Summary] {
        config.blockLists.map(\.summary)
    }

    /// One line for a list: "URLhaus malicious URLs (/usr/share/…): 12345 hosts, 678 URLs".
    public static func describe(_ summary: BlockList.Summary) -> String {
        if let error = summary.error { return "\(summary.name): \(error)" }
        let counts = summary.counts
        var parts = ["\(counts.hosts) hosts", "\(counts.urls) URLs"]
        if counts.labelPrefixes > 0 { parts.append("\(counts.labelPrefixes) name prefixes") }
        if counts.exceptions > 0 { parts.append("\(counts.exceptions) exceptions") }
        let skipped = counts.unsupportedPatterns + counts.notForPages + counts.unsupportedOptions
        if skipped > 0 { parts.append("\(skipped) entries that do not apply to links, skipped") }
        return "\(summary.name) (\(summary.path)): " + parts.joined(separator: ", ")
    }
}

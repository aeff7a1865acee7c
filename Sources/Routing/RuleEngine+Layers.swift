import RoutingCore
import ConfigLanguage
import SiteLists
import URLModel

extension RuleEngine {
    /// The trace's account of a site list for `url`: which entry switched it or kept it.
    static func siteListStep(_ match: SiteListMatch, config: Config, url: ParsedURL) -> TraceStep {
        func path(of source: Int) -> String {
            config.siteLists.indices.contains(source) ? (config.siteLists[source].resolvedPath ?? config.siteLists[source].path) : "?"
        }
        var file = path(of: match.source)
        var greylisted = false
        let verdict = match.list.verdict(for: url, greylists: match.greylists)
        // A greylist entry may be another list's: name the file it is in.
        if case .stay(let entry?) = verdict, !match.list.entries.contains(entry),
           let other = zip(match.greylists, match.greylistSources).first(where: { $0.0.entries.contains(entry) }) {
            file = path(of: other.1)
            greylisted = true
        }
        switch verdict {
        case .go(let entry):
            return .siteList(file: file, entry: entry.pattern.text, line: entry.line, outcome: "switches")
        case .stay(let entry?):
            return .siteList(file: file, entry: entry.pattern.text, line: entry.line,
                             outcome: greylisted || entry.kind == .greylist ? "greylisted, does not switch" : "an exception, does not switch")
        case .stay(nil):
            return .siteList(file: file, entry: "", line: 0, outcome: "not listed")
        }
    }
}

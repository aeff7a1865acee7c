import RoutingCore
import ConfigFiles
import Launching
import OpenurlCommands
import JSON
import ConfigLanguage
import Routing

/// `openurl apps [--json] [SCHEME]`: what rules can open, with the target string to paste.
extension Client {
    func runApps(_ parsed: ParsedCommand) -> Int32 {
        let json = parsed.flag("--json")
        let path = parsed.value("--config")
        let scheme = parsed.positionals.first.map { $0.hasSuffix(":") ? String($0.dropLast()) : $0 }
        let config: Config
        switch loadConfig(path: path) {
        case .success(let loaded): config = loaded
        case .failure(let error):
            // The installed apps are still worth listing; the config's [apps] are not known.
            Output.error("openurl: the config does not load, so its [apps] are not listed:\n\(error.description)")
            var defaults = Config()
            defaults.catalog = AppDiscovery(paths: paths, environment: environment).catalog()
            config = defaults
        }
        let listings = TargetListing.targets(for: scheme, config: config, all: parsed.flag("--all"))
        if json {
            Output.print(JSONValue.array(listings.map(\.json)).text)
            return ExitCode.success
        }
        let width = min(48, listings.map(\.target.count).max() ?? 0)
        for listing in listings {
            let padded = Self.padded(listing.target, to: width)
            let kind = Self.padded(listing.kind.rawValue, to: 8)
            Output.print("\(padded)  \(kind)  \(listing.name)\(listing.isDefault ? " (default)" : "")")
        }
        return ExitCode.success
    }

    /// `text` with spaces after it up to `width` characters; longer text is left whole.
    static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

import ConfigLanguage
import Routing

extension RuleEngine {
    /// An engine over `text` read as the user's config file at `path` (`path` only names the file
    /// in diagnostics), with no catalogue of installed apps: what most routing tests decide with.
    static func reading(_ text: String, path: String = "config.toml") throws -> RuleEngine {
        RuleEngine(config: try ConfigLoader.load(text: text, path: path))
    }
}

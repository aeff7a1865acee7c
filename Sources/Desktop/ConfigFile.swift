import Foundation
import Routing

/// Reads the config file from disk; a missing file at the default path means built-in defaults.
public enum ConfigFile {
    /// Why a config could not be used: `FILE:LINE:COLUMN: message` lines.
    public struct LoadError: Error, CustomStringConvertible {
        /// The message, one problem per line.
        public var description: String
    }

    /// Loads `path`, then the remembered rules beside it (`RememberedRules`), which go first.
    /// When `required` is false a missing file gives the built-in defaults. `discover` is asked
    /// once for the installed apps that browser targets and app links are checked against (the
    /// default knows none). `rememberedText` stands in for the remembered file's contents (to check a new version
    /// before writing it).
    public static func load(path: String, required: Bool, discover: () -> AppCatalog = { AppCatalog() },
                            rememberedText: String? = nil) -> Result<Config, LoadError> {
        switch loadMain(path: path, required: required, discover: discover) {
        case .failure(let error): return .failure(error)
        case .success(let config):
            let remembered = rememberedPath(besides: path)
            guard let rememberedText else { return addRemembered(to: config, path: remembered) }
            do {
                return .success(try ConfigLoader.loadRemembered(text: rememberedText, path: remembered, into: config))
            } catch {
                return .failure(LoadError(description: error.description))
            }
        }
    }

    /// The remembered-rules file in the directory of the config file `path`.
    public static func rememberedPath(besides path: String) -> String {
        (path as NSString).deletingLastPathComponent + "/" + RememberedRules.fileName
    }

    private static func addRemembered(to config: Config, path: String) -> Result<Config, LoadError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            if !FileManager.default.fileExists(atPath: path) { return .success(config) }
            return .failure(LoadError(description: "\(path): cannot be read"))
        }
        guard let text = String(validating: Array(data), as: UTF8.self) else {
            return .failure(LoadError(description: "\(path):1:1: the file is not valid UTF-8 text"))
        }
        do {
            return .success(try ConfigLoader.loadRemembered(text: text, path: path, into: config))
        } catch {
            return .failure(LoadError(description: error.description))
        }
    }

    private static func loadMain(path: String, required: Bool, discover: () -> AppCatalog) -> Result<Config, LoadError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            if !FileManager.default.fileExists(atPath: path) {
                var defaults = Config()
                defaults.catalog = discover()
                return required ? .failure(LoadError(description: "\(path): no such file")) : .success(defaults)
            }
            return .failure(LoadError(description: "\(path): cannot be read"))
        }
        guard let text = String(validating: Array(data), as: UTF8.self) else {
            return .failure(LoadError(description: "\(path):1:1: the file is not valid UTF-8 text"))
        }
        var config: Config
        do {
            config = try ConfigLoader.load(text: text, path: path, catalog: discover())
        } catch {
            return .failure(LoadError(description: error.description))
        }
        if let rulesPath = config.settings.clearURLsPath {
            let position = config.settings.clearURLsPosition.map { "\($0.line):\($0.column)" } ?? "1:1"
            let expanded = rulesPath.hasPrefix("~/") ? NSHomeDirectory() + rulesPath.dropFirst() : rulesPath
            let resolved = expanded.hasPrefix("/") ? expanded : (path as NSString).deletingLastPathComponent + "/" + expanded
            guard let bytes = FileManager.default.contents(atPath: resolved) else {
                return .failure(LoadError(description: "\(path):\(position): settings.clearurls: cannot read \(resolved)"))
            }
            do {
                config.clearURLs = try ClearURLsRules(json: Array(bytes))
            } catch {
                return .failure(LoadError(description: "\(path):\(position): settings.clearurls: \(resolved): \(error)"))
            }
        }
        return .success(config)
    }
}

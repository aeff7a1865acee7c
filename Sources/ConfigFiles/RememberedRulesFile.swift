import Platform
import RoutingCore
import Catalog
import ConfigLanguage

/// Writes "Remember for …" choices to `remembered.toml` beside the config (see `RememberedRules`).
public enum RememberedRulesFile {
    /// Why a choice was not remembered.
    public struct WriteError: Error, CustomStringConvertible {
        /// The reason, with `file:line:col` when the new rule would not load.
        public var description: String
    }

    /// Adds (or replaces) the rule remembering `choice` for `request` in the remembered file beside
    /// `configPath`, after checking that the config loads with it (browser targets checked against
    /// `discover` and the system configuration of `systemDirs`, as the daemon loads it); returns the rule's name. The file
    /// is replaced by rename, so a reader never sees half of it, and created 0600.
    @discardableResult
    public static func remember(_ request: RememberRequest, choice: Choice.Action, configPath: String, systemDirs: [String] = [],
                                discover: () -> AppCatalog = { AppCatalog() }) throws -> String {
        let path = ConfigFile.rememberedPath(besides: configPath)
        let block: String
        do { block = try RememberedRules.ruleText(scope: request.scope, value: request.value, choice: choice.description) } catch {
            throw WriteError(description: error.description)
        }
        let name = RememberedRules.ruleName(scope: request.scope, value: request.value)
        let existing = FileSystem.contents(path).map { String(decoding: $0, as: UTF8.self) }
        let text = RememberedRules.adding(block, named: name, to: existing)
        if case .failure(let error) = ConfigFile.load(path: configPath, required: false, systemDirs: systemDirs, discover: discover, rememberedText: text) {
            throw WriteError(description: "not remembered, the rule would not load: \(error.description)")
        }
        try? FileSystem.createDirectory(Path.parent(path), mode: 0o700, intermediates: true)
        do { try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o600) } catch {
            throw WriteError(description: "cannot write \(error.path ?? path): \(error.message)")
        }
        return name
    }
}

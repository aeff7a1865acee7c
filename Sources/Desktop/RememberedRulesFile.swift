import Foundation
import Routing

/// Writes "Remember for …" choices to `remembered.toml` beside the config (see `RememberedRules`).
public enum RememberedRulesFile {
    /// Why a choice was not remembered.
    public struct WriteError: Error, CustomStringConvertible {
        /// The reason, with `file:line:col` when the new rule would not load.
        public var description: String
    }

    /// Adds (or replaces) the rule remembering `choice` for `request` in the remembered file beside
    /// `configPath`, after checking that the config loads with it (browser targets checked against
    /// `discover`, as the daemon loads it); returns the rule's name. The file
    /// is replaced by rename, so a reader never sees half of it, and created 0600.
    @discardableResult
    public static func remember(_ request: RememberRequest, choice: AskChoice, configPath: String,
                                discover: () -> AppCatalog = { AppCatalog() }) throws -> String {
        let path = ConfigFile.rememberedPath(besides: configPath)
        let block: String
        do { block = try RememberedRules.ruleText(scope: request.scope, value: request.value, choice: choice.description) } catch {
            throw WriteError(description: error.description)
        }
        let name = RememberedRules.ruleName(scope: request.scope, value: request.value)
        let existing = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        let text = RememberedRules.adding(block, named: name, to: existing)
        if case .failure(let error) = ConfigFile.load(path: configPath, required: false, discover: discover, rememberedText: text) {
            throw WriteError(description: "not remembered, the rule would not load: \(error.description)")
        }
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WriteError(description: "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw WriteError(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return name
    }
}

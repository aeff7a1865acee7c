import Platform
import ConfigLanguage

extension RememberedRulesFile {
    /// Removes the remembered answer named `name` from the remembered file beside `configPath`
    /// (`RememberedRules.removing`: every other line kept); false when the file has no such block.
    /// The file is replaced by rename and kept 0600, as `remember` writes it (a link there is
    /// replaced, never written through); a file left with nothing in it is removed instead, since
    /// an empty config file that just changed is taken for one an editor is still writing.
    public static func forget(_ name: String, configPath: String) throws(WriteError) -> Bool {
        let path = ConfigFile.rememberedPath(besides: configPath)
        guard let bytes = FileSystem.contents(path) else { return false }
        let decoded = String(decoding: bytes, as: UTF8.self)
        // Decoding replaces bad UTF-8: writing that back would change bytes of other lines.
        guard Array(decoded.utf8) == bytes else { throw WriteError(description: "\(path): not valid UTF-8; remove the answer by hand") }
        let text: String?
        do { text = try RememberedRules.removing(named: name, from: decoded) } catch {
            throw WriteError(description: "\(path): \(error.description)")
        }
        guard let text else { return false }
        do {
            if text.isEmpty {
                try FileSystem.remove(path)
            } else {
                try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o600)
            }
        } catch {
            throw WriteError(description: "cannot write \(error.path ?? path): \(error.message)")
        }
        return true
    }
}

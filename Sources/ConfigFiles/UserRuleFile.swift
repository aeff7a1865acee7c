import Platform
import RoutingCore
import Catalog
import ConfigLanguage

/// Adds a rule made in the settings window ("Make a rule…", `RuleDraft`) to the end of the
/// user's `config.toml`, the rest of the file byte for byte as it was (`RuleAppender`).
///
/// Nothing is written unless the whole configuration (system layers, the new file, remembered
/// answers) loads with it, and the name is not taken. The file is replaced by rename, so a
/// reader (the daemon's hot reload) never sees half of it, keeping its mode (0600 when new). A
/// `config.toml` that is a symbolic link (a dotfiles repository) is written at the link's
/// target, so the link stays, but only when that is a regular file in the user's home.
public enum UserRuleFile {
    /// Why a rule was not added.
    public struct AppendError: Error, Equatable, CustomStringConvertible {
        /// The reason, with `file:line:column` when the config would not load.
        public var description: String
    }

    /// What adding the rule does (or, from `preview`, would do).
    public struct AppendResult: Sendable, Equatable {
        /// The file written: `config.toml`, or the target of the link it is.
        public var path: String
        /// The new rule's name.
        public var name: String
        /// The line of its `[[rules]]` header in the new file.
        public var line: Int
        /// The new file, whole.
        public var text: String
        /// What the configuration with the rule does with the sample link; nil without one.
        public var sample: SampleOutcome?

        /// The earlier rule that takes the sample link first (locked or not), if any.
        public var shadowedBy: RuleMention? {
            switch sample {
            case .shadowed(let rule)?, .takenByLockedRule(let rule)?: return rule
            default: return nil
            }
        }
    }

    /// Appends `draft` to the config at `configPath` after the checks of `preview`; returns
    /// what was written. `home` (default `$HOME`) bounds where a symlinked config may point.
    @discardableResult
    public static func append(_ draft: RuleDraft, configPath: String, sampleURL: String?, systemDirs: [String] = [],
                              discover: () -> AppCatalog = { AppCatalog() }, home: String? = nil) throws(AppendError) -> AppendResult {
        let plan = try prepare(draft, configPath: configPath, sampleURL: sampleURL, systemDirs: systemDirs, discover: discover, home: home)
        // The user may have saved the file in an editor since it was read: their edit wins.
        let now = try read(plan.result.path)
        guard now?.bytes == plan.existing?.bytes else {
            throw AppendError(description: "not added: \(plan.result.path) changed while the rule was being made; try again")
        }
        if plan.existing == nil {
            try? FileSystem.createDirectory(Path.parent(plan.result.path), mode: 0o700, intermediates: true)
        }
        do {
            try FileSystem.writeAtomically(Array(plan.result.text.utf8), to: plan.result.path, mode: plan.existing?.mode ?? 0o600)
        } catch {
            throw AppendError(description: "cannot write \(error.path ?? plan.result.path): \(error.message)")
        }
        return plan.result
    }

    /// What `append` would write and what the sample link would do, without writing; throws
    /// for what `append` would refuse: a draft that is not plain names, a name already used (with
    /// where), a config that would not load (the loader's `file:line:column` messages), a
    /// symbolic link that points out of `home` or to something not a regular file.
    public static func preview(_ draft: RuleDraft, configPath: String, sampleURL: String?, systemDirs: [String] = [],
                               discover: () -> AppCatalog = { AppCatalog() }, home: String? = nil) throws(AppendError) -> AppendResult {
        try prepare(draft, configPath: configPath, sampleURL: sampleURL, systemDirs: systemDirs, discover: discover, home: home).result
    }

    /// The file as read: its bytes and permission bits.
    struct Existing: Equatable {
        var bytes: [UInt8]
        var mode: UInt32
    }

    private static func prepare(_ draft: RuleDraft, configPath: String, sampleURL: String?, systemDirs: [String],
                                discover: () -> AppCatalog, home: String?) throws(AppendError) -> (result: AppendResult, existing: Existing?) {
        let block: String
        do { block = try draft.text } catch { throw AppendError(description: "not added: \(error.description)") }
        let path = try writablePath(configPath, home: home ?? Environment.homeDirectory())
        let existing = try read(path)
        var existingText: String?
        if let existing {
            // Decoding replacement characters into a file we then write back would change bytes
            // the user never touched; the loader refuses such a file anyway.
            guard let text = String(validating: existing.bytes, as: UTF8.self) else {
                throw AppendError(description: "not added: \(configPath) is not UTF-8 text")
            }
            existingText = text
        }
        // Discovery is asked once: both loads check targets against the same apps.
        let catalog = discover()
        if case .success(let current) = ConfigFile.load(path: configPath, required: false, systemDirs: systemDirs, discover: { catalog }) {
            if let taken = (current.rules + current.remembered).first(where: { $0.name == draft.name }) {
                throw AppendError(description: "not added: a rule named \(String(reflecting: draft.name)) already exists at \(taken.source.file):\(taken.source.line); pick another name")
            }
        }
        let text = RuleAppender.appending(block, to: existingText)
        let candidate: Config
        switch ConfigFile.load(path: configPath, required: false, systemDirs: systemDirs, discover: { catalog }, userText: text) {
        case .success(let loaded): candidate = loaded
        case .failure(let error): throw AppendError(description: "not added, the config would not load with it:\n\(error.description)")
        }
        guard let rule = candidate.rules.first(where: { $0.source.layer == .user && $0.name == draft.name }) else {
            throw AppendError(description: "not added: the new rule \(String(reflecting: draft.name)) is not among the rules loaded")
        }
        let sample = sampleURL.map { judgeSample($0, config: candidate, newRule: draft.name) }
        return (AppendResult(path: path, name: draft.name, line: rule.source.line, text: text, sample: sample), existing)
    }

    /// Where to write: `configPath` itself, or for a symbolic link its target, when that is a
    /// regular file under `home`. A link elsewhere (another user's file, `/etc`, a mount) is
    /// refused rather than followed or replaced: replacing the link would quietly split the
    /// user's dotfiles from the file openurld reads.
    static func writablePath(_ configPath: String, home: String) throws(AppendError) -> String {
        guard FileSystem.isSymbolicLink(configPath) else {
            if let status = try? FileSystem.status(configPath, followingSymlinks: false), status.kind != .regular {
                throw AppendError(description: "not added: \(configPath) is not a regular file")
            }
            return configPath
        }
        let target: String
        do { target = try FileSystem.resolvingSymbolicLinks(configPath) } catch {
            let points = (try? FileSystem.symbolicLinkTarget(configPath)) ?? "?"
            throw AppendError(description: "not added: \(configPath) is a symbolic link to \(points), which cannot be followed (\(error.message))")
        }
        let realHome = (try? FileSystem.resolvingSymbolicLinks(home)) ?? home
        guard target.hasPrefix(realHome.hasSuffix("/") ? realHome : realHome + "/") else {
            throw AppendError(description: "not added: \(configPath) is a symbolic link to \(target), outside your home directory \(realHome); edit that file by hand")
        }
        guard FileSystem.isRegularFile(target) else {
            throw AppendError(description: "not added: \(configPath) is a symbolic link to \(target), which is not a regular file")
        }
        return target
    }

    /// The file's bytes and mode; nil when there is none. A file owned by someone else is
    /// refused: the rename would replace it with one of the user's own.
    static func read(_ path: String) throws(AppendError) -> Existing? {
        let status: FileStatus
        do { status = try FileSystem.status(path, followingSymlinks: false) } catch {
            if error.isNotFound { return nil }
            throw AppendError(description: "not added: cannot read \(path): \(error.message)")
        }
        guard status.owner == Environment.userID else {
            throw AppendError(description: "not added: \(path) belongs to user id \(status.owner), not to you")
        }
        guard status.size <= ConfigLoader.maximumBytes else {
            throw AppendError(description: "not added: \(path) is over \(ConfigLoader.maximumBytes) bytes, the config's limit")
        }
        do { return Existing(bytes: try FileSystem.readBytes(path), mode: status.permissions) } catch {
            throw AppendError(description: "not added: cannot read \(path): \(error.message)")
        }
    }
}

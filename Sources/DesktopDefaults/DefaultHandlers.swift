import Launching
import RouterContract
import Platform

/// Why no system handler could be chosen for a scheme.
public enum SystemHandlerError: Error, Equatable, CustomStringConvertible {
    /// No installed app other than openurld declares the scheme.
    case noHandler(scheme: String)
    /// The only candidates hand links straight back to the default handler (`xdg-open`,
    /// `openurl`, `gio open`, ...), which would loop through openurld forever.
    case onlyLoops(scheme: String, candidates: [String])

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .noHandler(let scheme): return "no application other than openurld handles \(scheme): links"
        case .onlyLoops(let scheme, let candidates):
            return "the only \(scheme): handlers (\(candidates.joined(separator: ", "))) call xdg-open/openurl again and would loop"
        }
    }
}

/// Makes openurld the default handler for http, https and mailto on every path a desktop reads
/// (see `TakeoverPlan`), remembering what was there (`TakeoverRecord`) so `uninstall` puts it
/// back byte for byte.
public struct DefaultHandlers: Sendable {
    /// openurld's desktop file id.
    public static let ourDesktopID = Router1.desktopID
    /// The MIME types openurld takes over.
    public static let handledTypes = ["x-scheme-handler/http", "x-scheme-handler/https", "x-scheme-handler/mailto"]
    /// Programs whose entries pass links back to the default handler, i.e. to us.
    static let loopingPrograms: Set<String> = [
        "xdg-open", "openurl", "openurld", "kde-open", "kde-open5", "exo-open", "gnome-open", "gvfs-open",
    ]

    /// The XDG locations used (for `.system`, `XDGPaths.systemView`).
    public var paths: XDGPaths
    /// Where installed desktop entries are found.
    public var entries: DesktopEntryDirectory
    /// One user's defaults, or every user's (the system's files).
    public let scope: TakeoverScope

    /// Works on the files named by `paths`: the user's, or with `.system` the system's files
    /// every user's desktop reads (see `XDGPaths.systemView`).
    public init(paths: XDGPaths, scope: TakeoverScope = .user) {
        self.scope = scope
        self.paths = scope == .system ? paths.systemView : paths
        entries = DesktopEntryDirectory(paths: self.paths)
    }

    /// `$XDG_STATE_HOME/openurld/previous-handlers`, or for the system
    /// `$XDG_CONFIG_DIRS/openurld/system-install/record` (readable by every user, whose `system`
    /// target is the handler recorded there).
    public var recordFile: String {
        scope == .system ? paths.configHome + "/openurld/system-install/record" : paths.stateDirectory + "previous-handlers"
    }
    /// Where the original bytes of changed files are kept.
    var backupDirectory: String {
        scope == .system ? paths.configHome + "/openurld/system-install/backup/" : paths.stateDirectory + "backup/"
    }

    /// Whether `install` ran and `uninstall` has not.
    public var isRecorded: Bool { FileSystem.exists(recordFile) }

    /// The default for `mimeType` as the spec resolves it: the first installed id listed under
    /// `[Default Applications]` in the `mimeapps.list` files in precedence order; nil if none.
    public func currentDefault(for mimeType: String) -> String? { currentDefaultAndFile(for: mimeType)?.id }

    /// The default for `mimeType` and the file that decides it.
    public func currentDefaultAndFile(for mimeType: String) -> (id: String, file: String)? {
        for file in paths.mimeappsListFiles {
            guard let text = FileSystem.utf8Text(file) else { continue }
            for id in MimeAppsList(text: text).defaults(forKey: mimeType) where entries.entry(id: id) != nil {
                return (id, file)
            }
        }
        return nil
    }

    /// Whether openurld is the effective default for every handled type.
    public var isInstalled: Bool {
        Self.handledTypes.allSatisfy { currentDefault(for: $0) == Self.ourDesktopID }
    }

    /// Takes over every setting of `TakeoverPlan` (recording the state before, unless already
    /// recorded: installing twice keeps the first record, so openurld never becomes its own
    /// previous handler). `openurl` is the handler's path for XFCE's helper entries. Returns the
    /// types for which a higher-precedence list still overrides us.
    @discardableResult
    public func install(openurl: String = "openurl", environment: [String: String] = Environment.current()) throws -> [String] {
        try installReporting(openurl: openurl, environment: environment).shadowed
    }

    /// `install`, also saying which files this run changed (a second install changes none).
    public func installReporting(openurl: String = "openurl", environment: [String: String] = Environment.current()) throws -> (shadowed: [String], changed: [String]) {
        let plan = TakeoverPlan(paths: paths, environment: environment, openurl: openurl, scope: scope)
        var record = try currentRecord()
        var targets: [Target] = []
        for edit in plan.edits {
            if let index = targets.firstIndex(where: { $0.path == edit.path }) { targets[index].edits.append(edit) }
            else { targets.append(Target(path: edit.path, edits: [edit])) }
        }
        for file in plan.files { targets.append(Target(path: file.path, whole: file.content)) }
        let changed = try apply(targets, to: &record)
        try record.write(recordFile, mode: recordMode)
        return (Self.handledTypes.filter { currentDefault(for: $0) != Self.ourDesktopID }, changed)
    }

    /// The record as it stands, or a new one holding the defaults in effect now (so the first
    /// change, by install or by `doctor --fix`, is what `system` and uninstall go back to).
    private func currentRecord() throws -> TakeoverRecord {
        var record = TakeoverRecord.read(recordFile, userList: paths.userMimeappsList) ?? TakeoverRecord()
        if !isRecorded {
            record.previous = Self.handledTypes.map { type in (type, currentDefault(for: type).flatMap { $0 == Self.ourDesktopID ? nil : $0 }) }
            // The system's record lives beside its config: the folders made for it go at uninstall.
            if scope == .system { record.directories += try Self.createParents(of: recordFile) }
        }
        return record
    }

    /// One file to change: settings to set, or its whole content (`mode`: a new file's, as
    /// `0o755` for a program).
    struct Target {
        var path: String
        var edits: [TakeoverEdit] = []
        var whole: String?
        var mode: UInt32?
    }

    /// Writes whole files beside the takeover (`openurl doctor --fix`: a per-user
    /// `x-www-browser`, an `environment.d` entry), recorded like install's own files so
    /// `uninstall` removes them (or gives back their bytes). Returns the files it changed.
    public func mend(_ files: [TakeoverFile], mode: (String) -> UInt32? = { _ in nil }) throws -> [String] {
        var record = try currentRecord()
        let changed = try apply(files.map { Target(path: $0.path, whole: $0.content, mode: mode($0.path)) }, to: &record)
        try record.write(recordFile, mode: recordMode)
        return changed
    }

    /// Changes each target, recording first what each file and setting was (unless recorded
    /// already) so uninstall can put it back; a recorded file changed by someone else since
    /// becomes `loose`. Returns the files whose bytes it changed.
    @discardableResult
    func apply(_ targets: [Target], to record: inout TakeoverRecord) throws -> [String] {
        var changed: [String] = []
        try FileSystem.createDirectory(backupDirectory, mode: 0o700, intermediates: true)
        for target in targets {
            let before = FileSystem.contents(target.path)
            var text = KeyFileText(text: before.map { String(decoding: $0, as: UTF8.self) } ?? "")
            if let whole = target.whole { text = KeyFileText(text: whole) }
            for edit in target.edits {
                let existing = record.edit(edit.path, edit.section, edit.key)
                let originalLine = text.lineIndex(section: edit.section, key: edit.key).map { text.lines[$0] }
                let created = text.set(section: edit.section, key: edit.key, value: edit.value)
                record.kept.removeAll { $0.path == edit.path && $0.section == edit.section && $0.key == edit.key }
                if existing == nil {
                    record.edits.append(.init(path: edit.path, section: edit.section, key: edit.key, original: originalLine,
                                              value: edit.value, createdSection: created))
                }
            }
            let after = Array(text.text.utf8)
            if let index = record.files.firstIndex(where: { $0.path == target.path }) {
                if record.files[index].hash != TakeoverRecord.hash(before) { Self.markLoose(&record.files[index]) }
                record.files[index].hash = TakeoverRecord.hash(after)
            } else {
                let backup = "\(record.files.count + 1)"
                if let before { try AtomicFile.write(before, to: backupDirectory + backup, mode: 0o600) }
                record.files.append(.init(path: target.path, state: before == nil ? "absent" : "present", backup: backup,
                                          hash: TakeoverRecord.hash(after)))
            }
            guard after != before else { continue }
            record.directories += try Self.createParents(of: target.path).filter { !record.directories.contains($0) }
            // Recorded before the write: a failure part-way leaves a record uninstall can use.
            try record.write(recordFile, mode: recordMode)
            try AtomicFile.write(after, to: target.path, mode: before == nil ? target.mode : nil)
            changed.append(target.path)
        }
        return changed
    }

    /// The files the install record covers, in the order install changed them.
    public func takenOverFiles() -> [String] { TakeoverRecord.read(recordFile, userList: paths.userMimeappsList)?.files.map(\.path) ?? [] }

    /// Puts back what `install` recorded. A file nobody else changed since gets its original
    /// bytes back (or is removed when install created it); in one that changed, each of our
    /// settings becomes its original line again (or goes), and lines changed since install are
    /// left alone. Safe to run when not installed.
    public func uninstall() throws {
        guard let record = TakeoverRecord.read(recordFile, userList: paths.userMimeappsList) else { return }
        // The record goes first, so a watching daemon never takes our own restore for a steal.
        try FileSystem.remove(recordFile)
        do {
            try restore(record)
        } catch {
            try? record.write(recordFile, mode: recordMode)
            throw error
        }
        try? FileSystem.removeTree(backupDirectory)
        // Last: the system's record folders are among them, empty only now.
        for directory in record.directories.reversed() { try? FileSystem.removeDirectory(directory) }
    }

    /// The record's mode: the user's is theirs alone; the system's is read by every user's daemon.
    var recordMode: UInt32 { scope == .system ? 0o644 : 0o600 }

    private func restore(_ record: TakeoverRecord) throws {
        for file in record.files.reversed() {
            let current = FileSystem.contents(file.path)
            if !file.state.hasPrefix("loose"), TakeoverRecord.hash(current) == file.hash {
                if file.state == "absent" {
                    if current != nil { try FileSystem.removeTree(file.path) }
                    continue
                }
                if let original = FileSystem.contents(backupDirectory + file.backup) {
                    try AtomicFile.write(original, to: file.path)
                    continue
                }
                // The copy of the original is gone: put back our settings one by one instead.
            }
            guard let current else { continue }
            var text = KeyFileText(text: String(decoding: current, as: UTF8.self))
            for edit in record.edits.reversed() where edit.path == file.path {
                guard let index = text.lineIndex(section: edit.section, key: edit.key),
                      text.value(section: edit.section, key: edit.key) == edit.value else { continue }
                if let original = edit.original { text.lines[index] = original } else { text.lines.remove(at: index) }
                if edit.createdSection, let section = edit.section { text.removeSectionIfEmpty(section) }
            }
            if file.state.hasSuffix("absent"), text.text.trimmingWhitespace().allSatisfy({ $0 == "\n" }) {
                try FileSystem.removeTree(file.path)
            } else if Array(text.text.utf8) != current {
                try AtomicFile.write(Array(text.text.utf8), to: file.path)
            }
        }
    }

    /// Creates the missing parent directories of `path`; returns those it created, outermost first.
    static func createParents(of path: String) throws -> [String] {
        var missing: [String] = []
        var dir = Path.parent(path)
        while !dir.isEmpty, dir != "/", !FileSystem.exists(dir) {
            missing.insert(dir, at: 0)
            dir = Path.parent(dir)
        }
        for dir in missing { try FileSystem.createDirectory(dir) }
        return missing
    }

    /// The defaults recorded by `install` (type → desktop id, nil for "there was none").
    public func recordedDefaults() -> [String: String?] {
        var result: [String: String?] = [:]
        for (type, id) in TakeoverRecord.read(recordFile, userList: paths.userMimeappsList)?.previous ?? [] { result[type] = .some(id) }
        return result
    }

    /// The app `system` decisions hand a link to: the handler recorded at install, else the
    /// current default, else the first other installed entry declaring the scheme. Never openurld,
    /// never an entry whose `Exec` would hand the link back to the default handler.
    public func systemHandler(forScheme scheme: String) throws -> DesktopEntry {
        var installed: [DesktopEntry]?
        return try systemHandler(forScheme: scheme, installed: &installed)
    }

    /// `systemHandler(forScheme:)`, reading every installed entry (into `installed`, shared
    /// between schemes) only when neither a recorded nor the current default will do: each read
    /// parses every desktop entry on the machine, and the daemon's start asked three times.
    private func systemHandler(forScheme scheme: String, installed: inout [DesktopEntry]?) throws -> DesktopEntry {
        let type = "x-scheme-handler/" + scheme.lowercased()
        var candidates: [String] = []
        if let recorded = recordedDefaults()[type] ?? nil { candidates.append(recorded) }
        // After `install --system`, the system's default before it.
        if scope == .user, let recorded = DefaultHandlers(paths: paths, scope: .system).recordedDefaults()[type] ?? nil { candidates.append(recorded) }
        if let current = currentDefault(for: type) { candidates.append(current) }
        var loops: [String] = []
        func usable(_ id: String) -> DesktopEntry? {
            guard id != Self.ourDesktopID, let entry = entries.entry(id: id) else { return nil }
            if Self.loops(entry) { if !loops.contains(id) { loops.append(id) }; return nil }
            return entry
        }
        for id in candidates { if let entry = usable(id) { return entry } }
        let all = installed ?? entries.allEntries()
        installed = all
        for entry in all where entry.handles(scheme: scheme) { if let usable = usable(entry.id) { return usable } }
        throw loops.isEmpty ? SystemHandlerError.noHandler(scheme: scheme)
            : SystemHandlerError.onlyLoops(scheme: scheme, candidates: loops)
    }

    /// What `system` opens for each of `schemes` (those with a handler): the entries that name
    /// `system` in choices and notifications (`AppCatalog.previousHandlers`).
    public func previousHandlers(schemes: [String] = ["http", "https", "mailto"]) -> [String: DesktopEntry] {
        var handlers: [String: DesktopEntry] = [:]
        var installed: [DesktopEntry]?
        for scheme in schemes {
            if let entry = try? systemHandler(forScheme: scheme, installed: &installed) { handlers[scheme] = entry }
        }
        return handlers
    }

    /// Whether launching `entry` would come straight back to the default handler.
    static func loops(_ entry: DesktopEntry) -> Bool {
        if entry.isDBusActivatable && entry.busName == Router1.busName { return true }
        guard let exec = entry.exec, var words = try? ExecLine.tokenize(exec, entry: entry.id) else { return false }
        // `env VAR=value program` runs program.
        if let first = words.first, Path.lastComponent(first) == "env" {
            words.removeFirst()
            while let word = words.first, word.hasPrefix("-") || word.contains("=") { words.removeFirst() }
        }
        guard let program = words.first.map({ Path.lastComponent($0) }) else { return false }
        if loopingPrograms.contains(program) { return true }
        return program == "gio" && words.dropFirst().first == "open"
    }
}

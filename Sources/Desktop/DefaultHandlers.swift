import Foundation

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

/// Registers openurld as the default handler for http, https and mailto in the user's
/// `mimeapps.list`, remembering what was there so `uninstall` puts it back exactly.
///
/// The record lives in `$XDG_STATE_HOME/openurld/previous-handlers`, a tab-separated text file:
/// ```
/// handler<TAB>x-scheme-handler/http<TAB>firefox.desktop<TAB>=x-scheme-handler/http=firefox.desktop
/// handler<TAB>x-scheme-handler/mailto<TAB><TAB>-
/// created<TAB>section<TAB>1
/// ```
/// `handler` lines give the MIME type, the default in effect before install (empty: none), and
/// the user's own line for it in `$XDG_CONFIG_HOME/mimeapps.list` (`=` and the exact line, or
/// `-` when there was none). `created section N` says install appended `[Default Applications]`
/// after N newlines; `created file` says install created `mimeapps.list`. Lines starting with
/// `#` are comments.
public struct DefaultHandlers: Sendable {
    /// openurld's desktop file id.
    public static let ourDesktopID = "io.github.openurld.desktop"
    /// The MIME types openurld takes over.
    public static let handledTypes = ["x-scheme-handler/http", "x-scheme-handler/https", "x-scheme-handler/mailto"]
    /// Programs whose entries pass links back to the default handler, i.e. to us.
    static let loopingPrograms: Set<String> = [
        "xdg-open", "openurl", "openurld", "kde-open", "kde-open5", "exo-open", "gnome-open", "gvfs-open",
    ]

    /// The XDG locations used.
    public var paths: XDGPaths
    /// Where installed desktop entries are found.
    public var entries: DesktopEntryDirectory

    /// Works on the files named by `paths`.
    public init(paths: XDGPaths) {
        self.paths = paths
        entries = DesktopEntryDirectory(paths: paths)
    }

    /// `$XDG_STATE_HOME/openurld/previous-handlers`.
    public var recordFile: String { paths.stateDirectory + "previous-handlers" }

    /// The default for `mimeType` as the spec resolves it: the first installed id listed under
    /// `[Default Applications]` in the `mimeapps.list` files in precedence order; nil if none.
    public func currentDefault(for mimeType: String) -> String? {
        for file in paths.mimeappsListFiles {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for id in MimeAppsList(text: text).defaults(forKey: mimeType) where entries.entry(id: id) != nil {
                return id
            }
        }
        return nil
    }

    /// Whether openurld is the effective default for every handled type.
    public var isInstalled: Bool {
        Self.handledTypes.allSatisfy { currentDefault(for: $0) == Self.ourDesktopID }
    }

    /// Records the current defaults (unless a record already exists: installing twice keeps the
    /// first record, so openurld never becomes its own previous handler) and makes openurld the
    /// default. Returns the types for which a higher-precedence file (e.g. a desktop-specific
    /// `gnome-mimeapps.list`) still overrides us.
    @discardableResult
    public func install() throws -> [String] {
        let listPath = paths.userMimeappsList
        let existing = try? String(contentsOfFile: listPath, encoding: .utf8)
        var list = MimeAppsList(text: existing ?? "")
        if !FileManager.default.fileExists(atPath: recordFile) {
            var record = "# openurld: default handlers before `openurl install`; `openurl uninstall` restores them.\n"
            for type in Self.handledTypes {
                let previous = currentDefault(for: type).flatMap { $0 == Self.ourDesktopID ? nil : $0 } ?? ""
                var userLine = "-"
                if let index = list.lineIndex(forKey: type),
                   !MimeAppsList.ids(in: list.lines[index]).contains(Self.ourDesktopID) {
                    userLine = "=" + list.lines[index]
                }
                record += "handler\t\(type)\t\(previous)\t\(userLine)\n"
            }
            if existing == nil { record += "created\tfile\n" }
            var probe = list
            if let separator = probe.set(key: Self.handledTypes[0], value: Self.ourDesktopID) {
                record += "created\tsection\t\(separator.filter { $0 == "\n" }.count)\n"
            }
            try FileManager.default.createDirectory(atPath: paths.stateDirectory, withIntermediateDirectories: true)
            try record.write(toFile: recordFile, atomically: true, encoding: .utf8)
        }
        for type in Self.handledTypes where list.defaults(forKey: type) != [Self.ourDesktopID] {
            list.set(key: type, value: Self.ourDesktopID)
        }
        if list.text != existing {
            try FileManager.default.createDirectory(atPath: paths.configHome, withIntermediateDirectories: true)
            try list.text.write(toFile: listPath, atomically: true, encoding: .utf8)
        }
        return Self.handledTypes.filter { currentDefault(for: $0) != Self.ourDesktopID }
    }

    /// Puts back what `install` recorded: each of our lines becomes the recorded line again (or is
    /// removed when there was none); a section or file install created is removed once empty.
    /// Lines someone changed since install are left alone. Safe to run when not installed.
    public func uninstall() throws {
        let listPath = paths.userMimeappsList
        let record = readRecord()
        if let existing = try? String(contentsOfFile: listPath, encoding: .utf8) {
            var list = MimeAppsList(text: existing)
            for type in Self.handledTypes {
                guard let index = list.lineIndex(forKey: type),
                      MimeAppsList.ids(in: list.lines[index]) == [Self.ourDesktopID] else { continue }
                if let original = record.userLines[type] ?? nil {
                    list.lines[index] = original
                } else {
                    list.remove(key: type)
                }
            }
            var text = list.text
            if let newlines = record.createdSectionSeparator {
                let added = String(repeating: "\n", count: newlines) + MimeAppsList.defaultsSection + "\n"
                if text.hasSuffix(added) { text.removeLast(added.count) }
            }
            if record.createdFile, text.isEmpty {
                try FileManager.default.removeItem(atPath: listPath)
            } else if text != existing {
                try text.write(toFile: listPath, atomically: true, encoding: .utf8)
            }
        }
        if FileManager.default.fileExists(atPath: recordFile) { try FileManager.default.removeItem(atPath: recordFile) }
    }

    /// The defaults recorded by `install` (type → desktop id, nil for "there was none").
    public func recordedDefaults() -> [String: String?] { readRecord().previous }

    /// The app `system` decisions hand a link to: the handler recorded at install, else the
    /// current default, else the first other installed entry declaring the scheme. Never openurld,
    /// never an entry whose `Exec` would hand the link back to the default handler.
    public func systemHandler(forScheme scheme: String) throws -> DesktopEntry {
        let type = "x-scheme-handler/" + scheme.lowercased()
        var candidates: [String] = []
        if let recorded = recordedDefaults()[type] ?? nil { candidates.append(recorded) }
        if let current = currentDefault(for: type) { candidates.append(current) }
        candidates += entries.entries(forScheme: scheme).map(\.id)
        var loops: [String] = []
        for id in candidates where id != Self.ourDesktopID {
            guard let entry = entries.entry(id: id) else { continue }
            if Self.loops(entry) { if !loops.contains(id) { loops.append(id) }; continue }
            return entry
        }
        throw loops.isEmpty ? SystemHandlerError.noHandler(scheme: scheme)
            : SystemHandlerError.onlyLoops(scheme: scheme, candidates: loops)
    }

    /// Whether launching `entry` would come straight back to the default handler.
    static func loops(_ entry: DesktopEntry) -> Bool {
        if entry.isDBusActivatable && entry.busName == "io.github.openurld" { return true }
        guard let exec = entry.exec, var words = try? ExecLine.tokenize(exec, entry: entry.id) else { return false }
        // `env VAR=value program` runs program.
        if let first = words.first, (first as NSString).lastPathComponent == "env" {
            words.removeFirst()
            while let word = words.first, word.hasPrefix("-") || word.contains("=") { words.removeFirst() }
        }
        guard let program = words.first.map({ ($0 as NSString).lastPathComponent }) else { return false }
        if loopingPrograms.contains(program) { return true }
        return program == "gio" && words.dropFirst().first == "open"
    }

    private struct Record {
        var previous: [String: String?] = [:]
        var userLines: [String: String?] = [:]
        var createdFile = false
        var createdSectionSeparator: Int?
    }

    private func readRecord() -> Record {
        var record = Record()
        guard let text = try? String(contentsOfFile: recordFile, encoding: .utf8) else { return record }
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "handler" where fields.count == 4:
                record.previous[fields[1]] = .some(fields[2].isEmpty ? nil : fields[2])
                record.userLines[fields[1]] = .some(fields[3].hasPrefix("=") ? String(fields[3].dropFirst()) : nil)
            case "created" where fields.count >= 2:
                if fields[1] == "file" { record.createdFile = true }
                if fields[1] == "section" { record.createdSectionSeparator = fields.count > 2 ? Int(fields[2]) ?? 0 : 0 }
            default:
                continue
            }
        }
        return record
    }
}

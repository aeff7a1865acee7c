import Platform

/// A `[Desktop Action NAME]` of a desktop entry (e.g. Firefox's `new-private-window`).
public struct DesktopAction: Sendable, Equatable {
    /// The action id (the `NAME` in `[Desktop Action NAME]`).
    public var id: String
    /// The localized display name.
    public var name: String
    /// The raw `Exec` value of the action, if any.
    public var exec: String?
}

/// The parts of a desktop entry openurld needs, read as GIO (`GDesktopAppInfo`) reads them:
/// translations, `TryExec`, the `Exec` program and `Hidden` the way the rest of the desktop sees them.
public struct DesktopEntry: Sendable, Equatable {
    /// The desktop file id, e.g. `firefox.desktop` (a file in a subdirectory gets `dir-file.desktop`).
    public var id: String
    /// The file the entry was read from.
    public var path: String
    /// The localized `Name`.
    public var name: String
    /// The raw `Exec` value (after key-file unescaping, before field codes), if any.
    public var exec: String?
    /// The `Icon` value, if any.
    public var icon: String?
    /// `Terminal=true`: the program must run inside a terminal emulator.
    public var isTerminal: Bool
    /// `DBusActivatable=true`: launch by calling `org.freedesktop.Application` on the bus name.
    public var isDBusActivatable: Bool
    /// `Hidden=true` (the entry counts as deleted).
    public var isHidden: Bool
    /// The `MimeType` list (`x-scheme-handler/https`, ...).
    public var mimeTypes: [String]
    /// The entry's desktop actions, in the order of its `Actions` key.
    public var actions: [DesktopAction]
    /// The `Categories` list (`Network`, `WebBrowser`, ...).
    public var categories: [String]
    /// `X-Flatpak`: the Flatpak app id of an entry Flatpak exported.
    public var flatpakID: String?
    /// `X-SnapInstanceName`: the Snap of an entry snapd exported.
    public var snapName: String?

    /// The D-Bus well-known name of a `DBusActivatable` entry: the id without `.desktop`.
    public var busName: String { id.hasSuffix(".desktop") ? String(id.dropLast(8)) : id }
    /// The object path `org.freedesktop.Application` lives at: the bus name with `.` → `/`, `-` → `_`.
    public var objectPath: String {
        "/" + busName.replacingEvery(".", with: "/").replacingEvery("-", with: "_")
    }

}

extension DesktopEntry {
    /// Reads the entry in `path` under `id`; nil when GIO would reject it (not an application,
    /// bad syntax, its `TryExec` or `Exec` program not found).
    public init?(path: String, id: String) {
        guard let bytes = FileSystem.contents(path) else { return nil }
        self.init(bytes: bytes, path: path, id: id)
    }

    /// The entry in `bytes` (read from `path`); nil when GIO would reject it.
    /// `environment` gives `PATH` and the locale (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`).
    init?(bytes: [UInt8], path: String, id: String, environment: (String) -> String? = Environment.value) {
        // GIO's rules (g_desktop_app_info_load_from_keyfile): the file starts with
        // [Desktop Entry], is an Application, and its TryExec and Exec programs exist.
        guard let file = DesktopKeyFile(bytes: bytes), file.startGroup == DesktopKeyFile.entryGroup,
              file.string("Type") == "Application" else { return nil }
        let searchPath = environment("PATH")
        if let tryExec = file.string("TryExec"), !tryExec.isEmpty, Self.findProgram(tryExec, searchPath: searchPath) == nil { return nil }
        let exec = file.string("Exec")
        if let exec, !exec.isEmpty {
            guard case .success(let words) = ShellWords.split(exec), let program = words.first,
                  Self.findProgram(program, searchPath: searchPath) != nil else { return nil }
        }
        let languages = DesktopKeyFile.languageNames(environment)
        self.id = id
        self.path = path
        // GIO says "Unnamed" for an entry without a Name; the id tells the user more.
        name = file.localeString("Name", languages: languages) ?? id
        self.exec = exec.flatMap { $0.isEmpty ? nil : $0 }
        icon = file.string("Icon").flatMap { $0.isEmpty ? nil : $0 }
        isTerminal = file.boolean("Terminal") ?? false
        isDBusActivatable = file.boolean("DBusActivatable") ?? false
        isHidden = file.boolean("Hidden") ?? false
        mimeTypes = file.stringList("MimeType") ?? []
        categories = file.string("Categories").map { $0.split(separator: ";").map(String.init) } ?? []
        flatpakID = file.string("X-Flatpak").flatMap { $0.isEmpty ? nil : $0 }
        snapName = file.string("X-SnapInstanceName").flatMap { $0.isEmpty ? nil : $0 }
        actions = (file.stringList("Actions") ?? []).map { action in
            let group = "Desktop Action " + action
            // GIO says "Unnamed" for an action without a Name; its id says more.
            return DesktopAction(id: action, name: file.localeString("Name", in: group, languages: languages) ?? action,
                                 exec: file.string("Exec", in: group))
        }
    }

    /// GLib's `g_find_program_in_path`: a name with a slash must be an executable file there;
    /// a bare name is looked up in `searchPath` (GLib's `/bin:/usr/bin:.` when `PATH` is unset).
    static func findProgram(_ program: String, searchPath: String?) -> String? {
        func runnable(_ candidate: String) -> Bool { FileSystem.isExecutable(candidate) && !FileSystem.isDirectory(candidate) }
        if program.contains("/") { return runnable(program) ? program : nil }
        for directory in (searchPath ?? "/bin:/usr/bin:.").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + program
            if runnable(candidate) { return candidate }
        }
        return nil
    }

    /// Whether the entry declares `x-scheme-handler/SCHEME`.
    public func handles(scheme: String) -> Bool {
        mimeTypes.contains("x-scheme-handler/" + scheme.lowercased())
    }
}

/// Finds desktop entries in the XDG application directories (`$XDG_DATA_HOME/applications`,
/// then each of `$XDG_DATA_DIRS`; Flatpak's exported directories are found when they are in
/// `XDG_DATA_DIRS`, as Flatpak's profile script arranges).
///
/// The directories are scanned here rather than through GIO's registry because GLib caches the
/// XDG directories for the life of the process: scanning keeps lookups correct for the
/// `XDGPaths` given (tests, or a daemon whose environment was updated) and always current.
public struct DesktopEntryDirectory: Sendable {
    /// The paths whose application directories are searched.
    public var paths: XDGPaths

    /// Searches the application directories of `paths`.
    public init(paths: XDGPaths) { self.paths = paths }

    /// The XDG application directories, then Flatpak's and Snap's exports.
    var searchDirs: [String] { paths.applicationDirs + paths.exportedApplicationDirs }

    /// The entry with desktop file id `id` (`.desktop` optional), honouring directory precedence;
    /// nil when none exists, it is hidden, or GIO rejects it.
    public func entry(id: String) -> DesktopEntry? {
        let fileID = id.hasSuffix(".desktop") ? id : id + ".desktop"
        guard !fileID.contains("/"), fileID != ".desktop" else { return nil }
        for dir in searchDirs {
            let direct = dir + "/" + fileID
            let path = FileSystem.exists(direct)
                ? direct : (fileID.contains("-") ? scan(dir)[fileID] : nil)
            if let path {
                // A file found first shadows later ones, even when it is hidden (that is how
                // a user deletes a system entry).
                guard let entry = DesktopEntry(path: path, id: fileID), !entry.isHidden else { return nil }
                return entry
            }
        }
        return nil
    }

    /// Every visible entry, each id once (the most important directory wins), sorted by id.
    /// With `containing`, only files whose text holds one of those strings are parsed (a cheap
    /// byte search first).
    public func allEntries(containing needles: [String]? = nil) -> [DesktopEntry] {
        var seen: [String: String] = [:]
        for dir in searchDirs {
            for (id, path) in scan(dir) where seen[id] == nil { seen[id] = path }
        }
        let patterns = needles?.map { Array($0.utf8) }
        return seen.sorted { $0.key < $1.key }.compactMap { id, path in
            guard let data = FileSystem.contents(path) else { return nil }
            if let patterns, !patterns.contains(where: { Self.bytes(data, contain: $0) }) { return nil }
            guard let entry = DesktopEntry(bytes: data, path: path, id: id), !entry.isHidden else { return nil }
            return entry
        }
    }

    private static func bytes(_ data: [UInt8], contain needle: [UInt8]) -> Bool {
        guard let first = needle.first, data.count >= needle.count else { return needle.isEmpty }
        return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            let last = buffer.count - needle.count
            var index = 0
            while index <= last {
                if buffer[index] == first, needle.indices.allSatisfy({ buffer[index + $0] == needle[$0] }) { return true }
                index += 1
            }
            return false
        }
    }

    /// Entries declaring `x-scheme-handler/SCHEME`, sorted by id.
    public func entries(forScheme scheme: String) -> [DesktopEntry] {
        allEntries().filter { $0.handles(scheme: scheme) }
    }

    /// Maps desktop file ids to paths for one directory tree (`sub/app.desktop` → `sub-app.desktop`).
    private func scan(_ dir: String) -> [String: String] {
        guard let descendants = try? FileSystem.descendants(of: dir) else { return [:] }
        var found: [String: String] = [:]
        for relative in descendants {
            guard relative.hasSuffix(".desktop") else { continue }
            found[relative.replacingEvery("/", with: "-")] = dir + "/" + relative
        }
        return found
    }
}

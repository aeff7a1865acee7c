import CGIO
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

/// The parts of a desktop entry openurld needs, read through GIO (`GDesktopAppInfo`), which
/// applies localisation, `TryExec` and `Hidden` the way the rest of the desktop does.
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

    /// Reads the entry in `path` under `id`; nil when GIO rejects it (not an application, bad
    /// syntax, `TryExec` missing).
    public init?(path: String, id: String) {
        guard let info = g_desktop_app_info_new_from_filename(path) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        let appInfo = info
        self.id = id
        self.path = path
        name = g_app_info_get_name(appInfo).map { String(cString: $0) } ?? id
        exec = Self.string(info, "Exec")
        icon = Self.string(info, "Icon")
        isTerminal = g_desktop_app_info_get_boolean(info, "Terminal") != 0
        isDBusActivatable = g_desktop_app_info_get_boolean(info, "DBusActivatable") != 0
        isHidden = g_desktop_app_info_get_is_hidden(info) != 0
        var count: gsize = 0
        if let list = g_desktop_app_info_get_string_list(info, "MimeType", &count) {
            mimeTypes = (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } }
            g_strfreev(list)
        } else {
            mimeTypes = []
        }
        categories = Self.string(info, "Categories").map { $0.split(separator: ";").map(String.init) } ?? []
        flatpakID = Self.string(info, "X-Flatpak")
        snapName = Self.string(info, "X-SnapInstanceName")
        var actions: [DesktopAction] = []
        if let ids = g_desktop_app_info_list_actions(info), ids[0] != nil {
            // Only entries with actions pay for reading the file a second time.
            let execs = Self.actionExecs(path: path)
            var index = 0
            while let idPointer = ids[index] {
                let actionID = String(cString: idPointer)
                let label = g_desktop_app_info_get_action_name(info, idPointer)
                actions.append(DesktopAction(id: actionID, name: label.map { String(cString: $0) } ?? actionID,
                                             exec: execs[actionID]))
                g_free(label)
                index += 1
            }
        }
        self.actions = actions
    }

    /// Whether the entry declares `x-scheme-handler/SCHEME`.
    public func handles(scheme: String) -> Bool {
        mimeTypes.contains("x-scheme-handler/" + scheme.lowercased())
    }

    private static func string(_ info: OpaquePointer, _ key: String) -> String? {
        guard let value = g_desktop_app_info_get_string(info, key) else { return nil }
        defer { g_free(value) }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// GIO does not expose an action's `Exec`, so the key file is read again for it.
    private static func actionExecs(path: String) -> [String: String] {
        guard let keyFile = g_key_file_new() else { return [:] }
        defer { g_key_file_free(keyFile) }
        guard g_key_file_load_from_file(keyFile, path, G_KEY_FILE_NONE, nil) != 0 else { return [:] }
        var execs: [String: String] = [:]
        var count: gsize = 0
        guard let groups = g_key_file_get_groups(keyFile, &count) else { return [:] }
        defer { g_strfreev(groups) }
        for index in 0..<Int(count) {
            guard let group = groups[index].map({ String(cString: $0) }), group.hasPrefix("Desktop Action ") else { continue }
            if let value = g_key_file_get_string(keyFile, group, "Exec", nil) {
                execs[String(group.dropFirst("Desktop Action ".count))] = String(cString: value)
                g_free(value)
            }
        }
        return execs
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
    /// byte search first: parsing an entry with its translations costs ~0.5 ms).
    public func allEntries(containing needles: [String]? = nil) -> [DesktopEntry] {
        var seen: [String: String] = [:]
        for dir in searchDirs {
            for (id, path) in scan(dir) where seen[id] == nil { seen[id] = path }
        }
        let patterns = needles?.map { Array($0.utf8) }
        return seen.sorted { $0.key < $1.key }.compactMap { id, path in
            if let patterns {
                guard let data = FileSystem.contents(path),
                      patterns.contains(where: { Self.bytes(data, contain: $0) }) else { return nil }
            }
            guard let entry = DesktopEntry(path: path, id: id), !entry.isHidden else { return nil }
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

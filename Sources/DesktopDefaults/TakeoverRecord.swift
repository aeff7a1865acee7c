import Platform

/// What `openurl install` changed, so `uninstall` can put it back byte for byte:
/// `$XDG_STATE_HOME/openurld/previous-handlers` (0600), tab-separated, fields escaped
/// (`\\`, `\t`, `\n`):
/// ```
/// handler  TYPE  PREVIOUS-DEFAULT  -
/// file     PATH  absent|present|loose|loose-absent  BACKUP  HASH
/// edit     PATH  SECTION  KEY  =ORIGINAL-LINE|-  VALUE  0|1
/// dir      PATH
/// kept     PATH  SECTION  KEY
/// ```
/// `file`: the state before install (`loose`: changed by someone else since, so only our own
/// lines are put back; `loose-absent`: the same for a file install created), the name of the copy of its original bytes under `backup/`, and the
/// FNV-1a hash of what install wrote. `edit`: one setting, its original line (`-`: none), our
/// value, and whether install created its section. `dir`: a directory install created.
/// `kept`: a setting another app took and the user chose to keep (not reported again).
struct TakeoverRecord {
    struct File: Equatable {
        var path: String
        var state: String
        var backup: String
        var hash: String
    }

    struct Edit: Equatable {
        var path: String
        var section: String?
        var key: String
        var original: String?
        var value: String
        var createdSection: Bool
    }

    /// The default in effect before install, by MIME type (nil: none).
    var previous: [(type: String, id: String?)] = []
    var files: [File] = []
    var edits: [Edit] = []
    var directories: [String] = []
    var kept: [(path: String, section: String?, key: String)] = []

    func isKept(_ path: String, _ section: String?, _ key: String) -> Bool {
        kept.contains { $0.path == path && $0.section == section && $0.key == key }
    }

    func file(_ path: String) -> File? { files.first { $0.path == path } }
    func edit(_ path: String, _ section: String?, _ key: String) -> Edit? {
        edits.first { $0.path == path && $0.section == section && $0.key == key }
    }

    /// Reads the record at `path`; `userList` is the user's mimeapps.list, which an older
    /// record (handler lines only) covers.
    static func read(_ path: String, userList: String? = nil) -> TakeoverRecord? {
        guard let text = FileSystem.utf8Text(path) else { return nil }
        var record = TakeoverRecord()
        var legacyLines: [(type: String, line: String?)] = []
        var legacyCreatedFile = false
        var legacyCreatedSection = false
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map { String(tabSeparatedCell: $0) }
            switch f.first {
            case "handler" where f.count >= 3:
                record.previous.append((f[1], f[2].isEmpty ? nil : f[2]))
                if f.count == 4 { legacyLines.append((f[1], f[3].hasPrefix("=") ? String(f[3].dropFirst()) : nil)) }
            case "created" where f.count >= 2:
                if f[1] == "file" { legacyCreatedFile = true }
                if f[1] == "section" { legacyCreatedSection = true }
            case "file" where f.count == 5:
                record.files.append(File(path: f[1], state: f[2], backup: f[3], hash: f[4]))
            case "edit" where f.count == 7:
                record.edits.append(Edit(path: f[1], section: f[2].isEmpty ? nil : f[2], key: f[3],
                                         original: f[4].hasPrefix("=") ? String(f[4].dropFirst()) : nil, value: f[5], createdSection: f[6] == "1"))
            case "dir" where f.count == 2:
                record.directories.append(f[1])
            case "kept" where f.count == 4:
                record.kept.append((f[1], f[2].isEmpty ? nil : f[2], f[3]))
            default:
                continue
            }
        }
        if record.files.isEmpty, !legacyLines.isEmpty, let userList {
            // A record from before desktop-specific takeovers: only the user's mimeapps.list,
            // restored line by line.
            record.files = [File(path: userList, state: legacyCreatedFile ? "loose-absent" : "loose", backup: "", hash: "")]
            record.edits = legacyLines.map {
                Edit(path: userList, section: "Default Applications", key: $0.type, original: $0.line,
                     value: DefaultHandlers.ourDesktopID, createdSection: legacyCreatedSection)
            }
        }
        return record
    }

    var text: String {
        var text = "# openurld: what `openurl install` changed; `openurl uninstall` puts it back.\n"
        func line(_ fields: [String]) { text += fields.map(\.tabSeparatedCell).joined(separator: "\t") + "\n" }
        for (type, id) in previous { line(["handler", type, id ?? "", "-"]) }
        for file in files { line(["file", file.path, file.state, file.backup, file.hash]) }
        for edit in edits {
            line(["edit", edit.path, edit.section ?? "", edit.key, edit.original.map { "=" + $0 } ?? "-", edit.value, edit.createdSection ? "1" : "0"])
        }
        for dir in directories { line(["dir", dir]) }
        for item in kept { line(["kept", item.path, item.section ?? "", item.key]) }
        return text
    }

    func write(_ path: String, mode: UInt32 = 0o600) throws {
        try AtomicFile.write(Array(text.utf8), to: path, mode: mode)
    }

    /// FNV-1a 64 of `data`, as hex: enough to tell "the bytes install wrote" from anything else.
    static func hash(_ data: [UInt8]?) -> String {
        guard let data else { return "absent" }
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(value, radix: 16)
    }
}

/// Whole-file writes that never leave a half-written file: a temporary beside the target, then
/// rename. A symlinked target (dotfile managers) is written through the link; the mode is kept.
enum AtomicFile {
    static func write(_ data: [UInt8], to path: String, mode: UInt32? = nil) throws {
        let target = (try? FileSystem.symbolicLinkTarget(path)).map { Path.resolving($0, besides: path) } ?? path
        try FileSystem.writeAtomically(data, to: target, mode: mode, temporary: target + ".openurld-new")
    }
}

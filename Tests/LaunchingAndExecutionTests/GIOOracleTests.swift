import CGIO
import Foundation
@testable import Launching
import Testing
import TestSupport

/// openurld reads desktop entries and splits `Exec` lines itself, so the daemon starts without
/// GLib; these hold both readers to GIO, what `gio open` and GLib desktops see.
@Suite struct GIOOracleTests {
    /// What GIO makes of the entry at `path`, in our type's terms; nil when GIO refuses it.
    static func gioEntry(path: String, id: String) -> DesktopEntry? {
        guard let info = g_desktop_app_info_new_from_filename(path) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        func string(_ key: String) -> String? {
            guard let value = g_desktop_app_info_get_string(info, key) else { return nil }
            defer { g_free(value) }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
        var count: gsize = 0
        var mimeTypes: [String] = []
        if let list = g_desktop_app_info_get_string_list(info, "MimeType", &count) {
            mimeTypes = (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } }
            g_strfreev(list)
        }
        var actions: [DesktopAction] = []
        let keyFile = g_key_file_new()
        defer { g_key_file_free(keyFile) }
        _ = g_key_file_load_from_file(keyFile, path, G_KEY_FILE_NONE, nil)
        if let ids = g_desktop_app_info_list_actions(info) {
            var index = 0
            while let idPointer = ids[index] {
                let action = String(cString: idPointer)
                let label = g_desktop_app_info_get_action_name(info, idPointer)
                var exec: String?
                if let value = g_key_file_get_string(keyFile, "Desktop Action " + action, "Exec", nil) {
                    exec = String(cString: value)
                    g_free(value)
                }
                actions.append(DesktopAction(id: action, name: label.map { String(cString: $0) } ?? action, exec: exec))
                g_free(label)
                index += 1
            }
        }
        return DesktopEntry(
            id: id, path: path, name: g_app_info_get_name(info).map { String(cString: $0) } ?? id, exec: string("Exec"), icon: string("Icon"),
            isTerminal: g_desktop_app_info_get_boolean(info, "Terminal") != 0,
            isDBusActivatable: g_desktop_app_info_get_boolean(info, "DBusActivatable") != 0,
            isHidden: g_desktop_app_info_get_is_hidden(info) != 0, mimeTypes: mimeTypes,
            actions: actions, categories: string("Categories").map { $0.split(separator: ";").map(String.init) } ?? [],
            flatpakID: string("X-Flatpak"), snapName: string("X-SnapInstanceName"))
    }

    /// GIO's entry and ours agree, but for the names GIO calls "Unnamed" (ours says the id).
    static func agree(_ ours: DesktopEntry?, _ gio: DesktopEntry?) -> Bool {
        guard var ours, let gio else { return ours == nil && gio == nil }
        if gio.name == "Unnamed" { ours.name = "Unnamed" }
        for (index, action) in gio.actions.enumerated() where action.name == "Unnamed" && index < ours.actions.count {
            ours.actions[index].name = "Unnamed"
        }
        return ours == gio
    }

    @Test func everyEntryOfThisMachineReadsAsGIOReadsIt() throws {
        var compared = 0
        var differing: [String] = []
        for directory in ["/usr/share/applications", "/usr/local/share/applications"] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasSuffix(".desktop") {
                let path = directory + "/" + name
                compared += 1
                let ours = DesktopEntry(path: path, id: name), gio = Self.gioEntry(path: path, id: name)
                if !Self.agree(ours, gio) { differing.append("\(path):\n  ours \(String(describing: ours))\n  GIO  \(String(describing: gio))") }
            }
        }
        print("GIOOracleTests: \(compared - differing.count) of \(compared) desktop entries of this machine read as GIO reads them")
        #expect(compared >= 20, "too few desktop entries to compare; the test machine has Debian's browsers and tools installed")
        #expect(differing.isEmpty, "\(differing.joined(separator: "\n"))")
    }

    static let craftedEntries: [String] = [
        "[Desktop Entry]\nType=Application\nName=Plain\nExec=true %u\n",
        "[Desktop Entry]\nType=Application\nName=Lists\nExec=true\nMimeType=x-scheme-handler/http;text/a\\;b;;x;\nCategories=Network;WebBrowser;\n",
        "[Desktop Entry]\nType=Application\nName=Escapes\\sand\\ttabs\\\\\nExec=true \"a b\" 'c d' e\\ f\nIcon=  spaced\n",
        "[Desktop Entry]\nType=Application\nName=Bad escape \\q\nExec=true\n",
        "[Desktop Entry]\nType=Link\nName=Not an app\nURL=https://example.org\n",
        "[Other Group]\nA=b\n[Desktop Entry]\nType=Application\nName=Late\nExec=true\n",
        "Key=before any group\n[Desktop Entry]\nType=Application\nName=X\nExec=true\n",
        "[Desktop Entry]\nType=Application\nName=Garbage line\nthis is not a key\nExec=true\n",
        "[Desktop Entry]\nType=Application\nName=Missing program\nExec=/nonexistent/program %u\n",
        "[Desktop Entry]\nType=Application\nName=Missing TryExec\nTryExec=no-such-program-here\nExec=true\n",
        "[Desktop Entry]\nType=Application\nName=Unmatched quote\nExec=true \"open\n",
        "[Desktop Entry]\nType=Application\nName=Blank exec\nExec=   \n",
        "[Desktop Entry]\nType=Application\nName=No exec\n",
        "[Desktop Entry]\nType=Application\nExec=true\n",
        "[Desktop Entry]\r\nType=Application\r\nName=CRLF\r\nExec=true %u\r\nTerminal=true\r\n",
        "  [Desktop Entry]  \n  Type = Application\nName  =  Spaces around  \nExec=true\nHidden=true xyz\nDBusActivatable=1\nTerminal=yes\n",
        "[Desktop Entry]\nType=Application\nName=Repeated\nName=Second wins\nExec=true\n[Desktop Entry]\nIcon=merged\n",
        "[Desktop Entry]\nType=Application\nName=Actions\nExec=true\nActions=new;private;missing;\n\n[Desktop Action new]\nName=New\nExec=true --new %u\n"
            + "\n[Desktop Action private]\nName=Private\nName[de]=Privat\nExec=true --private\n",
        "[Desktop Entry]\nType=Application\nName=Bad key\n Name[de=x\nExec=true\n",
        "[Desktop Entry]\nType=Application\nName=Key with space \nExec=true\nX Key=with a space inside\n",
        "[Desktop Entry]\nEncoding=Latin-1\nType=Application\nName=Encoding\nExec=true\n",
        "[Desktop Entry]\nType=Application\nName=Flatpak\nExec=true\nX-Flatpak=org.example.App\nX-SnapInstanceName=app\n",
        "[Desktop Entry]\nType=Application\nName=Comment # not a comment\n# a comment\nExec=true # trailing comment\n",
        "[Desktop Entry]\nType=Application\nName=Not UTF-8 \u{00FF}\nExec=true\n",
        "[Desktop Entry]\nType=Application\nName=Translated\nName[fr]=Traduit\nName[de_DE@euro]=Übersetzt\nExec=true\n",
        "[Desktop Entry\nType=Application\nName=Open group\nExec=true\n",
        "[]\nType=Application\nName=Empty group\nExec=true\n",
        "[Desktop Entry] x\nType=Application\nName=Text after group\nExec=true\n",
        "[Desktop Entry]\nType=Application\nName=Ends with a backslash\\\nExec=true\nHidden=true  \nTerminal=TRUE\n",
        "[Desktop Entry]\nType=Application\nName=semi\\;colon\nExec=true\nMimeType=a\\xb;c\nCategories=a\\;b;c\n",
    ]

    @Test(arguments: craftedEntries.indices)
    func aCraftedEntryReadsAsGIOReadsIt(index: Int) throws {
        let directory = FileManager.default.temporaryDirectory.path + "/gio-oracle-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/crafted-\(index).desktop"
        var bytes = Array(Self.craftedEntries[index].utf8)
        // One entry carries a byte that is not UTF-8.
        if let mark = Self.craftedEntries[index].range(of: "\u{00FF}") {
            let offset = Self.craftedEntries[index].utf8.distance(from: Self.craftedEntries[index].startIndex, to: mark.lowerBound)
            bytes.replaceSubrange(offset..<(offset + 2), with: [0xff])
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ours = DesktopEntry(path: path, id: "crafted.desktop"), gio = Self.gioEntry(path: path, id: "crafted.desktop")
        #expect(Self.agree(ours, gio), "ours \(String(describing: ours))\nGIO  \(String(describing: gio))")
    }

    /// GLib's split, or nil when it refuses the line.
    static func glibWords(_ line: String) -> [String]? {
        var argc: Int32 = 0
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
        guard g_shell_parse_argv(line, &argc, &argv, nil) != 0, let argv else { return nil }
        defer { g_strfreev(argv) }
        return (0..<Int(argc)).compactMap { argv[$0].map { String(cString: $0) } }
    }

    static func ourWords(_ line: String) -> [String]? {
        if case .success(let words) = ShellWords.split(line) { return words }
        return nil
    }

    @Test(arguments: [
        "firefox %u", "  a   b\tc\n d ", "'single quoted' \"double quoted\"", "a\\ b c\\\\d", "\"a \\\" b\" \"\\$x\" \"\\`y\" \"\\z\"",
        "'it'\\''s'", "a#b #comment", "#only a comment", "a\\ #b\nc", "a\t#b", "\"a\\\nb\" c\\\nd", "'unterminated", "\"unterminated",
        "ends with \\", "", "   ", "''", "\"\"", "x''y\"\"z", "sh -c 'echo \"$1\"' sh %u", "env A=1 B='2 3' prog --flag=\"x y\" %U",
        "\"/opt/My App/bin/app\" --url %u", "a\"b\"'c'\\d", "ünïcödé 'ꙮ' \"✓\"",
    ])
    func anExecLineSplitsAsGLibSplitsIt(line: String) {
        #expect(Self.ourWords(line) == Self.glibWords(line), "\(line.debugDescription)")
    }

    @Test func tenThousandGeneratedLinesSplitAsGLibSplitsThem() {
        // A fixed seed: a difference found here is a case to add to the table above.
        var generator = SplitMix64(seed: 0x0be7_1e55)
        let alphabet: [Character] = [" ", " ", "\t", "\n", "'", "\"", "\\", "#", "$", "`", "a", "b", "%", "u", "=", "é"]
        var differing: [String] = []
        for _ in 0..<10_000 {
            let length = generator.below(12)
            let line = String((0..<length).map { _ in alphabet[generator.below(alphabet.count)] })
            if Self.ourWords(line) != Self.glibWords(line) { differing.append(line.debugDescription) }
        }
        #expect(differing.isEmpty, "\(differing.count) lines split unlike GLib, e.g. \(differing.prefix(10))")
    }
}

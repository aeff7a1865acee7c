/// A desktop entry file read the way GLib's `GKeyFile` reads it (what GIO, and so `gio open` and
/// most desktops, see): groups, `key=value` lines, `#` comments, `Key[locale]` translations, the
/// escapes `\s \n \t \r \\`, and `;`-separated lists. Ours, not GLib's, so the daemon does not map
/// GLib at start; `GIOOracleTests` holds it to GIO on every entry of the machine.
struct DesktopKeyFile {
    /// The group every desktop entry starts with.
    static let entryGroup = "Desktop Entry"

    /// Each group's lines as written (the last of a repeated key wins, as in GLib; a repeated
    /// group adds to the first).
    private var groups: [String: [String: Value]] = [:]
    /// A value as written, and whether it is UTF-8 (GLib refuses to give one that is not).
    private struct Value {
        var text: String
        var isUTF8: Bool
    }
    /// The first group of the file.
    private(set) var startGroup: String?

    /// Parses `bytes`; nil when GLib would refuse the file: a line that is neither a group, a
    /// `key=value` nor a comment, a key before any group, a bad group or key name, or an
    /// encoding other than UTF-8.
    init?(bytes: [UInt8]) {
        var current: String?
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var lineEnd = end
            if lineEnd > start, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            var first = start
            while first < lineEnd, Self.isSpace(bytes[first]) { first += 1 }
            defer { start = end + 1 }
            guard first < lineEnd, bytes[first] != UInt8(ascii: "#") else { continue }
            let line = bytes[first..<lineEnd]
            if let name = Self.groupName(line) {
                if startGroup == nil { startGroup = name }
                if groups[name] == nil { groups[name] = [:] }
                current = name
            } else if let equals = line.firstIndex(of: UInt8(ascii: "=")), equals > line.startIndex {
                guard let group = current else { return nil }
                var keyEnd = equals
                while keyEnd > line.startIndex, Self.isSpace(bytes[keyEnd - 1]) { keyEnd -= 1 }
                var valueStart = equals + 1
                while valueStart < lineEnd, Self.isSpace(bytes[valueStart]) { valueStart += 1 }
                let key = String(decoding: bytes[line.startIndex..<keyEnd], as: UTF8.self)
                guard Self.isKeyName(bytes[line.startIndex..<keyEnd]) else { return nil }
                let written = bytes[valueStart..<lineEnd]
                let value = String(decoding: written, as: UTF8.self)
                if group == startGroup, key == "Encoding", value.lowercased() != "utf-8" { return nil }
                groups[group, default: [:]][key] = Value(text: value, isUTF8: value.utf8.elementsEqual(written))
            } else {
                return nil
            }
        }
    }

    /// `[name]` (blanks after it allowed): the name, when it is a valid group name.
    private static func groupName(_ line: ArraySlice<UInt8>) -> String? {
        guard line.first == UInt8(ascii: "["), let close = line.firstIndex(of: UInt8(ascii: "]")) else { return nil }
        guard line[(close + 1)...].allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return nil }
        let name = line[(line.startIndex + 1)..<close]
        guard !name.isEmpty, !name.contains(where: { $0 == UInt8(ascii: "[") || $0 < 0x20 || $0 == 0x7f }) else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    /// GLib's key names: not empty, no blank at either end, no `[`, `]` or `=` but a final
    /// `[locale]` of letters, digits, `-`, `_`, `.` and `@`.
    private static func isKeyName(_ key: ArraySlice<UInt8>) -> Bool {
        guard let first = key.first, let last = key.last, first != UInt8(ascii: " ") else { return false }
        guard let open = key.firstIndex(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }) else { return last != UInt8(ascii: " ") }
        guard open > key.startIndex, key[open - 1] != UInt8(ascii: " "), key[open] == UInt8(ascii: "["), last == UInt8(ascii: "]") else { return false }
        let locale = key[(open + 1)..<(key.endIndex - 1)]
        // Bytes above 0x7f are letters of some script here: GLib asks Unicode, and the entries
        // that reach us are UTF-8.
        return locale.allSatisfy { $0 >= 0x80 || Self.isLocaleByte($0) }
    }

    private static func isLocaleByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "@")].contains(byte)
    }

    /// `g_ascii_isspace`.
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0d) }

    /// The value as written, before unescaping (invalid UTF-8 mended).
    func rawValue(_ key: String, in group: String = Self.entryGroup) -> String? { groups[group]?[key]?.text }

    /// The value as written when it is UTF-8.
    private func utf8Value(_ key: String, in group: String) -> String? {
        guard let value = groups[group]?[key], value.isUTF8 else { return nil }
        return value.text
    }

    /// The value unescaped, as `g_key_file_get_string` gives it to GIO; nil when missing or not UTF-8.
    func string(_ key: String, in group: String = Self.entryGroup) -> String? {
        utf8Value(key, in: group).flatMap { Self.unescape($0, splitting: false)?.first }
    }

    /// The `;`-separated list, each item unescaped (`\;` is a `;` inside an item); an empty item
    /// at the end does not count, and an unknown escape refuses the list, as in GLib.
    func stringList(_ key: String, in group: String = Self.entryGroup) -> [String]? {
        utf8Value(key, in: group).flatMap { Self.unescape($0, splitting: true) }
    }

    /// `true`/`1` or `false`/`0` (blanks after it allowed), as `g_key_file_get_boolean`; nil otherwise.
    func boolean(_ key: String, in group: String = Self.entryGroup) -> Bool? {
        guard var word = rawValue(key, in: group)?.utf8[...] else { return nil }
        while let last = word.last, Self.isSpace(last) { word = word.dropLast() }
        switch String(decoding: word, as: UTF8.self) {
        case "true", "1": return true
        case "false", "0": return false
        default: return nil
        }
    }

    /// The translation for the first of `languages` that has one (`Name[de_DE]`, …), else the
    /// untranslated value, as `g_key_file_get_locale_string`.
    func localeString(_ key: String, in group: String = Self.entryGroup, languages: [String]) -> String? {
        for language in languages {
            if let translated = string(key + "[" + language + "]", in: group) { return translated }
        }
        return string(key, in: group)
    }

    /// GLib's unescaping; with `splitting`, also the list's items.
    private static func unescape(_ raw: String, splitting: Bool) -> [String]? {
        var items: [[UInt8]] = []
        var item: [UInt8] = []
        var bytes = raw.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == UInt8(ascii: ";"), splitting {
                items.append(item)
                item = []
                continue
            }
            guard byte == UInt8(ascii: "\\") else { item.append(byte); continue }
            switch bytes.next() {
            case UInt8(ascii: "s"): item.append(UInt8(ascii: " "))
            case UInt8(ascii: "n"): item.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "t"): item.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "r"): item.append(UInt8(ascii: "\r"))
            case UInt8(ascii: "\\"): item.append(UInt8(ascii: "\\"))
            case UInt8(ascii: ";") where splitting: item.append(UInt8(ascii: ";"))
            // GLib 2.74 gives a string with an unknown escape as written (a backslash at the
            // end dropped), but refuses such a list.
            case let other? where !splitting: item += [UInt8(ascii: "\\"), other]
            case nil where !splitting: break
            default: return nil
            }
        }
        if !splitting || !item.isEmpty { items.append(item) }
        return items.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The languages a translation is looked up for, most wanted first, as GLib's
    /// `g_get_language_names`: `LANGUAGE` (a `:` list), else `LC_ALL`, `LC_MESSAGES` or `LANG`,
    /// each with its variants (`de_DE.UTF-8@euro` … `de`), then `C`.
    static func languageNames(_ value: (String) -> String?) -> [String] {
        var chosen = "C"
        for name in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] {
            if let set = value(name), !set.isEmpty { chosen = set; break }
        }
        var names: [String] = []
        for locale in chosen.split(separator: ":") {
            for variant in localeVariants(String(locale)) where !names.contains(variant) { names.append(variant) }
        }
        if !names.contains("C") { names.append("C") }
        return names
    }

    /// `language[_territory][.codeset][@modifier]`, then the same without each part, in GLib's order.
    static func localeVariants(_ locale: String) -> [String] {
        var rest = Substring(locale)
        var modifier = "", codeset = "", territory = ""
        if let at = rest.firstIndex(of: "@") { modifier = String(rest[at...]); rest = rest[..<at] }
        if let dot = rest.firstIndex(of: ".") { codeset = String(rest[dot...]); rest = rest[..<dot] }
        if let underscore = rest.firstIndex(of: "_") { territory = String(rest[underscore...]); rest = rest[..<underscore] }
        let language = String(rest)
        // Bits: 1 codeset, 2 territory, 4 modifier; only the parts present, most specific first.
        let mask = (codeset.isEmpty ? 0 : 1) | (territory.isEmpty ? 0 : 2) | (modifier.isEmpty ? 0 : 4)
        return (0...mask).reversed().filter { $0 & ~mask == 0 }.map { parts in
            language + (parts & 2 != 0 ? territory : "") + (parts & 1 != 0 ? codeset : "") + (parts & 4 != 0 ? modifier : "")
        }
    }
}

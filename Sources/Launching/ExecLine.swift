import Platform

/// Why an `Exec` line could not be used.
public enum ExecLineError: Error, Equatable, CustomStringConvertible {
    /// The entry has no `Exec` key (or it is empty).
    case missing(entry: String)
    /// `Exec` is not valid quoting; carries GLib's message.
    case unparsable(entry: String, message: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .missing(let entry): return "\(entry): no Exec line"
        case .unparsable(let entry, let message): return "\(entry): bad Exec line: \(message)"
        }
    }
}

/// Turns a desktop entry's `Exec` value into a final argv, following the Desktop Entry
/// Specification's field codes. The line is split into words first (as GLib's `g_shell_parse_argv`
/// does: `ShellWords`, which only tokenizes and runs nothing), then codes are expanded per word, so a URL is always
/// exactly one argv element whatever it contains.
public enum ExecLine {
    /// The field codes that take the launched URL (we pass a URL, never a file list).
    static let urlCodes: Set<Character> = ["u", "U", "f", "F"]
    /// Deprecated codes the spec says to drop.
    static let deprecatedCodes: Set<Character> = ["d", "D", "n", "N", "v", "m"]

    /// Splits an `Exec` value into words with shell-style quoting (no expansion, no shell).
    public static func tokenize(_ exec: String, entry: String) throws -> [String] {
        switch ShellWords.split(exec) {
        case .success(let words): return words
        case .failure(.empty): throw ExecLineError.missing(entry: entry)
        case .failure(let failure): throw ExecLineError.unparsable(entry: entry, message: failure.message)
        }
    }

    /// Expands field codes in `words`: the first of `%u %U %f %F` becomes `url` (a word that is
    /// only the code becomes exactly one element), `%i` becomes `--icon ICON` (or nothing), `%c`
    /// the name, `%k` the entry's path, `%%` a percent sign; deprecated and unknown codes are
    /// dropped. The spec allows one URL code per command line; a line with more is invalid, and
    /// the later ones expand to nothing (as GLib does when it has one URI), so the link arrives
    /// once, not once per code. When no URL code occurs and `appendURLIfMissing` is set, `url` is
    /// appended.
    public static func expand(_ words: [String], url: String?, icon: String? = nil, name: String? = nil,
                              entryPath: String? = nil, appendURLIfMissing: Bool = true) -> [String] {
        var result: [String] = []
        var sawURLCode = false
        for word in words {
            if word.count == 2, word.first == "%", let code = word.last {
                if urlCodes.contains(code) {
                    if !sawURLCode, let url { result.append(url) }
                    sawURLCode = true
                    continue
                }
                if code == "i" {
                    if let icon, !icon.isEmpty { result += ["--icon", icon] }
                    continue
                }
                if deprecatedCodes.contains(code) { continue }
            }
            var expanded = ""
            var iterator = word.makeIterator()
            while let character = iterator.next() {
                guard character == "%" else { expanded.append(character); continue }
                guard let code = iterator.next() else { break }
                switch code {
                case "%": expanded.append("%")
                case "c": expanded += name ?? ""
                case "k": expanded += entryPath ?? ""
                case "i": expanded += icon ?? ""
                case _ where urlCodes.contains(code):
                    if !sawURLCode { expanded += url ?? "" }
                    sawURLCode = true
                default: break
                }
            }
            result.append(expanded)
        }
        if !sawURLCode, appendURLIfMissing, let url { result.append(url) }
        return result
    }

    /// The part of an `Exec` that names the program, for named apps whose `args` replace the
    /// entry's arguments: the first word, extended over the launch wrappers desktops generate:
    /// `env [VAR=value...] program` and `flatpak run [--options...] APP.ID`.
    public static func programPrefix(_ words: [String]) -> [String] {
        guard let first = words.first else { return [] }
        let base = first.split(separator: "/").last.map(String.init) ?? first
        var end = 1
        if base == "env" {
            while end < words.count, words[end].hasPrefix("-") || words[end].contains("=") { end += 1 }
            end = min(end + 1, words.count)
        } else if base == "flatpak", words.count > 1, words[1] == "run" {
            end = 2
            while end < words.count, words[end].hasPrefix("-") { end += 1 }
            end = min(end + 1, words.count)
        }
        return Array(words[..<end])
    }

    /// `words` with `arguments` inserted before the URL: before the first word holding a URL
    /// field code, or before the `@@u`/`@@` that opens Flatpak's forwarded-file list in front of
    /// it (`flatpak run … APP --profile DIR @@u %u @@`); at the end when there is no URL code.
    /// A `%` in an argument is escaped so it stays literal when the codes are expanded.
    public static func inserting(_ arguments: [String], beforeURLIn words: [String]) -> [String] {
        let escaped = arguments.map { $0.replacingEvery("%", with: "%%") }
        guard var position = words.firstIndex(where: { !urlCodes.isDisjoint(with: fieldCodes(in: $0)) }) else {
            return words + escaped
        }
        if position > 0, words[position - 1] == "@@u" || words[position - 1] == "@@" { position -= 1 }
        return Array(words[..<position]) + escaped + Array(words[position...])
    }

    /// The URL field codes (`%u %U %f %F`) in a command line, in order: more than one makes the
    /// line invalid under the Desktop Entry spec (`openurl check` says so).
    public static func urlFieldCodes(in words: [String]) -> [String] {
        words.flatMap { fieldCodes(in: $0).filter(urlCodes.contains).map { "%\($0)" } }
    }

    /// The field-code letters used in one word (`%%` is an escaped percent, not a code).
    static func fieldCodes(in word: String) -> [Character] {
        var codes: [Character] = []
        var iterator = word.makeIterator()
        while let character = iterator.next() {
            guard character == "%", let code = iterator.next() else { continue }
            if code != "%" { codes.append(code) }
        }
        return codes
    }
}

extension DesktopEntry {
    /// What is wrong with the entry's command lines under the Desktop Entry spec, one sentence
    /// each: more than one URL field code in `Exec` or an action's `Exec` (the link is still
    /// passed once, at the first).
    public var execProblems: [String] {
        let lines = [("Exec", exec)] + actions.map { ("the \($0.id) action's Exec", $0.exec) }
        return lines.compactMap { key, exec in
            guard let exec, let words = try? ExecLine.tokenize(exec, entry: id) else { return nil }
            let codes = ExecLine.urlFieldCodes(in: words)
            guard codes.count > 1 else { return nil }
            return "\(id) (\(path)): \(key) has \(codes.count) URL field codes (\(codes.joined(separator: " "))), "
                + "where the Desktop Entry spec allows one; the link is passed once, at the first"
        }
    }
}

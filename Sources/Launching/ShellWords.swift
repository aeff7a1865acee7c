/// Splits a desktop entry's `Exec` value into words as GLib's `g_shell_parse_argv` does, which is
/// what GIO, `gio open` and the desktops that use GLib run: blanks separate words; single quotes
/// keep everything; double quotes keep everything but `\"`, `\\`, `` \` ``, `\$` and a
/// backslash-newline; an unquoted backslash keeps the next character; a `#` at the start of a
/// word starts a comment to the end of the line. Nothing is expanded and nothing runs. Ours, not
/// GLib's, so the daemon does not map GLib at start; `GIOOracleTests` holds it to GLib's.
enum ShellWords {
    /// Why a line gives no words.
    enum Failure: Error, Equatable {
        /// Only blanks, or nothing.
        case empty
        /// A quote (`'` or `"`) opened and never closed.
        case unmatchedQuote(Character)
        /// The line ends with an unquoted backslash.
        case trailingBackslash

        /// GLib's message for the same failure.
        var message: String {
            switch self {
            case .empty: return "Text was empty (or contained only whitespace)"
            case .unmatchedQuote(let quote): return "Text ended before matching quote was found for \(quote)."
            case .trailingBackslash: return "Text ended just after a “\\” character."
            }
        }
    }

    /// The words of `line`, or why there are none.
    static func split(_ line: String) -> Result<[String], Failure> {
        let bytes = Array(line.utf8)
        var words: [[UInt8]] = []
        var word: [UInt8]?
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"):
                if let finished = word { words.append(finished); word = nil }
                index += 1
            case UInt8(ascii: "#") where index == 0 || bytes[index - 1] == UInt8(ascii: " ") || bytes[index - 1] == UInt8(ascii: "\n"):
                // As GLib: the byte before counts, even an escaped one, and not a tab; the
                // comment takes its newline with it without ending a word.
                // A `#` that is the line's last byte is, to GLib, a quote never closed.
                guard index + 1 < bytes.count else { return .failure(.unmatchedQuote("#")) }
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                index += 1
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { return .failure(.trailingBackslash) }
                // A backslash-newline outside quotes is removed, and so does not end the word.
                if bytes[index] != UInt8(ascii: "\n") { word = (word ?? []) + [bytes[index]] }
                index += 1
            case UInt8(ascii: "'"):
                var text = word ?? []
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "'") { text.append(bytes[index]); index += 1 }
                guard index < bytes.count else { return .failure(.unmatchedQuote("'")) }
                word = text
                index += 1
            case UInt8(ascii: "\""):
                var text = word ?? []
                index += 1
                var closed = false
                while index < bytes.count {
                    let inner = bytes[index]
                    if inner == UInt8(ascii: "\"") { closed = true; index += 1; break }
                    if inner == UInt8(ascii: "\\"), index + 1 < bytes.count,
                       [UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "$"), UInt8(ascii: "\n")].contains(bytes[index + 1]) {
                        text.append(bytes[index + 1])
                        index += 2
                        continue
                    }
                    text.append(inner)
                    index += 1
                }
                guard closed else { return .failure(.unmatchedQuote("\"")) }
                word = text
            default:
                word = (word ?? []) + [byte]
                index += 1
            }
        }
        if let finished = word { words.append(finished) }
        guard !words.isEmpty else { return .failure(.empty) }
        return .success(words.map { String(decoding: $0, as: UTF8.self) })
    }
}

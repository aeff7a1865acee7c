#if canImport(Glibc)
import Glibc
#endif

/// Log lines on stderr; with `<N>` priority prefixes when stderr is the journal, so journald
/// files them at the right level.
enum Log {
    enum Level: Int { case error = 3, warning = 4, info = 6, debug = 7 }

    static let toJournal = getenv("JOURNAL_STREAM") != nil

    static func write(_ level: Level, _ message: String) {
        let text = message.split(separator: "\n", omittingEmptySubsequences: false)
            .map { (toJournal ? "<\(level.rawValue)>" : "openurld: ") + $0 }.joined(separator: "\n") + "\n"
        var line = text
        line.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, stderr) }
    }

    /// `--verbose`: log copied text and whole mailto links. Off by default, so the journal holds
    /// no clipboard contents or mail bodies.
    nonisolated(unsafe) static var verbose = false

    /// A URL as the log shows it: a mailto's headers and body (`?subject=…&body=…`) are left out
    /// unless `--verbose`.
    /// A URL longer than 1 KiB is cut, so one link cannot flood the journal.
    static func shown(_ url: String) -> String {
        var shown = url
        if !verbose, url.prefix(7).lowercased() == "mailto:", let question = url.firstIndex(of: "?") { shown = String(url[..<question]) + "?…" }
        guard shown.utf8.count > 1024 else { return shown }
        return String(decoding: shown.utf8.prefix(256), as: UTF8.self) + "… (\(url.utf8.count) bytes)"
    }

    /// Copied text as the log shows it: its length only, unless `--verbose`.
    static func shown(copied text: String) -> String {
        verbose ? text : "\(text.count) characters"
    }

    static func error(_ message: String) { write(.error, message) }
    static func warning(_ message: String) { write(.warning, message) }
    static func info(_ message: String) { write(.info, message) }
}

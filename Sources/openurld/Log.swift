#if canImport(Glibc)
import Glibc
#endif

/// Log lines on stderr; with `<N>` priority prefixes when stderr is the journal, so journald
/// files them at the right level.
enum Log {
    enum Level: Int { case error = 3, warning = 4, info = 6, debug = 7 }

    static let toJournal = getenv("JOURNAL_STREAM") != nil

    /// The longest message written; a 128 KiB URL in every line would flood the journal (and
    /// block the daemon on a full stderr pipe).
    static let maximumMessageBytes = 4096

    static func write(_ level: Level, _ message: String) {
        var message = message
        if message.utf8.count > maximumMessageBytes {
            let total = message.utf8.count
            message = String(decoding: message.utf8.prefix(maximumMessageBytes), as: UTF8.self) + "… (\(total) bytes)"
        }
        let text = message.split(separator: "\n", omittingEmptySubsequences: false)
            .map { (toJournal ? "<\(level.rawValue)>" : "openurld: ") + $0 }.joined(separator: "\n") + "\n"
        var line = text
        line.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, stderr) }
    }

    static func error(_ message: String) { write(.error, message) }
    static func warning(_ message: String) { write(.warning, message) }
    static func info(_ message: String) { write(.info, message) }
}

/// Log lines on stderr; with `<N>` priority prefixes when stderr is the journal, so journald
/// files them at the right level. With `--log FILE`, or when stderr is not the journal and not a
/// terminal (a plain dbus-daemon started us), lines also go to a file a person can read.
public enum Log {
    /// A syslog priority.
    public enum Level: Int { case error = 3, warning = 4, info = 6, debug = 7 }

    /// True when stderr is the journal (systemd sets `JOURNAL_STREAM`).
    public static let toJournal = Environment.value("JOURNAL_STREAM") != nil
    /// The log file, once opened (appended to, created 0600); each message is one write.
    nonisolated(unsafe) public private(set) static var file: AppendingFile?
    nonisolated(unsafe) private static var toStderr = true
    /// The log file's size as far as this process knows (its own writes added to the size it had).
    nonisolated(unsafe) private static var fileBytes = 0

    /// The log file is rotated once it passes this many bytes: it becomes `FILE.1` (replacing
    /// the previous one) and a new file is started, so the log never takes more than about
    /// twice this. 1 MiB holds some 10,000 clicks.
    nonisolated(unsafe) public static var maximumFileBytes = 1 << 20

    /// Whether the file is openurld's own (the state directory's `log`), opened as
    /// `AppendingFile(own:)` opens: never through a link, never another user's file.
    nonisolated(unsafe) private static var fileIsOwn = false
    /// Why the own log file was refused (a link or a file not openurld's own in its place), for
    /// the daemon to say in a notification; the lines then go to stderr alone.
    nonisolated(unsafe) public private(set) static var refusedFile: SystemError?

    /// Sends log lines to `path` (its directory is created); `alsoStderr` keeps stderr too.
    /// `own`: the file is openurld's own (see `fileIsOwn`); a file named by `--log` is the
    /// user's choice and is followed.
    public static func useFile(_ path: String, alsoStderr: Bool = false, own: Bool = false) {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try? FileSystem.createDirectory(String(path[..<slash]), mode: 0o700, intermediates: true)
        }
        do {
            let opened = own ? try AppendingFile(own: path) : try AppendingFile(path, mode: 0o600)
            file = opened
            fileIsOwn = own
            fileBytes = (try? opened.status().size) ?? 0
        } catch {
            if error.isRefused { refusedFile = error }
            StandardStream.error.write("openurld: cannot open log file \(path): \(error.message); logging to stderr\n")
            return
        }
        toStderr = alsoStderr
    }

    /// Sends log lines to stderr alone again (the file, if any, is no longer written).
    public static func useStandardError() {
        file = nil
        fileIsOwn = false
        fileBytes = 0
        toStderr = true
    }

    /// Moves a full log file to `FILE.1` and starts a new one (the same mode); on failure the
    /// old file is kept and written to.
    private static func rotate(_ current: AppendingFile) {
        let path = current.path
        // Another openurld (a --replace) may have rotated it already: then only reopen.
        if (try? FileSystem.status(path).size) ?? 0 >= maximumFileBytes {
            // Cannot rename (a read-only directory): keep writing, and try again a file's worth later.
            guard (try? FileSystem.rename(path, to: path + ".1")) != nil else { fileBytes = 0; return }
        }
        guard let next = try? (fileIsOwn ? AppendingFile(own: path) : AppendingFile(path, mode: 0o600)) else { fileBytes = 0; return }
        try? next.setPermissions(0o600)
        file = next
        fileBytes = (try? next.status().size) ?? 0
    }

    /// The longest message written; a 128 KiB URL in every line would flood the journal (and
    /// block the daemon on a full stderr pipe).
    public static let maximumMessageBytes = 4096

    /// Writes one message at `level`.
    public static func write(_ level: Level, _ message: String) {
        var message = message
        if message.utf8.count > maximumMessageBytes {
            let total = message.utf8.count
            message = String(decoding: message.utf8.prefix(maximumMessageBytes), as: UTF8.self) + "… (\(total) bytes)"
        }
        // By bytes: a split on Characters cost ~23k instructions a line, one line per click.
        let lines = message.utf8.contains(UInt8(ascii: "\n"))
            ? message.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
            : [Substring(message)]
        if toStderr || file == nil {
            StandardStream.error.write(lines.map { (toJournal ? "<\(level.rawValue)>" : "openurld: ") + $0 }.joined(separator: "\n") + "\n")
        }
        if let current = file {
            let stamp = timestamp()
            let text = lines.map { "\(stamp) \(level.name): " + $0 }.joined(separator: "\n") + "\n"
            if fileBytes + text.utf8.count > maximumFileBytes { rotate(current) }
            guard let file else { return }
            if (try? file.write(text)) != nil { fileBytes += text.utf8.count }
        }
    }

    /// Local time as `2026-12-01 10:42:07`.
    private static func timestamp() -> String {
        let now = CalendarTime.local(WallClock.now().seconds)
        return now.dateText + " " + now.timeText
    }

    /// `--verbose`: log copied text and whole mailto links. Off by default, so the journal holds
    /// no clipboard contents or mail bodies.
    nonisolated(unsafe) public static var verbose = false

    /// A URL as the log shows it: a mailto's headers and body (`?subject=…&body=…`) are left out
    /// unless `--verbose`.
    /// A URL longer than 1 KiB is cut, so one link cannot flood the journal.
    public static func shown(_ url: String) -> String {
        var shown = url
        if !verbose, url.prefix(7).lowercased() == "mailto:", let question = url.firstIndex(of: "?") { shown = String(url[..<question]) + "?…" }
        return Text.shortened(shown)
    }

    /// Copied text as the log shows it: its length only, unless `--verbose`.
    public static func shown(copied text: String) -> String {
        verbose ? text : "\(text.count) characters"
    }

    /// Logs an error.
    public static func error(_ message: String) { write(.error, message) }
    /// Logs a warning.
    public static func warning(_ message: String) { write(.warning, message) }
    /// Logs information.
    public static func info(_ message: String) { write(.info, message) }
}

extension Log.Level {
    /// The level as the log file writes it.
    public var name: String {
        switch self {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "info"
        case .debug: return "debug"
        }
    }
}

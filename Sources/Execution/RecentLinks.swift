import DBus
import Platform
import Routing

/// The last decisions, newest last, in memory and in `$XDG_STATE_HOME/openurld/recent.tsv`, so
/// "that opened in the wrong browser" can be fixed with `openurl reopen N`.
///
/// The file is a log: each new link and each later outcome (an ask answered) is one appended
/// line, and a line for an id replaces the earlier one when read. It is bounded in bytes: a
/// stored URL is cut at `maximumURLBytes`, the list keeps at most `capacity` entries and
/// `maximumBytes` of text, and once the file is twice that it is rewritten with the list alone.
/// It is read on first use, not at start, and created 0600.
public final class RecentLinks {
    /// One remembered decision.
    public struct Entry: Sendable {
        public var id: UInt32
        public var time: Double
        public var url: String
        public var finalURL: String
        public var decision: String
        public var target: String
        public var rule: String
        public var opener: String
        public var outcome: String

        /// The line's size, for the byte bound.
        var bytes: Int { url.utf8.count + finalURL.utf8.count + target.utf8.count + rule.utf8.count + opener.utf8.count + outcome.utf8.count + 40 }
    }

    /// At most this many bytes of a URL are kept (longer ones end in `…`; reopening them fails).
    public static let maximumURLBytes = 8192
    /// At most this many bytes of entries are kept; the file may grow to twice this.
    static let maximumBytes = 256 * 1024
    /// How many entries are kept: `[settings] recent`; 0 keeps nothing and writes nothing.
    public var capacity = 200 {
        didSet { if capacity != oldValue { trim(); if capacity == 0 { clear() } } }
    }

    /// Every kept entry, once the file has been read (`Recent`, `Reopen`, a compaction).
    private var loaded: [Entry]?
    /// Entries added since start while the file is still unread: a click never waits for it.
    private var added: [Entry] = []
    /// The next id; nil until the file's last line has been looked at.
    private var nextID: UInt32?
    private var totalBytes = 0
    private let path: String?
    /// Lines waiting to be appended (the daemon batches writes off the click path).
    private var pendingLines: [String] = []
    /// Where a save is scheduled a moment after lines start waiting; without one they are written at once.
    private let loop: EventLoop?
    private var saveScheduled = false

    /// Remembers links in `path` (nil: in memory only), writing new lines within a second on
    /// `loop` (at once without one). Nothing is read until first use.
    public init(path: String?, loop: EventLoop? = nil) {
        self.path = path
        self.loop = loop
    }

    /// The entries, oldest first (the file is read on first use).
    public var entries: [Entry] {
        if let loaded { return loaded }
        return load()
    }

    /// Remembers a decision and returns its id (0 when `recent = 0`). Reads at most the file's
    /// last line (for the next id), never the whole file.
    @discardableResult
    public func add(_ decision: Decision, opener: Opener?, outcome: RouteOutcome) -> UInt32 {
        guard capacity > 0 else { return 0 }
        let id = nextID ?? lastIDInFile() &+ 1
        nextID = id &+ 1
        let entry = Entry(
            id: id, time: WallClock.secondsSinceEpoch(), url: Self.bounded(decision.url), finalURL: Self.bounded(decision.finalURL),
            decision: decision.kind.rawValue, target: decision.target?.description ?? "",
            rule: decision.rule?.description ?? "", opener: opener?.names.first ?? "", outcome: outcome.description)
        if loaded != nil {
            loaded?.append(entry)
            totalBytes += entry.bytes
            trim()
        } else {
            added.append(entry)
            if added.count > capacity { added.removeFirst(added.count - capacity) }
        }
        append(entry)
        return entry.id
    }

    /// Updates the outcome of an entry (an `ask` answered later).
    public func update(id: UInt32, outcome: RouteOutcome, decision: Decision) {
        guard capacity > 0 else { return }
        func change(_ entry: inout Entry) {
            entry.outcome = outcome.description
            entry.decision = decision.kind.rawValue
            entry.target = decision.target?.description ?? ""
            append(entry)
        }
        if loaded != nil, let index = loaded?.firstIndex(where: { $0.id == id }) {
            change(&loaded![index])
        } else if let index = added.firstIndex(where: { $0.id == id }) {
            change(&added[index])
        }
    }

    /// The entry with `id`, if still kept.
    public func entry(id: UInt32) -> Entry? { entries.first { $0.id == id } }

    /// Forgets every entry and removes the file.
    public func clear() {
        loaded = []
        added = []
        totalBytes = 0
        pendingLines = []
        if let path { try? FileSystem.remove(path) }
    }

    /// Appends the waiting lines; rewrites the file with the kept entries alone once it has
    /// grown past twice the byte bound (reading it first if it was not read yet).
    public func save() {
        guard let path, !pendingLines.isEmpty else { return }
        let text = pendingLines.joined()
        pendingLines = []
        try? FileSystem.createDirectory(Path.parent(path), mode: 0o700, intermediates: true)
        let size: Int
        do {
            let file = try AppendingFile(path, mode: 0o600)
            try? file.setPermissions(0o600)
            do { try file.write(text) } catch { Log.warning("cannot write recent links to \(path): \(error.message)") }
            size = (try? file.status())?.size ?? 0
        } catch {
            return Log.warning("cannot write recent links to \(path): \(error.message)")
        }
        guard size > 2 * Self.maximumBytes else { return }
        if loaded == nil { _ = load() }
        rewrite(path)
    }

    private func append(_ entry: Entry) {
        guard path != nil else { return }
        pendingLines.append(Self.line(entry))
        guard let loop else { return save() }
        if !saveScheduled {
            saveScheduled = true
            _ = loop.addTimer(after: 1) { [weak self] in
                self?.saveScheduled = false
                self?.save()
            }
        }
    }

    /// Drops the oldest entries beyond `capacity` or the byte bound.
    private func trim() {
        guard var list = loaded else { return }
        var drop = max(0, list.count - capacity)
        var bytes = totalBytes - list.prefix(drop).reduce(0) { $0 + $1.bytes }
        while drop < list.count, bytes > Self.maximumBytes {
            bytes -= list[drop].bytes
            drop += 1
        }
        guard drop > 0 else { return }
        list.removeFirst(drop)
        totalBytes = bytes
        loaded = list
    }

    /// Writes the kept entries to a temporary file (0600) and renames it over the old one.
    private func rewrite(_ path: String) {
        let text = (loaded ?? []).map(Self.line).joined()
        do {
            try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o600, temporary: path + ".tmp")
        } catch {
            Log.warning("cannot rewrite \(path): \(error)")
        }
    }

    /// Reads the file (with the lines still waiting, written first), keeps the bounds, and
    /// from then on works on the full list.
    private func load() -> [Entry] {
        save()
        var list: [Entry] = []
        if capacity > 0, let path, let data = FileSystem.contents(path) {
            var byID: [UInt32: Int] = [:]
            for line in data.split(separator: UInt8(ascii: "\n")) {
                let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map {
                    String(tabSeparatedCell: String(decoding: $0, as: UTF8.self))
                }
                guard fields.count == 9, let id = UInt32(fields[0]), let time = Double(fields[1]) else { continue }
                let entry = Entry(id: id, time: time, url: Self.bounded(fields[2]), finalURL: Self.bounded(fields[3]), decision: fields[4],
                                  target: fields[5], rule: fields[6], opener: fields[7], outcome: fields[8])
                if let index = byID[id] { list[index] = entry } else { byID[id] = list.count; list.append(entry) }
            }
        } else if path == nil {
            list = added
        }
        added = []
        if nextID == nil { nextID = (list.map(\.id).max() ?? 0) &+ 1 }
        totalBytes = list.reduce(0) { $0 + $1.bytes }
        loaded = list
        trim()
        return loaded ?? []
    }

    /// The id on the file's last line (ids only grow through the file), 0 without one: a read of
    /// the last 64 KiB, which holds at least one whole line (a line is at most ~17 KiB).
    private func lastIDInFile() -> UInt32 {
        guard let path, let tail = FileSystem.tail(path, maximum: 65536), !tail.isEmpty else { return 0 }
        let lines = tail.split(separator: UInt8(ascii: "\n"))
        // From the end, the first line that starts with an id (the first one read may be cut).
        for line in lines.reversed() {
            let field = line.prefix { $0 != UInt8(ascii: "\t") }
            if let id = UInt32(String(decoding: field, as: UTF8.self)), field.count < line.count { return id }
        }
        return 0
    }

    private static func bounded(_ url: String) -> String {
        guard url.utf8.count > maximumURLBytes else { return url }
        return String(decoding: url.utf8.prefix(maximumURLBytes - 3), as: UTF8.self) + "…"
    }

    private static func line(_ entry: Entry) -> String {
        ["\(entry.id)", "\(entry.time)", entry.url, entry.finalURL, entry.decision, entry.target, entry.rule, entry.opener, entry.outcome]
            .map(\.tabSeparatedCell).joined(separator: "\t") + "\n"
    }
}

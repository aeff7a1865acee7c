import DBus
import Platform
import RoutingCore

/// The last decisions, newest last, in memory and in `$XDG_STATE_HOME/openurld/recent.tsv`, so
/// "that opened in the wrong browser" can be fixed with `openurl reopen N`.
///
/// The file is a log: each new link and each later outcome (an ask answered) is one appended
/// line, written (one `write`, see `RecordFile`) before the click's reply is sent, and a line for
/// an id replaces the earlier one when read. An id names its link for good: ids come from their
/// own counter (`IDCounter`, `next-id`), which no clear resets and no file's tail decides, so
/// an id is never given twice. It is bounded in bytes: a stored
/// URL is cut at `maximumURLBytes`, the list keeps at most `capacity` decisions and `maximumBytes`
/// of text (a question still waiting for its answer is kept beside them, never dropped), and once the file is twice
/// that it is rewritten with the list alone. It is read on first use (at start only its ids are
/// scanned, for the counter), and created 0600. When the disk is full, or a link or a file not
/// openurld's own is in its place, the lines wait in memory (and `Recent` still shows them) and
/// are written when the file can be written again.
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
        /// What became of it, written to the file as `description` and read back by `Outcome(recorded:)`.
        public var outcome: Outcome

        /// True when the safety policy held the link (reopening it releases the hold).
        public var wasHeld: Bool {
            if case .held = outcome { return true }
            return false
        }

        /// The line's size, for the byte bound.
        var bytes: Int { url.utf8.count + finalURL.utf8.count + target.utf8.count + rule.utf8.count + opener.utf8.count + outcome.description.utf8.count + 40 }
    }

    /// At most this many bytes of a URL are kept (longer ones end in `…`; reopening them fails).
    public static let maximumURLBytes = 8192
    /// No line we write comes near this (two bounded URLs and short fields): a longer one is not ours.
    static let maximumLineBytes = 1 << 20
    /// Seconds after the line that made the file due before it is rewritten: the reply goes first.
    static let compactionDelay = 1.0
    /// At most this many bytes of entries are kept; the file may grow to twice this.
    static let maximumBytes = 256 * 1024
    /// `openurl doctor`'s probes kept (a run sends about 15), beside `capacity`'s clicks: probes
    /// never push a click out of the list.
    public static let maximumProbes = 64
    /// How many entries are kept: `[settings] recent`; 0 keeps nothing and writes nothing.
    public var capacity = 200 {
        didSet { if capacity != oldValue { trim(); if capacity == 0 { clear() } } }
    }
    /// A click trims the list only once it is this many entries (or an eighth of `maximumBytes`)
    /// beyond its bounds, so it does not count and shift the whole list each time; whatever reads
    /// the list (`entries`, a compaction) trims it to the bounds first.
    static let trimSlack = 32
    /// True while the list may hold more than its bounds.
    private var trimDue = false

    /// Every kept entry, once the file has been read (`Recent`, `Reopen`, a compaction).
    private var loaded: [Entry]?
    /// Entries added since start while the file is still unread: a click never waits for it.
    private var added: [Entry] = []
    /// Where ids come from (also when `recent = 0`: a question needs its id to be kept pending).
    public let ids: IDCounter
    private var totalBytes = 0
    private let path: String?
    /// The file's lines, written as they come (nil: in memory only).
    private let file: RecordFile?
    /// Where a due compaction runs once the work in hand is done (nil: at once).
    private let loop: EventLoop?
    private var compactionDue = false
    /// The entry whose first line waits for its outcome's (`add(writing: false)`).
    private var waitingLine: UInt32?

    /// Remembers links in `path` (nil: in memory only), each line written at once and, when the
    /// disk refuses it, again every few seconds on `loop`; `reported` hears when writing starts
    /// failing (why) and when it works again (nil). Ids come from `ids`; without one, from a
    /// counter in memory that starts above the highest id in the file. Nothing is read until
    /// first use.
    public init(path: String?, ids: IDCounter? = nil, loop: EventLoop? = nil, reported: @escaping (SystemError?) -> Void = { _ in }) {
        self.path = path
        self.loop = loop
        file = path.map { RecordFile(path: $0, loop: loop, reported: reported) }
        self.ids = ids ?? IDCounter(path: nil) { path.map(Self.highestID(inFile:)) ?? 0 }
        if ids == nil { self.ids.inUse = { [weak self] id in self?.holds(id) ?? false } }
    }

    /// Why the file cannot be written now, nil while it can.
    public var writeFailure: String? { file?.failure }

    /// The entries, oldest first (the file is read on first use).
    public var entries: [Entry] {
        guard loaded != nil else { return load() }
        if trimDue { trim() }
        return loaded ?? []
    }

    /// Remembers a decision, writes its line, and returns its id; with `recent = 0` only the id
    /// is given (a question is kept pending under it), nothing is remembered. Never reads the file.
    /// With `writing: false` the line waits (`writeWaitingLine`) for the outcome: a click whose
    /// effect is over before its reply then writes one line, its last, instead of two.
    @discardableResult
    public func add(_ decision: Decision, opener: Opener?, outcome: Outcome, writing: Bool = true) -> UInt32 {
        writeWaitingLine()
        let id = ids.take()
        guard capacity > 0 else { return id }
        let entry = Entry(
            id: id, time: WallClock.secondsSinceEpoch(), url: Self.bounded(decision.url), finalURL: Self.bounded(decision.finalURL),
            decision: decision.kind.rawValue, target: decision.target?.description ?? "",
            rule: decision.rule?.description ?? "", opener: opener?.names.first ?? "", outcome: outcome)
        if loaded != nil {
            loaded?.append(entry)
            totalBytes += entry.bytes
            if (loaded?.count ?? 0) > capacity + Self.trimSlack || totalBytes > Self.maximumBytes + Self.maximumBytes / 8 { trim() } else { trimDue = true }
        } else {
            added.append(entry)
            if added.count > capacity + Self.trimSlack { trimAdded() } else { trimDue = true }
        }
        if writing { append(entry) } else { waitingLine = entry.id }
        return entry.id
    }

    /// Writes the line `add(writing: false)` left waiting, if its entry has had no other since.
    public func writeWaitingLine() {
        guard let id = waitingLine else { return }
        waitingLine = nil
        if let entry = loaded?.last(where: { $0.id == id }) ?? added.last(where: { $0.id == id }) { append(entry) }
    }

    /// Updates the outcome of an entry (an `ask` answered later). An entry the list no longer
    /// holds in memory is looked for in the file; one found nowhere (its line was never written)
    /// is remembered anew, so an outcome is never lost.
    public func update(id: UInt32, outcome: Outcome, decision: Decision) {
        guard capacity > 0, id != 0 else { return }
        // The line written below says all the waiting one would have said.
        if waitingLine == id { waitingLine = nil } else { writeWaitingLine() }
        func changed(_ entry: Entry) -> Entry {
            var entry = entry
            entry.outcome = outcome
            entry.decision = decision.kind.rawValue
            entry.target = decision.target?.description ?? ""
            return entry
        }
        // From the end: the entry answered is nearly always the newest.
        let inAdded = loaded == nil ? added.lastIndex(where: { $0.id == id }) : nil
        if loaded == nil, inAdded == nil { _ = load() }
        let written: Entry
        if let index = loaded?.lastIndex(where: { $0.id == id }), let old = loaded?[index] {
            written = changed(old)
            loaded?[index] = written
        } else if let index = inAdded ?? added.lastIndex(where: { $0.id == id }) {
            written = changed(added[index])
            added[index] = written
        } else {
            written = changed(Entry(
                id: id, time: WallClock.secondsSinceEpoch(), url: Self.bounded(decision.url), finalURL: Self.bounded(decision.finalURL),
                decision: "", target: "", rule: decision.rule?.description ?? "", opener: "", outcome: outcome))
            loaded?.append(written)
            totalBytes += written.bytes
        }
        // Written once the list is settled: a write that makes the file due for its rewrite reads it.
        append(written)
    }

    /// The entry with `id`, if still kept.
    public func entry(id: UInt32) -> Entry? { entries.first { $0.id == id } }

    /// Whether an entry holds `id` (reads the file if not read yet): an id the counter must not
    /// give again once it wraps.
    public func holds(_ id: UInt32) -> Bool {
        if trimDue { trim() }
        return added.contains { $0.id == id } || entries.contains { $0.id == id }
    }

    /// Forgets every entry and removes the file; the id counter goes on (ids are never given twice).
    public func clear() {
        waitingLine = nil
        loaded = []
        added = []
        totalBytes = 0
        file?.discardUnwritten()
        file?.removeFile()
    }

    /// Writes any lines still waiting (a full disk); true when none wait.
    @discardableResult
    public func save() -> Bool {
        writeWaitingLine()
        return file?.flush() != nil || file == nil
    }

    private func append(_ entry: Entry) {
        guard let file, let size = file.append(Self.line(entry)) else { return }
        guard size > 2 * Self.maximumBytes, !compactionDue else { return }
        // Reading a big file back is slow (~46 ms a MB): on the loop it waits until the click in
        // hand is launched and answered, so a client never gives up and opens the link too.
        guard let loop else { return compact(file) }
        compactionDue = true
        _ = loop.addTimer(after: Self.compactionDelay) { [weak self] in
            self?.compactionDue = false
            self?.compact(file)
        }
    }

    /// Rewrites the file with the kept entries alone.
    private func compact(_ file: RecordFile) {
        file.replace(with: entries.map(Self.line).joined())
    }

    /// Drops the oldest entries beyond `capacity` (and probes beyond `maximumProbes`) or the byte
    /// bound, keeping every question still waiting for its answer (its outcome is yet to be written).
    private func trim() {
        trimDue = false
        guard loaded != nil else { return trimAdded() }
        let (dropped, bytes) = Self.oldest(in: loaded ?? [], capacity: capacity, bytes: totalBytes)
        guard !dropped.isEmpty else { return }
        totalBytes = bytes
        // In place, once the look above has let go of its reference: a click used to copy the
        // whole list four times here (two counting filters, the rebuild and its map).
        Self.remove(dropped, from: &loaded)
    }

    /// Drops the oldest entries of `added` beyond `capacity` (probes beyond `maximumProbes`),
    /// keeping questions still waiting.
    private func trimAdded() {
        trimDue = false
        let (dropped, _) = Self.oldest(in: added, capacity: capacity, bytes: nil)
        guard !dropped.isEmpty else { return }
        var list: [Entry]? = added
        added = []
        Self.remove(dropped, from: &list)
        added = list ?? []
    }

    /// The indexes (ascending) of the oldest entries beyond `capacity` decisions, beyond
    /// `maximumProbes` probes and, when `bytes` is given, beyond `maximumBytes`; questions still
    /// waiting are never among them. Also the byte total without them.
    private static func oldest(in list: [Entry], capacity: Int, bytes: Int?) -> (indexes: [Int], bytes: Int) {
        var decisions = 0, probes = 0
        for index in list.indices {
            let outcome = list[index].outcome
            if outcome == .probe { probes += 1 } else if !outcome.isAsking { decisions += 1 }
        }
        // `capacity` counts decisions made; a question still waiting and the probes are kept beside them.
        var excess = max(0, decisions - capacity), probeExcess = max(0, probes - maximumProbes)
        var total = bytes ?? 0
        let overBytes = { bytes != nil && total > maximumBytes }
        var dropped: [Int] = []
        var index = 0
        while index < list.count, excess > 0 || probeExcess > 0 || overBytes() {
            let outcome = list[index].outcome
            let isProbe = outcome == .probe
            if !outcome.isAsking, overBytes() || (isProbe ? probeExcess > 0 : excess > 0) {
                dropped.append(index)
                total -= list[index].bytes
                if isProbe { probeExcess = max(0, probeExcess - 1) } else { excess = max(0, excess - 1) }
            }
            index += 1
        }
        return (dropped, total)
    }

    /// Removes the entries at `indexes` (ascending) from `list`, in place, and lets go of the room
    /// a long list kept: a compaction reads the whole file back (a burst's thousands of lines),
    /// and the 200 entries kept held a 1.34 MB buffer sized for all of them (heaptrack, after
    /// 10,000 clicks: most of what the daemon kept past its idle size).
    private static func remove(_ indexes: [Int], from list: inout [Entry]?) {
        if indexes.count == 1 {
            list?.remove(at: indexes[0])
        } else {
            var position = 0, next = 0
            list?.removeAll { _ in
                defer { position += 1 }
                guard next < indexes.count, indexes[next] == position else { return false }
                next += 1
                return true
            }
        }
        if let kept = list, kept.capacity > 2 * kept.count + 64 {
            // A fresh buffer of the size kept (`Array(kept[...])` hands the same buffer back).
            var shrunk: [Entry] = []
            shrunk.reserveCapacity(kept.count)
            shrunk.append(contentsOf: kept)
            list = shrunk
        }
    }

    /// Reads the file (and the lines still waiting to be written), keeps the bounds, and from
    /// then on works on the full list. A last line without its newline (torn) is left out. A
    /// link or a file not openurld's own in its place is not read: the list is what this
    /// process still holds to write.
    private func load() -> [Entry] {
        writeWaitingLine()
        file?.flush()
        var list: [Entry] = []
        if capacity > 0, let path {
            var data = ((try? FileSystem.ownContents(path)) ?? nil) ?? []
            if let last = data.lastIndex(of: UInt8(ascii: "\n")) { data.removeSubrange((last + 1)...) } else { data = [] }
            for line in file?.unwritten ?? [] { data += Array(line.utf8) }
            var byID: [UInt32: Int] = [:]
            var skipped = 0
            Lines.forEach(in: data) { range in
                // A line longer than any we write is not ours: skipped unread (decoding a 50 MB
                // line once took seconds).
                guard range.count <= Self.maximumLineBytes, let entry = Self.entry(data[range]) else { return skipped += 1 }
                if let index = byID[entry.id] { list[index] = entry } else { byID[entry.id] = list.count; list.append(entry) }
            }
            if skipped > 0 { Log.warning("\(path): skipped \(skipped) line\(skipped == 1 ? "" : "s") that openurld did not write (too long or not nine fields)") }
        } else if path == nil {
            list = added
        }
        added = []
        totalBytes = list.reduce(0) { $0 + $1.bytes }
        loaded = list
        trim()
        return loaded ?? []
    }

    /// One line of the file as an entry; nil for a line that is not one (torn, or not ours).
    private static func entry<Line: Collection>(_ line: Line) -> Entry? where Line.Element == UInt8 {
        let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map {
            String(tabSeparatedCell: String(decoding: $0, as: UTF8.self))
        }
        guard fields.count == 9, let id = UInt32(fields[0]), let time = Double(fields[1]) else { return nil }
        return Entry(id: id, time: time, url: bounded(fields[2]), finalURL: bounded(fields[3]), decision: fields[4],
                     target: fields[5], rule: fields[6], opener: fields[7], outcome: Outcome(recorded: fields[8]))
    }

    /// The highest id in the file at `path` (0 without one), every line read: its tail alone may
    /// hold no id (one huge line), and an answer's line for an older id may come last. Read as
    /// 64-bit, so an id at the top of the 32-bit range is seen as such. Not read through a link.
    public static func highestID(inFile path: String) -> UInt64 {
        guard let data = (try? FileSystem.ownContents(path)) ?? nil else { return 0 }
        var highest: UInt64 = 0
        Lines.forEach(in: data) { range in
            // A line longer than any we write is not ours (and would be slow to look into).
            guard range.count <= maximumLineBytes else { return }
            let line = data[range]
            let field = line.prefix { $0 != UInt8(ascii: "\t") }
            if field.count < line.count, let id = UInt64(String(decoding: field, as: UTF8.self)) { highest = max(highest, id) }
        }
        return highest
    }

    private static func bounded(_ url: String) -> String {
        guard url.utf8.count > maximumURLBytes else { return url }
        return String(decoding: url.utf8.prefix(maximumURLBytes - 3), as: UTF8.self) + "…"
    }

    /// The entry's line, escaped field by field into one buffer (a string per field and per
    /// escape, joined, was ~28k instructions of every click).
    static func line(_ entry: Entry) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(entry.url.utf8.count + entry.finalURL.utf8.count + 128)
        let fields = ["\(entry.id)", "\(entry.time)", entry.url, entry.finalURL, entry.decision, entry.target, entry.rule, entry.opener,
                      entry.outcome.description]
        for (index, field) in fields.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "\t")) }
            String.appendTabSeparatedCell(field, to: &out)
        }
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }
}

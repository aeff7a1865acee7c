import Foundation
import Desktop
import Routing

/// The last decisions, newest last, in memory and in `$XDG_STATE_HOME/openurld/recent.tsv`
/// (bounded), so "that opened in the wrong browser" can be fixed with `openurl reopen N`.
final class RecentLinks {
    /// One remembered decision.
    struct Entry {
        var id: UInt32
        var time: Double
        var url: String
        var finalURL: String
        var decision: String
        var target: String
        var rule: String
        var opener: String
        var outcome: String
    }

    static let capacity = 200
    private(set) var entries: [Entry] = []
    private var nextID: UInt32 = 1
    private let path: String?
    private var dirty = false
    /// Called when the list changed and should be saved soon; the daemon batches the writes
    /// off the click path. Without it every change is saved at once.
    var scheduleSave: (() -> Void)?

    /// Loads what the file holds; a missing or unreadable file starts empty.
    init(path: String?) {
        self.path = path
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { Self.unescape(String($0)) }
            guard fields.count == 9, let id = UInt32(fields[0]), let time = Double(fields[1]) else { continue }
            entries.append(Entry(id: id, time: time, url: fields[2], finalURL: fields[3], decision: fields[4],
                                 target: fields[5], rule: fields[6], opener: fields[7], outcome: fields[8]))
        }
        entries = Array(entries.suffix(Self.capacity))
        nextID = (entries.last?.id ?? 0) &+ 1
    }

    /// Remembers a decision and returns its id.
    @discardableResult
    func add(_ decision: Decision, opener: Opener?, outcome: RouteOutcome) -> UInt32 {
        let entry = Entry(
            id: nextID, time: Date().timeIntervalSince1970, url: decision.url, finalURL: decision.finalURL,
            decision: decision.kind.rawValue, target: decision.target?.description ?? "",
            rule: decision.rule?.description ?? "", opener: opener?.names.first ?? "", outcome: outcome.description)
        nextID &+= 1
        entries.append(entry)
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        changed()
        return entry.id
    }

    /// Updates the outcome of an entry (an `ask` answered later).
    func update(id: UInt32, outcome: RouteOutcome, decision: Decision) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        entries[index].outcome = outcome.description
        entries[index].decision = decision.kind.rawValue
        entries[index].target = decision.target?.description ?? ""
        changed()
    }

    private func changed() {
        guard let scheduleSave else { return save() }
        if !dirty { scheduleSave() }
        dirty = true
    }

    func entry(id: UInt32) -> Entry? { entries.first { $0.id == id } }

    /// Writes the whole list to a temporary file and renames it over the old one, so a crash
    /// never leaves a half-written file.
    func save() {
        dirty = false
        guard let path else { return }
        let text = entries.map { entry in
            ["\(entry.id)", "\(entry.time)", entry.url, entry.finalURL, entry.decision, entry.target, entry.rule, entry.opener, entry.outcome]
                .map(Self.escape).joined(separator: "\t")
        }.joined(separator: "\n") + "\n"
        let directory = (path as NSString).deletingLastPathComponent
        mkdirParents(directory)
        let temporary = path + ".tmp"
        do {
            try text.write(toFile: temporary, atomically: false, encoding: .utf8)
            _ = rename(temporary, path)
        } catch {
            Log.warning("cannot save recent links to \(path): \(error)")
        }
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n")
    }

    private static func unescape(_ text: String) -> String {
        var out = ""
        var escaping = false
        for c in text {
            if escaping {
                out.append(c == "t" ? "\t" : c == "n" ? "\n" : c)
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}

import DBus
import Platform

/// An append-only record on disk (`recent.tsv`, `pending-asks.jsonl`), written so that what the
/// caller was told stays true:
/// - each append is one `write(2)` made before the caller goes on (before a click's reply is
///   sent), so a process killed a moment later has lost nothing: the kernel has the bytes. There
///   is no fsync: only a crash of the machine itself can lose the last seconds.
/// - a write the disk can take only part of (ENOSPC) is cut back off, so the file never holds a
///   torn line; a file that does not end with a newline (torn by something else) gets one before
///   the next line, so a torn line never swallows the one after it.
/// - lines that could not be written are kept, in order, and tried again before the next line
///   and every `retrySeconds` on the loop; `reported` hears once that writing fails (with why)
///   and once (nil) that it works again.
/// - it is opened as openurld's own file (`AppendingFile(own:)`): a symbolic link, another
///   user's file or a second name of a file in its place is never written through, chmod'ed,
///   replaced or removed; its lines wait in memory as on a full disk, and `reported` hears why.
final class RecordFile {
    /// Seconds between attempts while lines wait to be written.
    static let retrySeconds = 2.0

    /// The file.
    let path: String
    /// Lines that could not be written yet, oldest first (each ends with a newline).
    private(set) var unwritten: [String] = []
    /// Why the last write failed; nil while writes work.
    private(set) var failure: String?
    private let loop: EventLoop?
    private let reported: (SystemError?) -> Void
    private var retryTimer: EventLoopToken?
    /// True once this process's own whole write ended the file: its last byte need not be read again.
    private var endsWhole = false
    /// The file as last written, kept open while its name still holds it.
    private var kept: AppendingFile?
    /// The refusal already logged and reported (the same is not said again).
    private var refusalSaid: String?

    /// A record at `path` (created 0600, its directory 0700, on the first line), retried on
    /// `loop` (without one, only before the next line).
    init(path: String, loop: EventLoop?, reported: @escaping (SystemError?) -> Void = { _ in }) {
        self.path = path
        self.loop = loop
        self.reported = reported
    }

    /// Appends `line` (one or more lines, each ending with a newline) after any still unwritten;
    /// returns the file's size when everything is written, nil when some lines wait.
    @discardableResult
    func append(_ line: String) -> Int? {
        unwritten.append(line)
        return flush()
    }

    /// Writes the waiting lines in one write; the file's size after it, nil when they still wait.
    @discardableResult
    func flush() -> Int? {
        guard !unwritten.isEmpty else { return (try? FileSystem.status(path, followingSymlinks: false).size) ?? 0 }
        do {
            // The file stays open between lines: one lstat says its name still holds this very
            // file, as openurld's own (else it is opened again, and refused as before), so a
            // line costs that and its write, not an open, an fchmod, an fstat and a close.
            let file: AppendingFile, size: Int
            if let kept, let keptSize = kept.sizeWhileStillOwn {
                (file, size) = (kept, keptSize)
            } else {
                kept = nil
                try? FileSystem.createDirectory(Path.parent(path), mode: 0o700, intermediates: true)
                file = try AppendingFile(own: path)
                try? file.setPermissions(0o600)
                size = try file.status().size
                endsWhole = false
            }
            var text = unwritten.joined()
            if !endsWhole, !file.ends(with: UInt8(ascii: "\n")) { text = "\n" + text }
            endsWhole = false
            try file.appendWhole(Array(text.utf8), size: size)
            endsWhole = true
            kept = file
            unwritten = []
            recovered()
            return size + text.utf8.count
        } catch {
            kept = nil
            failed(error)
            return nil
        }
    }

    /// Why the name is not a file this record may write, replace or remove (a link planted in
    /// its place, another user's file); nil when it is, or when nothing is there.
    var refusal: SystemError? { FileSystem.ownFileProblem(path) }

    /// Removes the file (the record was emptied), unless something not openurld's own is in its
    /// place: that is left as it is, and said once.
    func removeFile() {
        kept = nil
        if let refusal { return failed(refusal, retrying: false) }
        try? FileSystem.remove(path)
    }

    /// Replaces the file whole with `text` (a compaction), unless something not openurld's own
    /// is in its place. The temporary is created exclusively, so a link planted at its name is
    /// not followed either.
    func replace(with text: String) {
        kept = nil
        if let refusal { return failed(refusal, retrying: false) }
        do { try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o600, temporary: path + ".tmp") } catch {
            Log.warning("cannot rewrite \(path): \(error)")
        }
    }

    /// Forgets the lines still waiting (the record was cleared).
    func discardUnwritten() {
        unwritten = []
        recovered(quietly: true)
    }

    private func failed(_ error: SystemError, retrying: Bool = true) {
        // A refusal is said once for the process, however often the record is emptied and refilled.
        if error.isRefused, error.refusal == refusalSaid, failure == nil { failure = error.description }
        if failure == nil {
            if error.isRefused { refusalSaid = error.refusal }
            failure = error.description
            Log.warning("cannot write \(path) (\(error.description)); \(unwritten.count) line(s) kept in memory, tried again every \(Int(Self.retrySeconds)) s")
            reported(error)
        }
        guard retrying, let loop, retryTimer == nil else { return }
        retryTimer = loop.addTimer(after: Self.retrySeconds, repeating: Self.retrySeconds) { [weak self] in self?.flush() }
    }

    private func recovered(quietly: Bool = false) {
        if let retryTimer { loop?.remove(retryTimer) }
        retryTimer = nil
        guard failure != nil else { return }
        failure = nil
        if !quietly { Log.info("\(path) is written again") }
        reported(nil)
    }
}

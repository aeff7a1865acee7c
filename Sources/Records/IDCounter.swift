import Platform

/// Where the ids of links come from (`recent`, `reopen N`, the pending questions, `Routed`):
/// a counter of its own, kept in `$XDG_STATE_HOME/openurld/next-id` (0600), so that no id is
/// given twice, whatever happened to the other files:
/// - `openurl recent --clear` (or `recent = 0`) empties the history, never the counter;
/// - it starts above the highest of the counter file, every id in `recent.tsv` and every id in
///   the pending questions, not above a file's tail alone (a tail may hold no id);
/// - each id is written (one `pwrite`, no fsync, as the record's lines are) before it is given,
///   so a daemon killed a moment later does not give it again;
/// - it is 64-bit; the D-Bus id (`u`) is 32-bit and never 0. Past 4,294,967,295 ids the wire id
///   starts again at 1, skipping every id still in use (`inUse`: in `recent` or pending).
/// The file is opened as openurld's own (`OwnValueFile`): a link or a file not openurld's own
/// in its place is never written through; the counter then lives in memory, and `reported`
/// hears why once.
public final class IDCounter {
    /// The counter's file name in the state directory.
    public static let fileName = "next-id"
    /// The highest 64-bit count kept: far beyond any real use, and the sum below cannot overflow.
    static let ceiling = UInt64(1) << 62

    /// Whether a wire id is still in use; asked only once the counter has wrapped.
    public var inUse: (UInt32) -> Bool = { _ in false }
    private let path: String?
    private let recorded: () -> UInt64
    private let reported: (SystemError?) -> Void
    /// The next count to give; nil until started.
    private var next: UInt64?
    private var file: OwnValueFile?
    /// Why the file cannot be written now (reported once while it lasts).
    private var failure: SystemError?

    /// A counter kept in `path` (nil: in memory only) that starts above `recorded()`, the highest
    /// id the other state files hold; `reported` hears when its file cannot be written (why) and
    /// when it can again (nil).
    public init(path: String?, reported: @escaping (SystemError?) -> Void = { _ in }, recorded: @escaping () -> UInt64) {
        self.path = path
        self.recorded = recorded
        self.reported = reported
    }

    /// Reads where to start (the counter file and `recorded()`), once; `take` does it when not yet done.
    public func start() {
        guard next == nil else { return }
        var start = min(recorded(), Self.ceiling) + 1
        if let path {
            do {
                // A first start: the state directory may not be there yet.
                try? FileSystem.createDirectory(Path.parent(path), mode: 0o700, intermediates: true)
                let opened = try OwnValueFile(path)
                file = opened
                let text = String(decoding: opened.read(), as: UTF8.self).filter { !$0.isWhitespace }
                if let saved = UInt64(text) { start = max(start, min(saved, Self.ceiling)) }
            } catch {
                fail(error)
            }
        }
        next = start
    }

    /// The next id: never 0, never one given before by this counter or recorded in the state files.
    public func take() -> UInt32 {
        start()
        var count = next ?? 1
        var id = Self.wireID(count)
        // Below the 32-bit top every id is new; past it, ids still in use are skipped (a bounded
        // search: far fewer are kept than there are ids).
        var tries = 0
        while count > UInt64(UInt32.max), inUse(id), tries < 1 << 20 {
            count += 1
            id = Self.wireID(count)
            tries += 1
        }
        next = min(count + 1, Self.ceiling)
        save()
        return id
    }

    /// The D-Bus id of a count: the count itself up to 4,294,967,295, then 1, 2, ... again.
    static func wireID(_ count: UInt64) -> UInt32 {
        UInt32((max(count, 1) - 1) % UInt64(UInt32.max) + 1)
    }

    private func save() {
        guard let path, let next else { return }
        do throws(SystemError) {
            if file == nil { try? FileSystem.createDirectory(Path.parent(path), mode: 0o700, intermediates: true) }
            let opened: OwnValueFile
            if let file { opened = file } else { opened = try OwnValueFile(path) }
            file = opened
            try opened.replace(with: Array("\(next)\n".utf8))
            if failure != nil {
                failure = nil
                Log.info("\(path) is written again")
                reported(nil)
            }
        } catch {
            // A file that failed is opened afresh next time (the link may be gone by then).
            file = nil
            fail(error)
        }
    }

    private func fail(_ error: SystemError) {
        guard failure == nil else { return }
        failure = error
        Log.warning("cannot write \(path ?? "the id counter") (\(error.description)); the next id is kept in memory")
        reported(error)
    }
}

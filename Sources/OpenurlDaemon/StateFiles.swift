import Records
import DBus
import Execution
import Notifying
import Platform

/// The daemon's files in `$XDG_STATE_HOME/openurld/`: the click record (`recent.tsv`), the
/// questions waiting for an answer (`pending-asks.jsonl`) and the id counter (`next-id`), each
/// opened as openurld's own file (never through a link planted in its place), and what the
/// user is told when one cannot be written.
struct StateFiles {
    /// The click record.
    let recent: RecentLinks
    /// The questions waiting for an answer.
    let pending: PendingAsks

    /// The files in `directory` (ending with a slash), written on `loop`, their faults told by `notices`.
    init(directory: String, loop: EventLoop, notices: Notices) {
        let recentPath = directory + "recent.tsv", pendingPath = directory + PendingAsks.fileName
        let idsPath = directory + IDCounter.fileName
        // Above every id any file still holds: the counter's, the history's and the questions'.
        let ids = IDCounter(path: idsPath, reported: { notices.stateFile($0, path: idsPath) }) {
            max(RecentLinks.highestID(inFile: recentPath), PendingAsks.highestID(inFile: pendingPath))
        }
        let recent = RecentLinks(path: recentPath, ids: ids, loop: loop) { notices.stateFile($0, path: recentPath) }
        let pending = PendingAsks(path: pendingPath, loop: loop) { notices.stateFile($0, path: pendingPath) }
        // Once the wire ids wrap, none still in use is given again (see IDCounter).
        ids.inUse = { [weak recent, weak pending] id in (recent?.holds(id) ?? false) || (pending?.contains(id) ?? false) }
        ids.start()
        self.recent = recent
        self.pending = pending
        // The log was opened before there was anyone to tell (DaemonMain).
        if let refused = Log.refusedFile, let path = refused.path { notices.stateFile(refused, path: path) }
    }
}

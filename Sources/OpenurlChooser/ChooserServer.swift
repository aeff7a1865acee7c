import CGtk
import JSON
import Platform
import RoutingCore
import RouterContract

/// `openurl-chooser --serve`: GTK is initialised once and the process stays, so a question
/// costs a window rather than a process start (most of a cold start is loading and initialising
/// GTK, fonts and the GL renderer). Each line on stdin is one question, `{"url":…,
/// "original":…,"opener":…,"safety":{…},"choices":[{"key":…,"label":…,"icon":…},…],"token":…}` (labels are
/// JSON strings, so a tab or a newline in one survives); the answers are written as in one-shot
/// mode, each choice with its `index` in `choices`.
/// Questions are answered one at a time; the process exits when stdin closes.
///
/// A question carries an `id`, and every line written for it carries the same `id`, so the daemon
/// can tell an answer to the window shown from one to a question whose time ran out. Two more
/// lines come from the daemon: `{"ping":ID}`, answered at once with `{"event":"pong","id":ID}`
/// (a chooser that cannot answer is frozen, and is killed), and `{"close":ID}`, which takes that
/// question's window down without an answer (its time ran out).
enum ChooserServer {
    nonisolated(unsafe) static var pending: [UInt8] = []
    /// The id of the question shown, nil between questions.
    nonisolated(unsafe) static var questionID: Int?

    static func run() -> Int32 {
        ChooserWindow.initialise()
        let channel = g_io_channel_unix_new(0)
        let condition = GIOCondition(rawValue: G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
        _ = g_io_add_watch(channel, condition, stdinReady, nil)
        let loop = g_main_loop_new(nil, 0)
        g_main_loop_run(loop)
        return 0
    }

    /// One line from the daemon: a question, a ping or a close.
    static func handle(_ line: [UInt8]) {
        let object = try? JSONValue(parsing: line)
        if let object, let command = ChooserCommand(json: object) {
            switch command {
            case .ping(let id): return ChooserUI.emit(ChooserReply(.pong, id: id))
            case .close(let id):
                guard id == questionID else { return }
                current?.destroy()
                current = nil
                questionID = nil
                return
            }
        }
        // The id is taken even from a malformed question, so its cancel is not mistaken for stale.
        questionID = object?["id"]?.integer
        guard let object, let question = ChooserQuestion(json: object) else {
            StandardStream.error.write("openurl-chooser: not a request: \(String(decoding: line.prefix(200), as: UTF8.self))\n")
            ChooserUI.emit(.cancelled)
            return
        }
        do {
            let preview = try LinkPreview(url: question.url, original: question.original, choices: question.choices,
                                          opener: question.opener, publicSuffixes: readPublicSuffixList(),
                                          safety: LinkPreview.Safety(json: question.safety))
            current?.destroy()
            let ui = ChooserUI(preview: preview, startupID: question.token) {
                current?.destroy()
                current = nil
            }
            current = ui
            ui.build()
        } catch {
            StandardStream.error.write("openurl-chooser: \(error)\n")
            ChooserUI.emit(.cancelled)
        }
    }
}

private let stdinReady: @convention(c) (UnsafeMutablePointer<GIOChannel>?, GIOCondition, gpointer?) -> gboolean = { _, _, _ in
    var buffer = [UInt8](repeating: 0, count: 65536)
    guard let count = Sys.readStandardInput(into: &buffer) else { return 1 }
    guard count > 0 else { exitProcess(0) }  // the daemon closed our stdin: done
    ChooserServer.pending += buffer[0..<count]
    var lines: [[UInt8]] = []
    while let newline = ChooserServer.pending.firstIndex(of: 0x0A) {
        lines.append(Array(ChooserServer.pending[..<newline]))
        ChooserServer.pending.removeSubrange(...newline)
    }
    // A question whose close came with it (its time ran out while this process was busy) is
    // not worth a window: skip both.
    let parsed = lines.map { try? JSONValue(parsing: $0) }
    let closed = Set(parsed.compactMap { object -> Int? in
        guard let object, case .close(let id)? = ChooserCommand(json: object) else { return nil }
        return id
    })
    for (line, object) in zip(lines, parsed) {
        if !closed.isEmpty, let object, object["url"] != nil, let id = object["id"]?.integer, closed.contains(id) { continue }
        ChooserServer.handle(line)
    }
    return 1
}

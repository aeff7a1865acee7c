import JSON
import Launching
import RoutingCore
import RouterContract

/// The lines `openurl-chooser --serve` and the daemon exchange, one JSON object per line.
///
/// To the chooser: a question (`question(for:id:)`), `{"close":ID}` (the question's time ran out:
/// take its window down) and `{"ping":ID}`. From it, each carrying the question's `id`:
/// `{"event":"shown"}` once the window is mapped, `{"event":"pong"}` for a ping, and the answers
/// (`{"answer":"choose","index":0,"choice":"firefox.desktop","url":…,"remember":{"scope":…,
/// "value":…},"keep":true}` or `{"answer":"cancel"}`). A line for another id than the question
/// shown is stale (answered as its time ran out) and ignored.
extension ChooserLauncher {
    /// The question line for `request`: its `id`, the link, the original, the opener, the
    /// decision's safety verdict and each choice with its label and icon.
    public static func question(for request: AskRequest, id: Int? = nil) -> JSONValue {
        ChooserQuestion(id: id, url: request.decision.finalURL, original: request.decision.url, opener: request.opener,
                        safety: request.decision.safety.json, choices: request.choices.map(OfferedChoice.init),
                        token: request.activationToken ?? "").json
    }

    /// `{"close":ID}` or `{"ping":ID}`, as a line.
    static func command(_ command: ChooserCommand) -> String {
        command.json.text + "\n"
    }

    /// What one line from the chooser says.
    enum Line: Equatable {
        /// The window of question `id` is mapped.
        case shown(id: Int?)
        /// The chooser answered the ping for question `id`.
        case pong(id: Int?)
        /// An answer to question `id`.
        case answer(AskAnswer, id: Int?)
    }

    /// Reads one line; nil for one that is none of these, or a choice the question did not
    /// offer (logged by nobody: the chooser is ours).
    static func read(_ line: String, choices: [Choice]) -> Line? {
        guard let object = try? JSONValue(parsing: line), let reply = ChooserReply(json: object) else { return nil }
        switch reply.event {
        case .shown: return .shown(id: reply.id)
        case .pong: return .pong(id: reply.id)
        case .cancelled: return .answer(.cancelled, id: reply.id)
        case .chose(let pick): return answer(pick, choices: choices).map { .answer($0, id: reply.id) }
        }
    }

    /// One answer line; nil for a line that is not one.
    static func parse(_ line: String, choices: [Choice]) -> AskAnswer? {
        guard case .answer(let answer, _)? = read(line, choices: choices) else { return nil }
        return answer
    }

    /// What a pick chose among `choices`; nil for an index out of range.
    static func answer(_ pick: ChooserPick, choices: [Choice]) -> AskAnswer? {
        let choice: Choice
        if let index = pick.index {
            guard choices.indices.contains(index) else { return nil }
            choice = choices[index]
        } else {
            // Ctrl+C copies the link even where the question offered no Copy.
            guard pick.key == "copy" else { return nil }
            choice = Choice(action: .copy, label: "Copy", icon: "edit-copy")
        }
        return .chosen(choice, url: pick.url, remember: pick.remember, keepAsking: pick.keep)
    }

    /// Reads lines until end of file.
    static func readLines(fd: Int32, _ line: (String) -> Void) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard case .bytes(let count) = ChildIO.read(fd, into: &buffer) else { return }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: 0x0A) {
                line(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
            if pending.count > 1 << 20 { return }  // not a chooser talking
        }
    }
}

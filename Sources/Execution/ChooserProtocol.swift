import JSON
import Launching
import RoutingCore
import ConfigLanguage

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
    /// decision's safety verdict and each choice with its label and icon, all JSON strings (a tab
    /// or newline in a label survives).
    public static func question(for request: AskRequest, id: Int? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if let id { members.append(("id", .number(id))) }
        members.append(("url", .string(request.decision.finalURL)))
        if request.decision.url != request.decision.finalURL { members.append(("original", .string(request.decision.url))) }
        if let opener = request.opener, !opener.isEmpty { members.append(("opener", .string(opener))) }
        members.append(("safety", request.decision.safety.json))
        members.append(("choices", .array(request.choices.map { choice in
            .object([("key", .string(choice.key)), ("label", .string(choice.label)), ("icon", .string(choice.icon))])
        })))
        members.append(("token", .string(request.activationToken ?? "")))
        return .object(members)
    }

    /// `{"close":ID}` or `{"ping":ID}`.
    static func command(_ name: String, id: Int) -> String {
        JSONValue.object([(name, .number(id))]).text + "\n"
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

    /// Reads one line; nil for one that is none of these (logged by nobody: the chooser is ours).
    static func read(_ line: String, choices: [Choice]) -> Line? {
        guard let object = try? JSONValue(parsing: line) else { return nil }
        let id = object["id"]?.integer
        switch object["event"]?.string {
        case "shown"?: return .shown(id: id)
        case "pong"?: return .pong(id: id)
        default: return parse(line, choices: choices).map { .answer($0, id: id) }
        }
    }

    /// One answer line; nil for a line that is not one.
    static func parse(_ line: String, choices: [Choice]) -> AskAnswer? {
        guard let object = try? JSONValue(parsing: line), let kind = object["answer"]?.string else { return nil }
        guard kind == "choose" else { return kind == "cancel" ? .cancelled : nil }
        let choice: Choice
        if let index = object["index"]?.integer {
            guard choices.indices.contains(index) else { return nil }
            choice = choices[index]
        } else {
            // Ctrl+C copies the link even where the question offered no Copy.
            guard object["choice"]?.string == "copy" else { return nil }
            choice = Choice(action: .copy, label: "Copy", icon: "edit-copy")
        }
        var remember: RememberRequest?
        if let fields = object["remember"], let scope = fields["scope"]?.string, let value = fields["value"]?.string {
            remember = RememberRequest(scope: scope, value: value)
        }
        return .chosen(choice, url: object["url"]?.string, remember: remember, keepAsking: object["keep"]?.bool ?? false)
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

import DBus
import JSON
import Platform
import RouterContract
import RoutingCore

/// A question put to the user that has no answer yet, as the next daemon needs it to ask again.
public struct PendingAsk: Sendable {
    /// The click's id in `recent`.
    public var id: UInt32
    /// When the link was clicked (seconds since the epoch): `ask_timeout` counts from here.
    public var time: Double
    /// The `ask` decision, with its choices as they were offered.
    public var decision: Decision
    /// The app the click came from, when known.
    public var opener: String?
    /// The click's display variables, for the window.
    public var environment: [String: String]
    /// The notification the question is shown in, to be closed before it is asked again.
    public var notification: UInt32?

    /// A pending question.
    public init(id: UInt32, time: Double, decision: Decision, opener: String?, environment: [String: String], notification: UInt32? = nil) {
        self.id = id
        self.time = time
        self.decision = decision
        self.opener = opener
        self.environment = environment
        self.notification = notification
    }
}

/// The questions waiting for an answer, in `$XDG_STATE_HOME/openurld/pending-asks.jsonl` (0600):
/// one JSON line per question, written before it is shown, a line when its prompt is a
/// notification, and one when it is answered; the file is removed once none waits. A daemon that
/// stops (killed, crashed, stopped) leaves them there, and the next one asks them again (see
/// `DecisionExecutor.resumePendingAsks`). Lines are written as `RecordFile` writes them: each at
/// once, none torn, retried when the disk is full, never through a link planted in its place
/// (the questions then wait in memory). They are kept whatever `recent` says: `recent = 0`
/// keeps no history, but a question is never lost.
public final class PendingAsks {
    /// The file's name in the state directory.
    public static let fileName = "pending-asks.jsonl"
    /// Once this many lines were appended, the file is rewritten with the waiting questions alone.
    static let compactAfterLines = 1000

    /// The file.
    public let path: String
    private let file: RecordFile
    /// The waiting questions by id.
    private var waiting: [UInt32: PendingAsk] = [:]
    private var linesWritten = 0
    /// How many lines the last `load` could not read (each logged, once).
    public private(set) var unreadableLines = 0

    /// Questions recorded in `path`, retried on `loop` when the disk refuses them; `reported`
    /// hears when writing starts failing (why) and works again (nil).
    public init(path: String, loop: EventLoop?, reported: @escaping (SystemError?) -> Void = { _ in }) {
        self.path = path
        file = RecordFile(path: path, loop: loop, reported: reported)
    }

    /// The waiting questions, oldest click first.
    public var all: [PendingAsk] { waiting.values.sorted { ($0.time, $0.id) < ($1.time, $1.id) } }

    /// Whether question `id` is waiting.
    public func contains(_ id: UInt32) -> Bool { waiting[id] != nil }

    /// Records a question before it is shown (again: a question already recorded keeps its line).
    public func add(_ ask: PendingAsk) {
        guard ask.id != 0, waiting[ask.id] == nil else { return }
        waiting[ask.id] = ask
        write(Self.line(ask))
    }

    /// Records that question `id` is shown in notification `notification`.
    public func shown(id: UInt32, notification: UInt32) {
        guard waiting[id] != nil else { return }
        waiting[id]?.notification = notification
        write(PendingAskLine.shown(id: id, notification: notification).json)
    }

    /// Records that question `id` has its answer; the file goes once none waits.
    public func resolve(id: UInt32) {
        guard waiting.removeValue(forKey: id) != nil else { return }
        guard waiting.isEmpty else { return write(PendingAskLine.done(id: id).json) }
        file.discardUnwritten()
        file.removeFile()
        linesWritten = 0
    }

    /// Reads the questions a previous daemon left, rewrites the file with them alone, and
    /// returns them, oldest first. `choice` resolves a choice's key (`firefox.desktop`, `copy`)
    /// against the rules now in force; a choice that no longer resolves is left out. A click
    /// time later than `now` (the wall clock was set back since) is taken as `now`, and so
    /// written: a second restart does not give its question the hour again.
    public func load(now: Double = .infinity, choice: (String) -> Choice.Action?) -> [PendingAsk] {
        guard let data = (try? FileSystem.ownContents(path)) ?? nil else { return [] }
        var found: [UInt32: PendingAsk] = [:]
        var unreadable: [Int] = []
        var number = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            guard !line.isEmpty else { continue }
            // A torn line, one damaged on disk (a bad byte), or another program's: skipped, and said.
            guard let value = try? JSONValue(parsing: Array(line)), let record = PendingAskLine(json: value) else {
                unreadable.append(number)
                continue
            }
            switch record {
            case .done(let id): found[id] = nil
            case .shown(let id, let notification): found[id]?.notification = notification
            case .question(let question): found[question.id] = Self.ask(question, choice: choice)
            }
        }
        for (id, ask) in found where ask.time > now {
            Log.info("question #\(id) was clicked \(Int(ask.time - now)) s after now by the wall clock (it was set back); its ask_timeout counts from now")
            found[id]?.time = now
        }
        if !unreadable.isEmpty {
            Log.warning("\(path): \(unreadable.count) line\(unreadable.count == 1 ? "" : "s") could not be read and \(unreadable.count == 1 ? "is" : "are") dropped "
                + "(line \(unreadable.prefix(10).map(String.init).joined(separator: ", "))\(unreadable.count > 10 ? ", …" : "")): a question on \(unreadable.count == 1 ? "it" : "them") is not asked again")
        }
        unreadableLines = unreadable.count
        waiting = found
        compact()
        return all
    }

    private func write(_ value: JSONValue) {
        file.append(value.text + "\n")
        linesWritten += 1
        if linesWritten >= Self.compactAfterLines { compact() }
    }

    /// Rewrites the file with the waiting questions alone (or removes it when none waits).
    private func compact() {
        linesWritten = waiting.count
        guard !waiting.isEmpty else {
            file.discardUnwritten()
            file.removeFile()
            return
        }
        guard file.flush() != nil else { return }  // a full disk: keep appending to what is there
        let text = all.map { ask in
            Self.line(ask).text + "\n" + (ask.notification.map { PendingAskLine.shown(id: ask.id, notification: $0).json.text + "\n" } ?? "")
        }.joined()
        file.replace(with: text)
    }

    /// The highest question id in the pending file at `path` (0 without one), for the id counter
    /// to start above; not read through a link.
    public static func highestID(inFile path: String) -> UInt64 {
        guard let data = (try? FileSystem.ownContents(path)) ?? nil else { return 0 }
        var highest: UInt64 = 0
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let value = try? JSONValue(parsing: Array(line)), let id = value["ask"]?.integer, id > 0 else { continue }
            highest = max(highest, UInt64(id))
        }
        return highest
    }

    /// A question's line.
    static func line(_ ask: PendingAsk) -> JSONValue {
        var forced = false
        if case .ask(_, true) = ask.decision.effect { forced = true }
        return PendingAskLine.question(PendingQuestion(
            id: ask.id, time: ask.time, url: ask.decision.url, finalURL: ask.decision.finalURL, rule: ask.decision.rule, forced: forced,
            opener: ask.opener, choices: ask.decision.choices.map(OfferedChoice.init), environment: ask.environment)).json
    }

    /// The question a line records, its choices resolved by `choice` (one that no longer resolves is left out).
    static func ask(_ question: PendingQuestion, choice: (String) -> Choice.Action?) -> PendingAsk {
        let choices = question.choices.compactMap { offered in
            choice(offered.key).map { Choice(action: $0, label: offered.label, icon: offered.icon) }
        }
        let decision = Decision(url: question.url, finalURL: question.finalURL, effect: .ask(choices, forced: question.forced), rule: question.rule)
        return PendingAsk(id: question.id, time: question.time, decision: decision, opener: question.opener, environment: question.environment)
    }
}

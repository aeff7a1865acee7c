import Launching
import DBus
import Notifying
import URLModel
import ConfigLanguage
import RoutingCore

/// How an `ask` decision is put to the user.
public enum AskMethod: Equatable, Sendable {
    /// Action buttons on a notification.
    case notification
    /// The `[settings] picker` command.
    case picker
}

/// Why a question could not be asked.
public struct AskError: Error, Equatable, CustomStringConvertible {
    /// The explanation, ready to log.
    public var message: String
    /// The message.
    public var description: String { message }
}

/// Offers an `ask` decision's choices and reports what became of the question.
///
/// The ways to ask are tried in `order` (`[settings] ask_with` first, then the chooser window,
/// notification action buttons, the picker); a way that is not available here (no display or no
/// chooser installed; no notification server, one without action buttons, or nobody staying to
/// hear its answer; no picker set, or its program missing or failing to start) passes the question
/// to the next. So does a way that fails once the question is shown: a chooser window that
/// crashes or freezes, a notification server that leaves the bus (neither is the user's answer).
/// When none works the answer is `.unavailable` with the reasons, and the caller decides what the
/// link becomes; but a question whose notification server went away, with nothing left to try,
/// waits for a server to take the bus name again and is shown there.
///
/// Every way counts to the request's `expires` (the click plus `ask_timeout`): a question not
/// answered by then, queued or shown, is `.expired`. Nothing here blocks the loop: the server's
/// capabilities are asked without waiting, and the picker runs on a thread of its own.
public final class Asker: @unchecked Sendable {
    /// The notification client (nil: none, or nobody stays for the answer).
    public let notifications: NotificationClient?
    /// The configured picker (nil: `[settings] picker` not set).
    public let picker: Picker?
    /// The chooser window (nil: not installed, or no loop to hear it).
    public let chooser: ChooserLauncher?
    /// The ways to ask, in the order tried.
    public let order: [Config.AskWith]
    /// The environment the window and the picker run with.
    public let environment: [String: String]
    /// The loop completions run on; nil: the picker is waited for here.
    public let loop: EventLoop?
    /// Where problems met after `ask` returned go (a notification that failed, a picker that printed nonsense).
    public let log: (String) -> Void

    /// An asker over the given ways of asking.
    public init(notifications: NotificationClient?, picker: Picker?, chooser: ChooserLauncher? = nil,
                order: [Config.AskWith] = [.notification, .picker], environment: [String: String] = [:],
                loop: EventLoop?, log: @escaping (String) -> Void = { _ in }) {
        self.notifications = notifications
        self.picker = picker
        self.chooser = chooser
        self.order = order
        self.environment = environment
        self.loop = loop
        self.log = log
    }

    /// Why `method` cannot be used, as far as can be told without asking anyone; nil when it may be.
    public func unavailability(of method: Config.AskWith) -> String? {
        switch method {
        case .window:
            guard chooser != nil else { return "the chooser window (\(ChooserLauncher.programName)) is not installed" }
            guard ChooserLauncher.hasDisplay(environment) else { return "no display for the chooser window (DISPLAY and WAYLAND_DISPLAY are unset)" }
            return nil
        case .picker:
            guard let picker else { return "[settings] picker is not set" }
            guard let program = picker.argv.first, ProcessLauncher.resolve(program, environment: environment.isEmpty ? picker.environment : environment) != nil else {
                return "the picker \(picker.argv.first ?? "") is not on PATH"
            }
            return nil
        case .notification:
            guard notifications != nil, loop != nil else { return "no notification server connection" }
            return nil
        }
    }

    /// Offers `request`'s choices; `completion` runs on the loop's thread with each answer (more
    /// than one only for a chooser window kept open with Ctrl+Enter). `shownAsNotification`
    /// hears the id of each notification the question is shown in.
    public func ask(_ request: AskRequest, shownAsNotification: @escaping (UInt32) -> Void = { _ in },
                    completion: @escaping (AskAnswer) -> Void) {
        guard !request.choices.isEmpty else { return completion(.unavailable("no choices to offer")) }
        attempt(order[...], request: request, reasons: [], serverLeft: false, shown: shownAsNotification, completion: completion)
    }

    private func attempt(_ methods: ArraySlice<Config.AskWith>, request: AskRequest, reasons: [String], serverLeft: Bool,
                         shown: @escaping (UInt32) -> Void, completion: @escaping (AskAnswer) -> Void) {
        if request.remainingSeconds == 0 { return completion(.expired) }
        guard let method = methods.first else {
            if serverLeft, let notifications, let loop { return park(request, reasons: reasons, notifications: notifications, loop: loop, shown: shown, completion: completion) }
            return completion(.unavailable(reasons.joined(separator: "; ")))
        }
        let rest = methods.dropFirst()
        if let why = unavailability(of: method) {
            return attempt(rest, request: request, reasons: reasons + [why], serverLeft: serverLeft, shown: shown, completion: completion)
        }
        // Holds the asker strongly: nobody else keeps it while the question is out.
        let next = { (why: String, logged: Bool, left: Bool) in
            if logged { self.log("ask: \(why)") }
            self.attempt(rest, request: request, reasons: reasons + [why], serverLeft: serverLeft || left, shown: shown, completion: completion)
        }
        switch method {
        case .window:
            chooser?.show(request, environment: environment) { answer in
                if case .unavailable(let why) = answer { next(why, true, false) } else { completion(answer) }
            }
        case .picker:
            guard var picker else { return next("no picker", true, false) }
            if let remaining = request.remainingSeconds { picker.timeout = remaining }
            let choices = request.choices
            let answer = { (outcome: PickerOutcome) in
                switch outcome {
                case .chosen(let index): completion(.chosen(choices[index], url: nil, remember: nil, keepAsking: false))
                case .cancelled: completion(.cancelled)
                case .expired: completion(.expired)
                case .failed(let why): next(why, true, false)
                }
            }
            if let loop { picker.pick(labels: choices.map(\.label), loop: loop, completion: answer) } else { answer(picker.pick(labels: choices.map(\.label))) }
        case .notification:
            guard let notifications else { return next("no notification server connection", false, false) }
            notifications.capabilitiesAsync { result in
                switch result {
                case .failure(let error): next("no notification server (\(error))", false, false)
                case .success(let capabilities) where !capabilities.contains("actions"): next("the notification server shows no action buttons", false, false)
                case .success: self.askByNotification(request, shown: shown, next: { next($0, true, $1) }, completion: completion)
                }
            }
        }
    }

    /// Shows the question as a notification with one button per choice, closed at `expires`.
    private func askByNotification(_ request: AskRequest, shown: @escaping (UInt32) -> Void, next: @escaping (String, Bool) -> Void,
                                   completion: @escaping (AskAnswer) -> Void) {
        guard let notifications, let url = try? ParsedURL(request.decision.finalURL) else { return next("no notification client", false) }
        let choices = request.choices
        let answer = OnceAnswer(completion)
        let shownID = ShownID()
        if let remaining = request.remainingSeconds, let loop {
            let timer = loop.addTimer(after: remaining) { [weak notifications] in
                guard answer.give(.expired) else { return }
                if let id = shownID.id { notifications?.dismiss(id: id) }
            }
            answer.cleanUp = { loop.remove(timer) }
        }
        notifications.notifyAsync(
            NotificationText.ask(url: url, choices: choices, safety: request.decision.safety),
            onAction: { [weak notifications] key in
                // "default" (a click on the body) is not a choice: wait for a button or the close.
                guard let choice = choices.first(where: { $0.key == key }) else { return }
                answer.give(.chosen(choice, url: nil, remember: nil, keepAsking: false))
                // Some servers (dunst's context menu) leave the prompt up after an action: it is answered, take it down.
                if let id = shownID.id { notifications?.dismiss(id: id) }
            },
            onClose: { reason in
                switch reason {
                // The server crashed or was stopped: nobody answered, so ask another way.
                case .serverGone: if answer.take() { next("the notification server left the bus with the question on screen", true) }
                case .expired: answer.give(.expired)
                default: answer.give(.cancelled)
                }
            },
            completion: { result in
                switch result {
                case .success(let id):
                    shownID.id = id
                    shown(id)
                case .failure(let error): if answer.take() { next("the ask notification failed: \(error)", false) }
                }
            })
    }

    /// Every way failed after a notification server left with the question: wait for a server
    /// to take the name again and ask there, or until the question expires.
    private func park(_ request: AskRequest, reasons: [String], notifications: NotificationClient, loop: EventLoop,
                      shown: @escaping (UInt32) -> Void, completion: @escaping (AskAnswer) -> Void) {
        log("ask: \(reasons.joined(separator: "; ")); asking again when a notification server is back")
        let parked = OnceAnswer(completion)
        let waiter = notifications.whenServerAppears {
            guard let completion = parked.takeCompletion() else { return }
            self.attempt([.notification], request: request, reasons: reasons, serverLeft: true, shown: shown, completion: completion)
        }
        var timer: EventLoopToken?
        if let remaining = request.remainingSeconds {
            timer = loop.addTimer(after: remaining) { parked.give(.expired) }
        }
        parked.cleanUp = {
            notifications.cancelWaiting(waiter)
            if let timer { loop.remove(timer) }
        }
    }
}

/// The id of the shown ask notification; set and read on the loop's thread only.
private final class ShownID: @unchecked Sendable {
    var id: UInt32?
}

/// Calls the completion at most once (an action is followed by its close), then cleans up
/// (a timer, a waiter).
private final class OnceAnswer: @unchecked Sendable {
    private var completion: ((AskAnswer) -> Void)?
    /// Runs once, when the completion is used or taken away.
    var cleanUp: (() -> Void)?

    init(_ completion: @escaping (AskAnswer) -> Void) { self.completion = completion }

    /// Only ever called on the loop's thread, so no lock is needed. True when it answered.
    @discardableResult
    func give(_ answer: AskAnswer) -> Bool {
        guard let completion = takeCompletion() else { return false }
        completion(answer)
        return true
    }

    /// Takes the completion away unanswered; true when it had not been used.
    func take() -> Bool { takeCompletion() != nil }

    /// The completion, taken away (nil when already used).
    func takeCompletion() -> ((AskAnswer) -> Void)? {
        guard let completion else { return nil }
        self.completion = nil
        cleanUp?()
        cleanUp = nil
        return completion
    }
}

import DBus
import Routing

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

/// Offers an `ask` decision's choices and reports the one taken.
///
/// Notification action buttons are used when the server advertises `actions` and no
/// `[settings] picker` is set; otherwise the picker. A set picker always wins, because a user who
/// configured one wants it (a notification with six buttons is awkward in most servers).
/// Closing the notification, a cancelled picker, or a server that goes away all answer nil.
public final class Asker: @unchecked Sendable {
    /// The daemon's notification client (nil: none).
    public let notifications: NotificationClient?
    /// The configured picker (nil: `[settings] picker` not set).
    public let picker: Picker?
    /// The loop completions run on.
    public let loop: EventLoop
    /// Where problems met after `ask` returned go (a notification that failed, a picker that printed nonsense).
    public var log: (String) -> Void

    /// An asker over the given ways of asking.
    public init(notifications: NotificationClient?, picker: Picker?, loop: EventLoop, log: @escaping (String) -> Void = { _ in }) {
        self.notifications = notifications
        self.picker = picker
        self.loop = loop
        self.log = log
    }

    /// Which way `ask` would use now, or an error saying why neither works.
    public func method() throws -> AskMethod {
        if picker != nil { return .picker }
        guard let notifications else {
            throw AskError(message: "cannot ask: no notification server connection and [settings] picker is not set")
        }
        let capabilities: Set<String>
        do { capabilities = try notifications.capabilities() } catch {
            throw AskError(message: "cannot ask: \(error); set [settings] picker, e.g. [\"fuzzel\", \"--dmenu\"]")
        }
        guard capabilities.contains("actions") else {
            throw AskError(message: "cannot ask: the notification server shows no action buttons; set [settings] picker, e.g. [\"fuzzel\", \"--dmenu\"]")
        }
        return .notification
    }

    /// Offers `choices` (shown as `labels`, one per choice) for `url`; `completion` runs once, on
    /// the loop's thread, with the choice taken or nil. Returns the method used; throws (without
    /// calling `completion`) when there is no way to ask.
    @discardableResult
    public func ask(url: ParsedURL, choices: [AskChoice], labels: [String],
                    completion: @escaping (AskChoice?) -> Void) throws -> AskMethod {
        guard !choices.isEmpty, labels.count == choices.count else {
            throw AskError(message: "cannot ask: \(choices.count) choices but \(labels.count) labels")
        }
        let method = try method()
        let answer = OnceAnswer(completion)
        switch method {
        case .picker:
            guard let picker else { throw AskError(message: "cannot ask: no picker") }
            let log = self.log
            picker.pick(labels: labels, loop: loop) { outcome in
                if case .failed(let why) = outcome { log(why) }
                answer.give(outcome.index.map { choices[$0] })
            }
        case .notification:
            guard let notifications else { throw AskError(message: "cannot ask: no notification client") }
            let request = NotificationText.ask(url: url, choices: choices, labels: labels)
            let log = self.log
            let shownID = ShownID()
            notifications.notifyAsync(
                request,
                onAction: { [weak notifications] key in
                    // "default" (a click on the body) is not a choice: wait for a button or the close.
                    guard let choice = choices.first(where: { $0.description == key }) else { return }
                    answer.give(choice)
                    // Some servers (dunst's context menu) leave the prompt up after an action: it is answered, take it down.
                    if let id = shownID.id { notifications?.dismiss(id: id) }
                },
                onClose: { _ in answer.give(nil) },
                completion: { result in
                    switch result {
                    case .success(let id): shownID.id = id
                    case .failure(let error):
                        log("ask: \(error)")
                        answer.give(nil)
                    }
                })
        }
        return method
    }
}

/// The id of the shown ask notification; set and read on the loop's thread only.
private final class ShownID: @unchecked Sendable {
    var id: UInt32?
}

/// Calls the completion at most once (an action is followed by its close).
private final class OnceAnswer: @unchecked Sendable {
    private var completion: ((AskChoice?) -> Void)?

    init(_ completion: @escaping (AskChoice?) -> Void) { self.completion = completion }

    /// Only ever called on the loop's thread, so no lock is needed.
    func give(_ choice: AskChoice?) {
        guard let completion else { return }
        self.completion = nil
        completion(choice)
    }
}

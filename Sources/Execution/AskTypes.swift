import Platform
import RoutingCore
import ConfigLanguage

/// A question put to the user: the `ask` decision, whose choices are offered, and the click.
public struct AskRequest {
    /// The decision; its `choices` are what is offered, in order.
    public var decision: Decision
    /// The click's activation token, so the chooser window is raised.
    public var activationToken: String?
    /// The app the click came from, when known ("Remember for links from …").
    public var opener: String?
    /// The click's display variables (`DISPLAY`, `WAYLAND_DISPLAY`, …) for a daemon started
    /// without them: the chooser window and the picker need a display too.
    public var environment: [String: String]
    /// When the question stops waiting for an answer, on the session's monotonic clock
    /// (`Clock.elapsed`: the click's arrival plus `ask_timeout`); nil never. Every way of
    /// asking counts to it, queued or shown; setting the wall clock moves it not.
    public var expires: Double?
    /// The clock `expires` is read on: the session's.
    public var clock: Clock

    /// A request.
    public init(decision: Decision, activationToken: String? = nil, opener: String? = nil, environment: [String: String] = [:],
                expires: Double? = nil, clock: Clock = .system) {
        self.clock = clock
        self.decision = decision
        self.activationToken = activationToken
        self.opener = opener
        self.environment = environment
        self.expires = expires
    }

    /// Seconds left until it expires (never below 0); nil without a limit.
    public var remainingSeconds: Double? { expires.map { max(0, $0 - clock.elapsed()) } }

    /// The choices offered.
    public var choices: [Choice] { decision.choices }
}

/// What became of a question.
public enum AskAnswer: Equatable {
    /// A choice, for `url` when the user edited the link, to be remembered when asked; when
    /// `keepAsking` the window stays open and more answers may follow.
    case chosen(Choice, url: String?, remember: RememberRequest?, keepAsking: Bool)
    /// Dismissed: Escape, the window closed, the notification dismissed, the picker cancelled.
    case cancelled
    /// Nobody answered in time.
    case expired
    /// No way to ask worked; why, for each way tried.
    case unavailable(String)
}

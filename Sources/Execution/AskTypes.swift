import Routing

/// A question put to the user: the `ask` decision and how to present its choices.
public struct AskRequest {
    /// The decision; its `choices` are what is offered.
    public var decision: Decision
    /// One label per choice (app names from desktop entries).
    public var labels: [String]
    /// One icon name or path per choice (empty for none).
    public var icons: [String]
    /// The click's activation token, so the chooser window is raised.
    public var activationToken: String?
    /// The app the click came from, when known ("Remember for links from …").
    public var opener: String?
    /// The click's display variables (`DISPLAY`, `WAYLAND_DISPLAY`, …) for a daemon started
    /// without them: the chooser window and the picker need a display too.
    public var environment: [String: String] = [:]

    /// A request.
    public init(decision: Decision, labels: [String], icons: [String], activationToken: String?, opener: String?) {
        self.decision = decision
        self.labels = labels
        self.icons = icons
        self.activationToken = activationToken
        self.opener = opener
    }
}

/// What became of a question.
public enum AskAnswer: Equatable {
    /// A choice, for `url` when the user edited the link, to be remembered when asked; when
    /// `keepAsking` the window stays open and more answers may follow.
    case chosen(AskChoice, url: String?, remember: RememberRequest?, keepAsking: Bool)
    /// Dismissed: Escape, the window closed, the notification dismissed, the picker cancelled.
    case cancelled
    /// Nobody answered in time.
    case expired
    /// No way to ask worked; why, for each way tried.
    case unavailable(String)
}

/// One carried-out answer of an `ask`, for the caller to record.
public struct AskResult {
    /// The decision carried out (the chosen one, or the `ask` itself when nothing was chosen).
    public var decision: Decision
    /// What became of it.
    public var outcome: RouteOutcome
    /// Set when the user asked for the choice to be remembered.
    public var remember: RememberRequest?
    /// The choice as the config writes it, when one was made.
    public var choice: AskChoice?
    /// True for a second or later choice from a window kept open with Ctrl+Enter.
    public var isFollowUp: Bool
}

import URLModel
import RoutingCore

/// What a matcher looks at: the URL after rewrites, who opened it, and the moment of the click.
public struct MatchSubject {
    /// The parsed URL.
    public let url: ParsedURL
    /// The normalised URL text.
    public let text: String
    /// The opener, if known.
    public let opener: Opener?
    /// The mailto fields, for mailto URLs.
    public let mailto: MailtoURL?
    /// The network, time, window, keys and programs at the moment of the click.
    public let moment: Moment

    /// Prepares a URL for matching.
    public init(url: ParsedURL, opener: Opener?, moment: Moment = Moment()) {
        self.url = url
        self.text = url.string
        self.opener = opener
        self.mailto = url.scheme == "mailto" ? MailtoURL(url) : nil
        self.moment = moment
    }
}

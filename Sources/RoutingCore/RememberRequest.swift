/// "Remember for …": what a remembered rule should match (the scopes `RememberedRules` writes); the chooser sends one with its answer.
public struct RememberRequest: Equatable, Sendable {
    /// `domain`, `host`, `opener` or `mail-domain`.
    public var scope: String
    /// The domain, host, opener or mail domain.
    public var value: String

    /// A request.
    public init(scope: String, value: String) {
        self.scope = scope
        self.value = value
    }
}

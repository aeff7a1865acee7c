/// A config.toml for a test, built from the parts most tests share: the `[default]` target and
/// the `zoom` rule the integration tests route through `work.desktop`.
public struct TestConfig: CustomStringConvertible, Sendable {
    /// The TOML text so far.
    public private(set) var text: String

    /// `[default] open = target`; `browser.desktop` is the recording browser every harness installs.
    public init(opening target: String = "browser.desktop") {
        text = "[default]\nopen = \"\(target)\"\n"
    }

    /// This config and a `[[rules]]` entry named `name` sending `domain` to `target`.
    public func routing(_ domain: String, to target: String, name: String) -> TestConfig {
        appending("[[rules]]\nname = \"\(name)\"\nmatch.domain = \"\(domain)\"\nopen = \"\(target)\"\n")
    }

    /// This config and `toml`, as written.
    public func appending(_ toml: String) -> TestConfig {
        var copy = self
        copy.text += toml
        return copy
    }

    /// The TOML text.
    public var description: String { text }

    /// The recording browser by default and zoom.us in the work browser: the integration
    /// tests' common config.
    public static let browserWithZoomRule = TestConfig().routing("zoom.us", to: "work.desktop", name: "zoom").text
}

import Testing
@testable import URLModel
@testable import Templates
@testable import ConfigLanguage
@testable import Routing
@testable import RoutingCore

/// Copying a mailto (issue 22, finding 4): To and Cc only, never the hidden Bcc, with
/// `leftOutBcc` for the notification; no address with a line break reaches the clipboard.
@Suite struct MailtoCopyTests {
    static let engine: RuleEngine = {
        do {
            return RuleEngine(config: try ConfigLoader.load(text: "[[rules]]\nmatch.scheme = \"mailto\"\ncopy = true\n", path: "copy.toml"))
        } catch {
            fatalError("copy config must load: \(error)")
        }
    }()

    @Test(arguments: [
        ("mailto:a@x.org?cc=c@x.org&bcc=secret@x.org", "a@x.org, c@x.org", true),
        ("mailto:a@x.org?bcc=secret@x.org,other@x.org", "a@x.org", true),
        ("mailto:?bcc=secret@x.org&subject=Hi", "mailto:?subject=Hi", true),
        ("mailto:a@x.org,b@y.org", "a@x.org, b@y.org", false),
        ("mailto:?subject=Hi", "mailto:?subject=Hi", false),
        ("mailto:%22a,b%22@example.org", "\"a,b\"@example.org", false),
        ("mailto:user@\u{FF47}\u{FF4F}\u{FF4F}\u{FF47}\u{FF4C}\u{FF45}.com", "user@google.com", false),
        ("https://example.org/?bcc=x", "https://example.org/?bcc=x", false),
        // The mailto fuzz target's finding: a combining mark (U+0610) after `=` joins it into one
        // Character, and a split on Characters kept this Bcc in the copy.
        ("mailto:?bcc=\u{0610}rg&subject=Hi", "mailto:?subject=Hi", true),
        ("mailto://mailto:?bcc=\u{0610}rg&&subject=Hi", "mailto://mailto?&subject=Hi", true),
    ])
    func copiesToAndCcOnly(url: String, text: String, leftOutBcc: Bool) throws {
        let copy = Self.engine.copy(for: try ParsedURL(url), template: nil)
        #expect(copy.text == text)
        #expect(copy.leftOutBcc == leftOutBcc)
        #expect(Self.engine.copyText(for: try ParsedURL(url), template: nil) == text)
        if url.hasPrefix("mailto:") { #expect(try Self.engine.decide(url).copyText == text) }
    }

    /// A template asked for its fields, `{bcc}` included: nothing is left out behind its back.
    @Test func aTemplateCopiesWhatItNames() throws {
        let copy = Self.engine.copy(for: try ParsedURL("mailto:a@x.org?bcc=s@x.org"), template: "{to} {bcc}")
        #expect(copy == RuleEngine.CopyText(text: "a@x.org s@x.org", leftOutBcc: false))
    }

    /// Until the decision refuses such a link, the address with the line break is in no list,
    /// so neither the copy nor `{to}` can carry it.
    @Test(arguments: ["mailto:a@b.com%0D%0ABcc:%20spy@evil.com", "mailto:ok@x.org?cc=a@b.com%0ABcc:spy@evil.com"])
    func noLineBreakReachesTheClipboard(url: String) throws {
        let parsed = try ParsedURL(url)
        #expect(MailtoURL(parsed).problem != nil)
        let copy = Self.engine.copy(for: parsed, template: nil)
        #expect(!copy.text.contains("\r") && !copy.text.contains("\n"))
        let to = Template.expand("{to},{cc}", fields: Template.fields(for: parsed, context: .text), context: .text)
        #expect(!to.contains("\r") && !to.contains("\n") && !to.contains("spy"))
    }
}

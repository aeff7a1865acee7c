import Testing
@testable import Execution
@testable import Notifying
import URLModel
import ConfigLanguage
import Routing
@testable import RoutingCore
import Foundation

/// Issue 23: every notification shows the host in the form that cannot mislead (ASCII for a
/// link judged warn or block), in the title and the body, and names what was found.
@Suite struct SafetyNotificationTextTests {
    static let engine: RuleEngine = {
        do {
            return RuleEngine(config: try ConfigLoader.load(text: """
                [[rules]]
                name = "Pay"
                match.domain = "paypal.com"
                open = "firefox:Banking"

                [[rules]]
                name = "copy mail"
                match.scheme = "mailto"
                copy = true

                [[rules]]
                name = "hold"
                match.domain = "hold.example"
                open = "browser.desktop"
                safety = "block"
                """.replacingOccurrences(of: "firefox:Banking", with: "browser.desktop"), path: "c.toml"))
        } catch { fatalError("\(error)") }
    }()

    @Test func aWarnedOpenNamesTheLookAlikeInASCII() throws {
        let decision = try Self.engine.decide("https://xn--pypal-4ve.com/login")
        let request = NotificationText.warned(decision, label: "Firefox")
        #expect(request.summary == "Careful: Opened xn--pypal-4ve.com in Firefox")
        #expect(request.body.hasPrefix("xn--pypal-4ve.com: looks like paypal.com, which your rule 'Pay' opens in browser.desktop"), "\(request.body)")
        #expect(!request.summary.contains("\u{430}") && !request.body.contains("\u{430}"), "no Cyrillic: \(request)")
    }

    @Test func aHeldLinkOffersOpenAnywayAndSaysNothingOpened() throws {
        let decision = try Self.engine.decide("https://hold.example/", context: LinkContext(linkText: "paypal.com"))
        #expect(decision.kind == .held)
        let request = NotificationText.held(decision, label: "Recording Browser")
        #expect(request.summary == "Link held: hold.example may mislead")
        #expect(request.body.contains("the link says paypal.com but goes to hold.example"))
        #expect(request.body.contains("Nothing was opened. Open anyway opens it in Recording Browser."), "\(request.body)")
        #expect(request.actions.map(\.key) == [NotificationText.openAnywayActionKey])
        #expect(request.actions.map(\.label) == ["Open anyway"])
    }

    @Test func aCopiedLookAlikeShowsOnlyASCIIAndTheWarning() throws {
        let url = try ParsedURL("https://xn--pypal-4ve.com/x")
        let decision = try Self.engine.decide(url.string)
        let request = NotificationText.copied(text: url.string, url: url, safety: decision.safety)
        #expect(request.summary == "Copied a link that may mislead")
        #expect(request.body.split(separator: "\n").first == "xn--pypal-4ve.com", "\(request.body)")
        #expect(request.body.contains("⚠ xn--pypal-4ve.com: looks like paypal.com"))
        // A safe IDN still shows both forms.
        let safe = try ParsedURL("https://b\u{FC}cher.de/")
        let plain = NotificationText.copied(text: safe.string, url: safe, safety: try Self.engine.decide(safe.string).safety)
        #expect(plain.body.hasPrefix("b\u{FC}cher.de (xn--bcher-kva.de)"), "\(plain.body)")
        #expect(plain.summary == "Copied link")
    }

    @Test func aLookAlikeMailAddressIsCopiedAndShownInASCII() throws {
        let url = try ParsedURL("mailto:boss@p\u{430}ypal.com")
        let decision = try Self.engine.decide(url.string)
        #expect(decision.kind == .copy)
        #expect(decision.safety.action == .notify)
        let request = NotificationText.copied(text: decision.copyText ?? "", url: url, safety: decision.safety)
        #expect(request.summary == "Copied an address that may mislead", "\(request.summary)")
        #expect(request.body.hasPrefix("boss@xn--pypal-4ve.com"), "\(request.body)")
    }

    @Test func theAskNotificationLeadsWithTheWarning() throws {
        let decision = try Self.engine.decide("https://xn--pypal-4ve.com/", forceAsk: true)
        let request = NotificationText.ask(url: try ParsedURL(decision.finalURL), choices: decision.choices, safety: decision.safety)
        #expect(request.summary == "Careful: open xn--pypal-4ve.com with…")
        let lines = request.body.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("⚠ xn--pypal-4ve.com: looks like paypal.com") == true, "\(lines)")
        #expect(lines.dropFirst().first == "xn--pypal-4ve.com", "the host line is ASCII only: \(lines)")
    }
}

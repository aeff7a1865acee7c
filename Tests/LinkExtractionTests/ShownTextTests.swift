import Foundation
import Testing
@testable import LinkExtraction

/// The text a link is shown as (`linkText`): Markdown, HTML and `text <url>`; nil for bare links.
@Suite struct ShownTextTests {
    /// The link text of the link whose URL is `url` in `input`.
    static func shown(_ input: String, url: String) -> String?? {
        LinkExtractor.extract(from: input).first { $0.url == url }.map(\.linkText)
    }

    @Test("link text found", arguments: [
        ("[paypal.com](https://evil.example/)", "https://evil.example/", "paypal.com"),
        ("see [the docs](https://example.com/docs) now", "https://example.com/docs", "the docs"),
        ("[**PayPal**](https://evil.example/)", "https://evil.example/", "PayPal"),
        ("[`paypal.com`](https://evil.example/ \"title\")", "https://evil.example/", "paypal.com"),
        ("[a [nested] text](https://example.com/x)", "https://example.com/x", "a [nested] text"),
        ("[Foo](https://en.wikipedia.org/wiki/Foo_(bar))", "https://en.wikipedia.org/wiki/Foo_(bar)", "Foo"),
        ("[paypal.com](<https://evil.example/>)", "https://evil.example/", "paypal.com"),
        ("<a href=\"https://evil.example/\">paypal.com</a>", "https://evil.example/", "paypal.com"),
        ("<A class=x HREF='https://evil.example/a?b=1' target=_blank>Pay<b>Pal</b>.com</A>", "https://evil.example/a?b=1", "PayPal.com"),
        ("<a href=\"https://evil.example/\">\n  Log in at  paypal&#46;com &amp; more\n</a>", "https://evil.example/", "Log in at paypal.com & more"),
        ("paypal.com <https://evil.example/>", "https://evil.example/", "paypal.com"),
        ("Mail \"PayPal Support\" <mailto:help@evil.example>", "mailto:help@evil.example", "PayPal Support"),
        ("(see paypal.com <https://evil.example/>)", "https://evil.example/", "paypal.com"),
    ])
    func found(_ input: String, _ url: String, _ text: String) {
        #expect(Self.shown(input, url: url) == .some(text), "\(input)")
    }

    @Test("no link text", arguments: [
        ("https://example.com/", "https://example.com/"),
        ("![paypal.com](https://evil.example/a.png)", "https://evil.example/a.png"),
        ("<https://example.com/x>", "https://example.com/x"),
        ("line one\n<https://example.com/x>", "https://example.com/x"),
        ("(https://example.com/a)", "https://example.com/a"),
        ("[ref]: https://example.com/r", "https://example.com/r"),
        ("<img src=\"https://example.com/i.png\">", "https://example.com/i.png"),
        ("<link data-href=\"https://example.com/s\">x</a>", "https://example.com/s"),
        ("<a href=\"https://example.com/e\"></a>", "https://example.com/e"),
        ("[](https://example.com/empty)", "https://example.com/empty"),
    ])
    func none(_ input: String, _ url: String) {
        #expect(Self.shown(input, url: url) == .some(nil), "\(input)")
    }

    @Test func theTextInsideIsStillALinkOfItsOwn() {
        let links = LinkExtractor.extract(from: "[paypal.com](https://evil.example/)")
        #expect(links.map(\.url) == ["http://paypal.com", "https://evil.example/"])
        #expect(links.map(\.linkText) == [nil, "paypal.com"])
    }

    /// Each look around a link is bounded: 256 KB of links in markup stays linear.
    @Test(arguments: ["[a](http://x.com)", "<a href=\"http://x.com\">", "](http://x.com)", "a <http://x.com> ", "[[[[](http://x.com)"])
    func hostileMarkupScalesLinearly(_ unit: String) {
        let repeats = (1 << 18) / unit.utf8.count
        let input = String(repeating: unit, count: repeats)
        let eighth = String(repeating: unit, count: repeats / 8)
        let clock = ContinuousClock()
        let baseline = (0..<3).map { _ in clock.measure { _ = LinkExtractor.extract(from: eighth) } }.min() ?? .zero
        let elapsed = (0..<3).map { _ in clock.measure { _ = LinkExtractor.extract(from: input) } }.min() ?? .zero
        #expect(elapsed < baseline * 32 + .milliseconds(50), "256 KB of \(unit.debugDescription) took \(elapsed); an eighth took \(baseline)")
    }
}

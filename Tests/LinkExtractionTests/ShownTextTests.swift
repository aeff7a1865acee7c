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

    /// One link per Markdown or HTML link: its shown text is its `linkText`, never a second link
    /// (which `extract --open` would open, without the text that makes the target a warning).
    @Test("the shown text is never a link of its own", arguments: [
        ("[paypal.com](https://evil.example/)", ["https://evil.example/"], ["paypal.com"]),
        ("[https://paypal.com/](https://evil.example/pay)", ["https://evil.example/pay"], ["https://paypal.com/"]),
        ("<a href=\"https://evil.example/\">www.paypal.com</a>", ["https://evil.example/"], ["www.paypal.com"]),
        ("<a href=\"https://evil.example/\"><b>https://paypal.com</b> now</a> and x.org", ["https://evil.example/", "http://x.org"], ["https://paypal.com now", nil]),
        ("paypal.com <https://evil.example/>", ["https://evil.example/"], ["paypal.com"]),
        ("see a.org, then [b.org](https://c.org/) and d.org", ["http://a.org", "https://c.org/", "http://d.org"], [nil, "b.org", nil]),
        ("[Docs](https://docs.example/) https://docs.example/", ["https://docs.example/", "https://docs.example/"], ["Docs", nil]),
    ] as [(String, [String], [String?])])
    func shownTextIsNotALink(_ input: String, _ urls: [String], _ texts: [String?]) {
        let links = LinkExtractor.extract(from: input)
        #expect(links.map(\.url) == urls, "\(input)")
        #expect(links.map(\.linkText) == texts, "\(input)")
    }

    @Test func theShownTextsBytesAreGiven() {
        let input = "é [paypal.com](https://evil.example/)"
        let link = LinkExtractor.extract(from: input)[0]
        let range = link.linkTextRange ?? 0..<0
        #expect(String(decoding: Array(input.utf8)[range], as: UTF8.self) == "paypal.com")
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

import Foundation
import Testing
@testable import LinkExtraction

/// A text and the links expected in it, as (text, url) pairs.
struct ExtractCase: Sendable, CustomTestStringConvertible {
    var input: String
    var links: [(text: String, url: String)]
    var schemes: Set<String> = LinkExtractor.defaultSchemes
    var options: LinkExtractor.Options = .default

    init(_ input: String, _ links: [(String, String)], schemes: Set<String> = LinkExtractor.defaultSchemes,
         options: LinkExtractor.Options = .default) {
        self.input = input
        self.links = links.map { (text: $0.0, url: $0.1) }
        self.schemes = schemes
        self.options = options
    }

    /// One link whose URL is the text itself.
    init(_ input: String, _ link: String) {
        self.init(input, [(link, link)])
    }

    var testDescription: String { input.count > 60 ? String(input.prefix(60)) + "…" : input }

    func check() {
        let found = LinkExtractor.extract(from: input, schemes: schemes, options: options)
        #expect(found.map(\.text) == links.map(\.text), "texts in \(input.debugDescription)")
        #expect(found.map(\.url) == links.map(\.url), "urls in \(input.debugDescription)")
        let bytes = Array(input.utf8)
        for link in found {
            #expect(String(decoding: bytes[link.utf8Range], as: UTF8.self) == link.text, "range of \(link.text)")
        }
    }
}

@Suite struct LinkExtractorTests {
    @Test("each kind of link", arguments: [
        ExtractCase("see https://example.com/a?b=c#d ok", "https://example.com/a?b=c#d"),
        ExtractCase("HTTP://Example.COM/X", [("HTTP://Example.COM/X", "http://Example.COM/X")]),
        ExtractCase("get ftp://files.example.org/pub/x.tgz", "ftp://files.example.org/pub/x.tgz"),
        ExtractCase("http://user:pw@example.com:8080/p", "http://user:pw@example.com:8080/p"),
        ExtractCase("http://intranet/wiki", "http://intranet/wiki"),
        ExtractCase("http://localhost:3000/x", "http://localhost:3000/x"),
        ExtractCase("run on localhost:3000 now", []),
        ExtractCase("//cdn.example.com/lib.js", [("//cdn.example.com/lib.js", "http://cdn.example.com/lib.js")]),
        ExtractCase("go to example.com/path now", [("example.com/path", "http://example.com/path")]),
        ExtractCase("www.example.org", [("www.example.org", "http://www.example.org")]),
        ExtractCase("docs at a.io and b.dev", [("a.io", "http://a.io"), ("b.dev", "http://b.dev")]),
        ExtractCase("router 192.168.1.1:8080/admin", [("192.168.1.1:8080/admin", "http://192.168.1.1:8080/admin")]),
        ExtractCase("node.js and image.jpg and v1.2.3", []),
        ExtractCase("example.invalid and foo.123", []),
        ExtractCase("mail me: mailto:someone@example.com?subject=Hi%20there",
                    "mailto:someone@example.com?subject=Hi%20there"),
        ExtractCase("MAILTO:NAME@EXAMPLE.COM", [("MAILTO:NAME@EXAMPLE.COM", "mailto:NAME@EXAMPLE.COM")]),
        ExtractCase("a http://x.com b //y.org c z.net d w@v.com",
                    [("http://x.com", "http://x.com"), ("//y.org", "http://y.org"), ("z.net", "http://z.net"),
                     ("w@v.com", "mailto:w@v.com")]),
    ])
    func kinds(_ example: ExtractCase) { example.check() }

    @Test("schemes passed in, and schemes left out", arguments: [
        ExtractCase("join zoommtg://zoom.us/join?confno=123 now", [("zoommtg://zoom.us/join?confno=123",
                    "zoommtg://zoom.us/join?confno=123")], schemes: LinkExtractor.defaultSchemes.union(["zoommtg"])),
        ExtractCase("call tel:+1-555-0100.", [("tel:+1-555-0100", "tel:+1-555-0100")], schemes: ["tel"]),
        ExtractCase("Slack:open", [("Slack:open", "slack:open")], schemes: ["SLACK"]),
        ExtractCase("join zoommtg://zoom.us/join?confno=123 now", []),
        ExtractCase("http://a.com b.com c@d.com", [], schemes: ["ftp"]),
        ExtractCase("mailto:c@d.com c@d.com e.com", [("e.com", "http://e.com")], schemes: ["http"]),
        ExtractCase("10.0.0.1 and 10.0.0.1.nip.io", [("10.0.0.1.nip.io", "http://10.0.0.1.nip.io")],
                    options: .init(bareIPv4: false)),
        ExtractCase("x.com y@z.com", [("x.com", "http://x.com")], options: .init(bareEmails: false)),
        ExtractCase("x.com //y.com http://z.com", [("http://z.com", "http://z.com")], options: .init(bareHosts: false)),
    ])
    func schemes(_ example: ExtractCase) { example.check() }

    @Test("trailing punctuation is left out", arguments: [".", ",", "!", "?", ":", ";", "'", "\"", "...", "?!", "!!!",
                                                         ")", "]", "}", ">", "”", "’", "。", "，", "）", "»"])
    func trailingPunctuation(_ mark: String) {
        ExtractCase("Visit https://example.com/page\(mark) now", "https://example.com/page").check()
        ExtractCase("Visit https://example.com/page\(mark)", "https://example.com/page").check()
        ExtractCase("Visit example.com\(mark)", [("example.com", "http://example.com")]).check()
        ExtractCase("Visit https://example.com\(mark)", "https://example.com").check()
    }

    @Test("punctuation inside a link is kept", arguments: [
        ExtractCase("https://example.com/a.b,c;d:e!f?g=h", "https://example.com/a.b,c;d:e!f?g=h"),
        ExtractCase("https://github.com/o/r/compare/abc...def", "https://github.com/o/r/compare/abc...def"),
        ExtractCase("https://example.com/it's-here", "https://example.com/it's-here"),
        ExtractCase("https://example.com/a--b-", "https://example.com/a--b-"),
        ExtractCase("https://example.com/“quoted”/x", "https://example.com/“quoted”/x"),
    ])
    func innerPunctuation(_ example: ExtractCase) { example.check() }

    @Test("brackets: balanced kept, unbalanced closer left out", arguments: [
        ExtractCase("https://en.wikipedia.org/wiki/Foo_(bar)", "https://en.wikipedia.org/wiki/Foo_(bar)"),
        ExtractCase("(see https://en.wikipedia.org/wiki/Foo_(bar))", "https://en.wikipedia.org/wiki/Foo_(bar)"),
        ExtractCase("(https://example.com/a)", "https://example.com/a"),
        ExtractCase("[https://example.com/a]", "https://example.com/a"),
        ExtractCase("{https://example.com/a}", "https://example.com/a"),
        ExtractCase("https://example.com/[x]/y", "https://example.com/[x]/y"),
        ExtractCase("https://example.com/{id}?q=(1)", "https://example.com/{id}?q=(1)"),
        ExtractCase("https://example.com/a(b c)", "https://example.com/a"),
        ExtractCase("https://example.com/a(b", "https://example.com/a"),
    ])
    func brackets(_ example: ExtractCase) { example.check() }

    @Test("Markdown and angle-bracket forms give the URL", arguments: [
        ExtractCase("[docs](https://example.com/docs)", "https://example.com/docs"),
        ExtractCase("[Foo](https://en.wikipedia.org/wiki/Foo_(bar)) and more",
                    "https://en.wikipedia.org/wiki/Foo_(bar)"),
        ExtractCase("![img](https://example.com/a.png \"title\")", "https://example.com/a.png"),
        ExtractCase("<https://example.com/x>", "https://example.com/x"),
        ExtractCase("<example.com/x>.", [("example.com/x", "http://example.com/x")]),
        ExtractCase("<user@example.com>", [("user@example.com", "mailto:user@example.com")]),
        ExtractCase("> quoted: https://example.com/q", "https://example.com/q"),
    ])
    func markdown(_ example: ExtractCase) { example.check() }

    @Test("emails", arguments: [
        ExtractCase("foo+bar@gmail.com", [("foo+bar@gmail.com", "mailto:foo+bar@gmail.com")]),
        ExtractCase("(email@example.com)", [("email@example.com", "mailto:email@example.com")]),
        ExtractCase("\"a.b@example.co.uk\".", [("a.b@example.co.uk", "mailto:a.b@example.co.uk")]),
        ExtractCase("root@10.0.0.1", [("root@10.0.0.1", "mailto:root@10.0.0.1")]),
        ExtractCase("foo@bar and @example.com and user@localhost", []),
        ExtractCase("mailto:foo@bar", "mailto:foo@bar"),
        ExtractCase("mailto:bar", []),
    ])
    func emails(_ example: ExtractCase) { example.check() }

    @Test("IDN hosts and Unicode paths", arguments: [
        ExtractCase("http://пример.рф/путь", "http://пример.рф/путь"),
        ExtractCase("сайт пример.рф!", [("пример.рф", "http://пример.рф")]),
        ExtractCase("bücher.de/straße", [("bücher.de/straße", "http://bücher.de/straße")]),
        ExtractCase("http://例子.测试/路径", "http://例子.测试/路径"),
        ExtractCase("xn--d1acpjx3f.xn--p1ai", [("xn--d1acpjx3f.xn--p1ai", "http://xn--d1acpjx3f.xn--p1ai")]),
        ExtractCase("見て https://example.jp/ページ。次", "https://example.jp/ページ"),
    ])
    func international(_ example: ExtractCase) { example.check() }

    @Test("byte ranges, including after multi-byte characters", arguments: [
        ("a.com b.com", [0..<5, 6..<11]),
        ("ü example.com", [3..<14]),
        ("😀😀 a.com", [9..<14]),
        ("日本語 https://x.jp/é ok", [10..<25]),
        ("(é@x.com) e@x.com", [11..<18]),
    ])
    func ranges(_ input: String, _ expected: [Range<Int>]) {
        let found = LinkExtractor.extract(from: input)
        #expect(found.map(\.utf8Range) == expected)
        let bytes = Array(input.utf8)
        for link in found {
            #expect(String(decoding: bytes[link.utf8Range], as: UTF8.self) == link.text)
        }
    }

    @Test("control characters end links", arguments: [
        ExtractCase("http://a.com\0b", "http://a.com"),
        ExtractCase("http://a.com/x\ny.com", [("http://a.com/x", "http://a.com/x"), ("y.com", "http://y.com")]),
        ExtractCase("\u{0}a.com\u{7}", [("a.com", "http://a.com")]),
        ExtractCase("http://a.com/x\u{00A0}y", "http://a.com/x"),
        ExtractCase("", []),
    ])
    func controls(_ example: ExtractCase) { example.check() }

    /// Each hostile unit repeated to 1 MB: the scan must stay linear, and still find what is
    /// there. Linear is checked against a baseline from the same run (an eighth of the input):
    /// eight times the input may take about eight times as long (32× allowed, for a loaded
    /// machine's noise), a rescan would take sixty-four.
    /// No absolute limit, so it holds under sanitizers and on a loaded machine.
    @Test("hostile 1 MB inputs scale linearly", arguments: [
        (".", 0), ("(", 0), ("@", 0), (":", 0), ("/", 0), ("\0", 0), ("\n", 0), ("a.", 0), ("a@", 0),
        ("a.com/(", -1), ("http://", -2), ("x@a.", 0), ("'a", 0), ("a:", 0), ("[((", 0),
    ])
    func hostile(_ unit: String, _ expectedLinks: Int) {
        let repeats = (1 << 20) / unit.utf8.count
        let input = String(repeating: unit, count: repeats)
        let eighth = String(repeating: unit, count: repeats / 8)
        let clock = ContinuousClock()
        var found: [ExtractedLink] = []
        // The best of three runs each, so one descheduling does not decide.
        let baseline = (0..<3).map { _ in clock.measure { _ = LinkExtractor.extract(from: eighth) } }.min() ?? .zero
        let elapsed = (0..<3).map { _ in clock.measure { found = LinkExtractor.extract(from: input) } }.min() ?? .zero
        // -1: one link a unit; -2: one link every two units (`http://http` then `://`).
        let expected = expectedLinks == -1 ? repeats : expectedLinks == -2 ? repeats / 2 : expectedLinks
        #expect(found.count == expected)
        #expect(elapsed < baseline * 32 + .milliseconds(50),
                "1 MB of \(unit.debugDescription) took \(elapsed); an eighth of it took \(baseline): not linear")
    }
}

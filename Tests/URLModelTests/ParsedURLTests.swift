import Testing
@testable import URLModel
@testable import Patterns

@Suite struct ParsedURLTests {
    @Test(arguments: [
        ("HTTPS://Example.ORG", "https://example.org/"),
        ("http://example.org:80/a?b#c", "http://example.org/a?b#c"),
        ("https://example.org:443/", "https://example.org/"),
        ("https://example.org:8443/x", "https://example.org:8443/x"),
        // The URL Standard percent-encodes non-ASCII in the path (this kept `straße` before issue 22).
        ("https://bücher.de/straße", "https://xn--bcher-kva.de/stra%C3%9Fe"),
        ("https://user:pw@Example.org/", "https://user:pw@example.org/"),
        ("  https://example.org/a b  ", "https://example.org/a%20b"),
        ("https://[::1]:8080/", "https://[::1]:8080/"),
        ("mailto:a@example.org?subject=Hi", "mailto:a@example.org?subject=Hi"),
        ("https://example.org/$(touch x)`id`'\"", "https://example.org/$(touch%20x)%60id%60'%22"),
        // Tabs and line breaks are removed, other controls percent-encoded (refused before issue 22).
        ("https://example.org/\na", "https://example.org/a"),
        ("https://example.org/\0a", "https://example.org/%00a"),
        ("mailto:a@example.org?subject=\u{01}x y", "mailto:a@example.org?subject=%01x%20y"),
        ("https://example.org/%zz%4", "https://example.org/%zz%4"),
        ("javascript:alert(1)", "javascript:alert(1)"),
        ("data:text/html,<b>x</b>", "data:text/html,<b>x</b>"),
        ("file:///etc/passwd", "file:///etc/passwd"),
    ])
    func normalises(input: String, expected: String) throws {
        #expect(try ParsedURL(input).string == expected)
    }

    @Test func idnHostIsAvailableInBothForms() throws {
        let url = try ParsedURL("https://xn--bcher-kva.de/")
        #expect(url.host == "xn--bcher-kva.de")
        #expect(url.unicodeHost == "bücher.de")
    }

    @Test(arguments: [
        ("", "empty URL"),
        ("example.org", "no scheme"),
        ("://x", "no scheme"),
        ("foo://a\u{01}b/", "U+0001"),
        ("https://exa mple.org/", "invalid host"),
        ("https://", "has no host"),
        ("https://u@:80/", "has no host"),
        ("https://example.org:99999/", "invalid port"),
        ("https://[::1/", "closing ]"),
    ])
    func rejectsWithAClearMessage(input: String, fragment: String) {
        do {
            _ = try ParsedURL(input)
            Issue.record("accepted \(input)")
        } catch {
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    @Test func longestURLParses() throws {
        let url = "https://example.org/" + String(repeating: "a", count: ParsedURL.maximumLength - 20)
        #expect(try ParsedURL(url).string.utf8.count == ParsedURL.maximumLength)
    }

    @Test func overlongURLIsRefused() {
        let url = "https://example.org/" + String(repeating: "a", count: ParsedURL.maximumLength)
        #expect(throws: URLParseError.self) { try ParsedURL(url) }
    }
}

@Suite struct MailtoURLTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var url: String
        var to: [String]
        var cc: [String] = []
        var bcc: [String] = []
        var subject: String? = nil
        var body: String? = nil
        var testDescription: String { url }
    }

    @Test(arguments: [
        Case(url: "mailto:a@example.org", to: ["a@example.org"]),
        Case(url: "mailto:a@x.org,b@y.org", to: ["a@x.org", "b@y.org"]),
        Case(url: "mailto:a%40x.org?to=b@y.org", to: ["a@x.org", "b@y.org"]),
        Case(url: "mailto:?to=a@x.org&cc=c@x.org,d@x.org&bcc=e@x.org", to: ["a@x.org"], cc: ["c@x.org", "d@x.org"], bcc: ["e@x.org"]),
        Case(url: "mailto:a@x.org?subject=Hello%20there&body=Line1%0D%0ALine2", to: ["a@x.org"], subject: "Hello there", body: "Line1\r\nLine2"),
        Case(url: "mailto:a+tag@x.org?SUBJECT=a+b", to: ["a+tag@x.org"], subject: "a+b"),
        Case(url: "mailto:a@x.org?subject=Hi%0ABcc:%20evil@x.org", to: ["a@x.org"], subject: "Hi\nBcc: evil@x.org"),
    ])
    func readsFields(testCase: Case) throws {
        let mailto = MailtoURL(try ParsedURL(testCase.url))
        #expect(mailto.to == testCase.to)
        #expect(mailto.cc == testCase.cc)
        #expect(mailto.bcc == testCase.bcc)
        #expect(mailto.subject == testCase.subject)
        #expect(mailto.body == testCase.body)
    }
}

@Suite struct PunycodeTests {
    @Test(arguments: [
        ("bücher", "bcher-kva"), ("münchen", "mnchen-3ya"), ("例え", "r8jz45g"), ("пример", "e1afmkfd"),
    ])
    func roundTrips(unicode: String, encoded: String) {
        #expect(Punycode.encode(unicode) == encoded)
        #expect(Punycode.decode(encoded) == unicode)
    }

    @Test func malformedInputDecodesToNil() {
        #expect(Punycode.decode("!!!") == nil)
        #expect(Punycode.toUnicode(host: "xn--!!!.de") == "xn--!!!.de")
    }
}

@Suite struct GlobTests {
    @Test(arguments: [
        ("/j/*", "/", "/j/123", true),
        ("/j/*", "/", "/j/1/2", false),
        ("/j/**", "/", "/j/1/2", true),
        ("*.example.com", ".", "a.example.com", true),
        ("*.example.com", ".", "a.b.example.com", false),
        ("**.example.com", ".", "a.b.example.com", true),
        ("file?.txt", "/", "file1.txt", true),
        ("[abc]x", "/", "bx", true),
        ("[!abc]x", "/", "bx", false),
        ("a\\*b", "/", "a*b", true),
        ("a\\*b", "/", "axb", false),
        ("(x)+", "/", "(x)+", true),
    ] as [(String, String, String, Bool)])
    func matches(pattern: String, separator: String, text: String, expected: Bool) throws {
        let glob = try Glob(pattern, separator: separator.first)
        #expect(glob.matches(text) == expected)
    }

    @Test func caseInsensitiveGlobs() throws {
        #expect(try Glob("*@Corp.Example.com", caseInsensitive: true).matches("Boss@corp.example.COM"))
        #expect(try Glob("Slack", caseInsensitive: true).matches("slack"))
    }

    @Test func unclosedClassIsAnError() {
        #expect(throws: Glob.SyntaxError.self) { try Glob("[abc") }
        #expect(throws: Glob.SyntaxError.self) { try Glob("abc\\") }
    }
}

@Suite struct NormalisationTests {
    /// Normalising twice changes nothing, and a URL already in normal form comes back as it was.
    @Test(arguments: [
        "https://example.org/", "HTTPS://EXAMPLE.org:443", "http://a.b:8080/x y?q#f", "https://bücher.de/",
        "mailto:A@B.org?subject=x", "https://[::1]:443/", "https://u:p@Host.example:0080/", " https://x.org ", "https://x.org:/",
        "ftp://X.org:21/a", "zoommtg://zoom.us/join?confno=1",
    ])
    func isIdempotent(input: String) throws {
        let once = try ParsedURL(input).string
        #expect(try ParsedURL(once).string == once)
    }

    @Test(arguments: ["https://example.org/a?b=1#c", "mailto:a@example.org", "https://xn--bcher-kva.de/x", "https://x.org:8443/"])
    func normalFormIsKept(input: String) throws {
        #expect(try ParsedURL(input).string == input)
    }
}

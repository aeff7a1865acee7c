import Testing
@testable import URLModel

/// What follows the host of a special URL, read by the URL Standard's path, query and fragment
/// states (issue 22): the path rules match is the path the browser opens.
@Suite struct URLPathStateTests {
    @Test(arguments: [
        // Dot segments, in every spelling the standard knows, are applied.
        ("https://example.com/x/../admin/x", "/admin/x"),
        ("https://example.com/%2e%2e/admin/x", "/admin/x"),
        ("https://example.com/./admin/x", "/admin/x"),
        ("https://example.com/.%2E/admin", "/admin"),
        ("https://example.com/%2E./admin", "/admin"),
        ("https://example.com/a/b/%2E%2e/c", "/a/c"),
        ("https://zoom.us/x/../j/123", "/j/123"),
        ("https://zoom.us/j/123/../../evil", "/evil"),
        ("https://example.com/a/.", "/a/"),
        ("https://example.com/a/%2e", "/a/"),
        ("https://example.com/a/..", "/"),
        ("https://example.com/..", "/"),
        ("https://example.com/../../../etc", "/etc"),
        ("https://example.com//../a", "/a"),
        ("https://example.com/a//..", "/a/"),
        // Not dot segments: kept.
        ("https://example.com/a/...", "/a/..."),
        ("https://example.com/a/..b", "/a/..b"),
        ("https://example.com/a/%2e%2e%2e", "/a/%2e%2e%2e"),
        ("https://example.com/a/%2", "/a/%2"),
        ("https://example.com/a/.%2", "/a/.%2"),
        // `\` is `/` in a special path.
        ("https://example.com\\a\\..\\b", "/b"),
        ("https://example.com/a\\b", "/a/b"),
        ("https:\\\\example.com\\.\\x", "/x"),
        // The path percent-encode set.
        ("https://example.com/ \"<>^`{}", "/%20%22%3C%3E%5E%60%7B%7D"),
        ("https://example.com/|[]!$&'()*+,;=:@~", "/|[]!$&'()*+,;=:@~"),
        ("https://example.com/straße/\u{7F}\u{01}x", "/stra%C3%9Fe/%7F%01x"),
        ("https://example.com/%41%zz%", "/%41%zz%"),
        ("https://example.com", "/"),
        ("https://example.com?q", "/"),
        ("ws://example.com/a/../b", "/b"),
        ("wss://example.com/./b", "/b"),
        ("ftp://example.com/a/%2e%2e/b", "/b"),
    ])
    func pathIsTheStandards(input: String, path: String) throws {
        let url = try ParsedURL(input)
        #expect(url.path == path)
        // The URL handed on re-parses to itself.
        #expect(try ParsedURL(url.string).string == url.string)
    }

    @Test(arguments: [
        // The special-query set: space, `"`, `#` (ends it), `<`, `>`, `'`; `\` stays in a query.
        ("https://h/?a b\"<>'\\|`{}^", "https://h/?a%20b%22%3C%3E%27\\|`{}^"),
        ("https://h/?/../x/./y", "https://h/?/../x/./y"),
        // The fragment set: space, `"`, `<`, `>`, `` ` ``.
        ("https://h/#a b\"<>`'#{}", "https://h/#a%20b%22%3C%3E%60'#{}"),
        ("https://h/?q=\u{1F525}#\u{1F525}", "https://h/?q=%F0%9F%94%A5#%F0%9F%94%A5"),
        // The userinfo set.
        ("https://a b:c;d@h/", "https://a%20b:c%3Bd@h/"),
        ("https://u:p@q@h/", "https://u:p%40q@h/"),
        // Tabs and line breaks go anywhere, even inside the scheme; controls are encoded.
        ("h\tt\nt\rps://ex\tample.org/p\ta\nt\rh?q\tu#f\tr", "https://example.org/path?qu#fr"),
        ("https://h/\0a?\0b#\0c", "https://h/%00a?%00b#%00c"),
        (" \u{0}\u{1B}https://h/\u{1F} \r", "https://h/"),
    ])
    func serialisesAsTheStandard(input: String, expected: String) throws {
        let url = try ParsedURL(input)
        #expect(url.string == expected)
        #expect(try ParsedURL(url.string).string == url.string)
    }

    /// A URL already in normal form is returned as the very string given.
    @Test(arguments: ["https://example.org/a/b.c?x=1&y=%20#top", "https://h/|[]", "wss://h:8443/%2e%2e%2e", "https://h/?a\\b"])
    func normalFormIsKept(input: String) throws {
        #expect(try ParsedURL(input).string == input)
    }

    /// URLs of other schemes keep their text: nothing to align with a browser there (README).
    @Test(arguments: [
        ("zoommtg://zoom.us/x/../join?confno=1", "zoommtg://zoom.us/x/../join?confno=1"),
        ("mailto:a@example.org?subject=\u{7F}", "mailto:a@example.org?subject=%7F"),
        ("file:///etc/../passwd", "file:///etc/../passwd"),
    ])
    func otherSchemesKeepTheirText(input: String, expected: String) throws {
        #expect(try ParsedURL(input).string == expected)
    }

    @Test func aURLThatOutgrowsTheLimitOncePercentEncodedIsRefused() {
        let url = "https://example.org/" + String(repeating: "\u{FC}", count: 50_000)
        do {
            _ = try ParsedURL(url)
            Issue.record("accepted a URL of \(url.utf8.count * 3) bytes once encoded")
        } catch {
            #expect(error.message.contains("once percent-encoded"), "\(error.message)")
        }
    }
}

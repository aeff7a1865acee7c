import SiteLists
import Testing
import URLModel

/// The pattern semantics as Chrome's Legacy Browser Support documents them for
/// `BrowserSwitcherParsingMode` = IESiteListMode and the BrowserSwitcher README.
struct SiteListMatchingTests {
    static func list(_ lines: String) throws -> SiteList {
        try SiteList.parse(Array(lines.utf8), format: .lines)
    }

    static func switches(_ list: SiteList, _ url: String, greylists: [SiteList] = []) throws -> Bool {
        if case .go = list.verdict(for: try ParsedURL(url), greylists: greylists) { return true }
        return false
    }

    /// The policy's own example: rules "example.com" and "acme.com/abc".
    @Test(arguments: [
        ("http://example.com/", true), ("http://subdomain.example.com/", true), ("http://acme.com/abc", true),
        ("https://example.com/any/path?q=1", true), ("http://acme.com/ABC", true), ("http://acme.com/abcdef", true),
        ("http://notexample.com/", false), ("http://example.com.invalid.com/", false), ("http://example.comabc/", false),
        ("http://acme.com/", false), ("http://acme.com/ab", false), ("mailto:someone@example.com", false),
    ])
    func parsingModeExamples(url: String, expected: Bool) throws {
        let list = try Self.list("example.com\nacme.com/abc\n")
        #expect(try Self.switches(list, url) == expected, "\(url)")
    }

    /// The README's: the longer rule wins, and "!" inverts it.
    @Test(arguments: [
        ("http://foo.example.com/", false), ("http://bar.foo.example.com/", false), ("http://example.com/", true), ("http://www.example.com/", true),
    ])
    func longestRuleWinsAndBangInverts(url: String, expected: Bool) throws {
        let list = try Self.list("example.com\n!foo.example.com\n")
        #expect(try Self.switches(list, url) == expected, "\(url)")
    }

    @Test(arguments: [
        ("contoso.com:8080", "http://contoso.com:8080/x", true), ("contoso.com:8080", "http://contoso.com/", false),
        ("https://secure.example", "https://secure.example/", true), ("https://secure.example", "http://secure.example/", false),
        ("http://plain.example/login", "http://plain.example/Login/form", true), ("*", "https://anything.example/", true),
        ("/leading.example", "https://leading.example/", true), ("ÉCOLE.example", "https://xn--cole-9oa.example/", true),
        ("user:pw@creds.example/x?query=1#f", "https://creds.example/x/y", true),
    ])
    func partsOfAPattern(pattern: String, url: String, expected: Bool) throws {
        #expect(try Self.switches(Self.list(pattern), url) == expected, "\(pattern) vs \(url)")
    }

    /// A greylist keeps a site from switching when it is more specific, or when the site is only "*".
    @Test(arguments: [
        ("example.com", "sso.example.com", "https://sso.example.com/", false),
        ("example.com", "sso.example.com", "https://www.example.com/", true),
        ("app.example.com/legacy", "example.com", "https://app.example.com/legacy/x", true),
        ("*", "neutral.example", "https://neutral.example/", false),
        ("*", "neutral.example", "https://other.example/", true),
    ])
    func greylists(sites: String, grey: String, url: String, expected: Bool) throws {
        #expect(try Self.switches(Self.list(sites), url, greylists: [Self.list(grey)]) == expected, "\(url)")
    }

    @Test(arguments: [
        ("ftp://files.example", "1:1: \"ftp://files.example\": \"ftp://\" patterns are not routed"),
        ("*.example.com", "1:1: \"*.example.com\": wildcards are not part of site-list patterns"),
        ("!", "1:1: \"!\": \"!\" must be followed by a site"),
    ])
    func badPatternsAreErrorsAtTheirLine(text: String, expected: String) {
        #expect {
            try Self.list(text)
        } throws: { error in
            (error as? SiteListError).map { "\($0)".hasPrefix(expected) } ?? false
        }
    }

    @Test func linesSkipCommentsAndBlankLinesAndKeepLineNumbers() throws {
        let list = try Self.list("# managed by puppet\n\n  intranet.example  \n!public.intranet.example\n")
        #expect(list.entries.map(\.line) == [3, 4])
        #expect(list.entries.map(\.kind) == [.site, .exception])
        #expect(list.version == nil)
        #expect {
            try Self.list("good.example\n\n   bad host.example\n")
        } throws: { error in
            (error as? SiteListError)?.line == 3 && (error as? SiteListError)?.column == 4
        }
    }

    /// Issue 31 case 6: a list past `maximumEntries` once was refused whole; now its first
    /// entries are in force and those past the limit counted, with the line of the first.
    @Test func entriesPastTheLimitAreSkippedAndCounted() throws {
        let limit = SiteList.maximumEntries
        let list = try Self.list("# header\n" + (0..<(limit + 3)).map { "s\($0).example\n" }.joined())
        #expect(list.entries.count == limit)
        #expect(list.skipped == 3 && list.firstSkippedLine == limit + 2)
        #expect(list.skippedNote == "3 entries past the first \(limit) skipped (from line \(limit + 2) on); the first \(limit) are in force")
        #expect(try Self.switches(list, "https://s\(limit - 1).example/"))
        #expect(try !Self.switches(list, "https://s\(limit).example/"))
        #expect(try Self.list("a.example\n").skippedNote == nil)
    }

    @Test func anEnterpriseModeListPastTheLimitIsCutToo() throws {
        let limit = SiteList.maximumEntries
        let sites = (0..<(limit + 2)).map { "<site url=\"s\($0).example\"><open-in>IE11</open-in></site>\n" }.joined()
        let list = try SiteList.parse(Array(("<site-list version=\"1\">\n" + sites + "</site-list>\n").utf8), format: .emieV2)
        #expect(list.entries.count == limit && list.skipped == 2 && list.firstSkippedLine == limit + 2)
    }
}

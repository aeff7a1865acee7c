import Testing
import Patterns
import ConfigLanguage
import Routing
import RoutingCore

/// The literal a regex rule's every match holds, which lets the rule index skip the regex gate.
/// Read conservatively: when unsure, no literal (and the gate runs as before).
struct RequiredLiteralsTests {
    @Test(arguments: [
        ("^https://[a-z]+\\.r88\\.example/", ".r88.example/"),
        ("^https?://(www\\.)?example\\.com/login", "example.com/login"),
        ("abcx*defg", "defg"),
        ("foo\\d+barbaz", "barbaz"),
        ("ab+cdef", "cdef"),
        ("xyz+", "xyz"),
        ("[[:alpha:]]+abc", "abc"),
        ("[]a]bcd", "bcd"),
        ("x(?:a|b)+yyy", "yyy"),
        ("tracker\\.example/[^/]+/pixel", "tracker.example/"),
        ("a\\.b\\.c", "a.b.c"),
        ("evil{2}host", "host"),
    ])
    func aLiteralEveryMatchHolds(pattern: String, literal: String) {
        #expect(RequiredLiterals.literal(in: pattern) == Array(literal.utf8), "\(pattern)")
    }

    @Test(arguments: [
        "abc|def",              // a top-level alternative needs neither
        "(?i)example",          // case-insensitive: bytes would not match
        "\\Qa.b.c\\E",          // quoting not read
        "\\x41bcdef",           // an escape that reads on
        "(a)\\1xyz",            // a back-reference
        "ab",                   // too short to be worth a scan
        "(*UTF)example",        // a verb
        "café\\.com",           // a quantifiable character of several bytes
        "a{x}bcd",              // a brace that is not a quantifier
        "[abc",                 // unclosed
        "x(abc",
    ])
    func noLiteralWhenUnsure(pattern: String) {
        #expect(RequiredLiterals.literal(in: pattern) == nil, "\(pattern)")
    }

    /// Held against PCRE2 itself: wherever one of the patterns matches, the scan says it may.
    @Test func neverSaysNoWherePCRE2MatchesSomething() throws {
        let patterns = ["^https://[a-z]+\\.r88\\.example/", "^https?://(www\\.)?example\\.com/login", "foo\\d+barbaz", "tracker\\.example/[^/]+/pixel",
                        "[[:alpha:]]+abc", "ab+cdef", "\\.pdf$"]
        let literals = try #require(RequiredLiterals(patterns: patterns))
        let regexes = try patterns.map { try PatternRegex($0) }
        var texts = ["https://www.r88.example/", "https://x.r88.example/a", "http://example.com/login", "https://www.example.com/login?x",
                     "foo1barbaz", "https://tracker.example/abc/pixel", "xyzabc", "abbbcdef", "https://h.example/file.pdf",
                     "https://www.site7.example/page", "mailto:a@b.example", "", "ab", "https://r88.example/"]
        for index in 0..<400 {
            texts.append("https://h\(index % 7).r\(index % 90).example/\(index % 3 == 0 ? "login" : "p")/\(index).pdf")
        }
        for text in texts where regexes.contains(where: { $0.matches(text) }) {
            #expect(literals.mayMatch(text), "\(text)")
        }
        #expect(!literals.mayMatch("https://www.site7.example/page?utm_source=x"))
        #expect(RequiredLiterals(patterns: patterns + ["a|b"]) == nil, "one pattern without a literal: no prefilter")
    }

    /// Rules behind the gate decide as they did: the first match is the same with regex rules
    /// the scan rules out and ones it lets through.
    @Test func regexRulesDecideTheSame() throws {
        let config = try ConfigLoader.load(text: """
            [default]
            open = "firefox.desktop"
            [[rules]]
            name = "docs"
            match.regex = "^https://[a-z]+\\\\.docs\\\\.example/"
            open = "a.desktop"
            [[rules]]
            name = "pdf"
            match.regex = "\\\\.pdf$"
            open = "b.desktop"
            [[rules]]
            match.domain = "site.example"
            open = "c.desktop"
            """, path: "t.toml")
        let engine = RuleEngine(config: config)
        #expect(try engine.decide("https://www.docs.example/x").rule == .named("docs"))
        #expect(try engine.decide("https://site.example/x.pdf").rule == .named("pdf"))
        #expect(try engine.decide("https://site.example/x").rule == .index(3))
        #expect(try engine.decide("https://other.example/").rule == nil)
    }
}

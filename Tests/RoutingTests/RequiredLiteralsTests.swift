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

/// Patterns and a text each matches, made together from a small grammar (literals, escapes,
/// classes, dots, groups with alternatives, quantifiers, anchors, now and then a top-level `|`):
/// whenever a literal is read from the pattern, the text holds it, and PCRE2 agrees the text
/// matches. A literal that is not in every match would skip a rule that should have decided.
struct RequiredLiteralsGrammarTests {
    /// A deterministic generator (SplitMix64), so a failure is the same on every run.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static let letters = Array("abcde./-_".utf8)

    /// One atom and a text it matches.
    static func atom(_ random: inout Generator, depth: Int) -> (pattern: String, text: String) {
        switch random.next(depth > 1 ? 8 : 10) {
        case 0...5:
            let byte = letters[random.next(letters.count)]
            let character = String(UnicodeScalar(byte))
            return (byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") ? "\\" + character : character, character)
        case 6:
            let members = ["abc", "x-z", "^/", "[:digit:]"][random.next(4)]
            let text = ["abc": "b", "x-z": "y", "^/": "q", "[:digit:]": "7"][members] ?? "b"
            return ("[" + members + "]", text)
        case 7:
            let which = random.next(3)
            return ([".", "\\d", "\\w"][which], ["k", "4", "w"][which])
        default:
            let first = sequence(&random, depth: depth + 1), second = sequence(&random, depth: depth + 1)
            let chosen = random.next(2) == 0 ? first.text : second.text
            return ((random.next(2) == 0 ? "(?:" : "(") + first.pattern + "|" + second.pattern + ")", chosen)
        }
    }

    /// Atoms, some quantified, and a text they match.
    static func sequence(_ random: inout Generator, depth: Int) -> (pattern: String, text: String) {
        var pattern = "", text = ""
        for _ in 0..<(1 + random.next(depth == 0 ? 8 : 3)) {
            let (atomPattern, atomText) = atom(&random, depth: depth)
            // A group is repeated only a fixed number of times: nested * and + make patterns
            // PCRE2 gives up on (its backtracking limit), which would say nothing here.
            switch random.next(14) {
            case 0, 1 where atomPattern.hasPrefix("("): pattern += atomPattern + "{2}"; text += atomText + atomText
            case 0: pattern += atomPattern + "*"; text += String(repeating: atomText, count: random.next(3))
            case 1: pattern += atomPattern + "+"; text += String(repeating: atomText, count: 1 + random.next(2))
            case 2: pattern += atomPattern + "?"; text += random.next(2) == 0 ? atomText : ""
            case 3: pattern += atomPattern + "{2}"; text += atomText + atomText
            case 4: pattern += atomPattern + "{0,1}?"; text += random.next(2) == 0 ? atomText : ""
            default: pattern += atomPattern; text += atomText
            }
        }
        return (pattern, text)
    }

    @Test func aLiteralReadFromAPatternIsInEveryTextItMatches() throws {
        var random = Generator(state: 32)
        var withLiteral = 0
        for _ in 0..<4_000 {
            var (pattern, text) = Self.sequence(&random, depth: 0)
            if random.next(10) == 0 {
                let other = Self.sequence(&random, depth: 1)
                pattern += "|" + other.pattern
                if random.next(2) == 0 { text = other.text }
            }
            let anchored = random.next(3) == 0
            if anchored { pattern = "^" + pattern }
            let regex = try PatternRegex(pattern)
            let subject = (anchored ? "" : "https://h.example/") + text + "?q"
            #expect(regex.matches(subject), "the grammar's text does not match: \(pattern) / \(subject)")
            guard let literal = RequiredLiterals.literal(in: pattern) else { continue }
            withLiteral += 1
            // What the scan relies on: a text the pattern matches holds the literal.
            #expect(Array(subject.utf8).windows(literal.count).contains(literal),
                    "\(pattern): the literal \(String(decoding: literal, as: UTF8.self)) is not in \(subject)")
        }
        #expect(withLiteral > 300, "the grammar gave few patterns with a literal (\(withLiteral))")
    }
}

extension Array where Element == UInt8 {
    /// Every run of `length` consecutive bytes.
    func windows(_ length: Int) -> [[UInt8]] {
        guard length > 0, length <= count else { return [] }
        return (0...(count - length)).map { Array(self[$0..<($0 + length)]) }
    }
}

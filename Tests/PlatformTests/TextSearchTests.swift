import Foundation
import Testing
import Platform

@Suite struct TextSearchTests {
    /// Found where Foundation's `range(of:)` finds them, for the ASCII needles the product looks
    /// for, in ASCII and non-ASCII text, at the start, the end, overlapping and not at all.
    @Test(arguments: [
        ("/var/lib/snapd/desktop/applications/x.desktop", "/snapd/desktop/"), ("https://a.example/", "://"),
        ("no scheme here", "://"), ("aaab", "aab"), ("abab", "bab"), ("", "x"), ("x", "xy"), ("xy", "xy"),
        ("Café http://x ☕", "http://"), ("日本語 https://例え.jp", "https://"), ("tail %s", "%s"), ("%", "%s"),
    ])
    func firstRangeMatchesFoundation(_ text: String, _ needle: String) {
        let ours = text.firstRange(ofText: needle).map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) }
        let foundation = text.range(of: needle).map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) }
        #expect(ours == foundation)
        #expect(text.containsText(needle) == (foundation != nil))
    }

    /// Every occurrence, without overlaps, as many as Foundation's `components(separatedBy:)`
    /// finds separators; in a substring the search stays inside it.
    @Test(arguments: [("a::b::::c", "::"), ("::", "::"), ("aaaa", "aa"), ("none", "::"), ("x, y,, z", ", ")])
    func rangesMatchFoundation(_ text: String, _ separator: String) {
        #expect(text.ranges(ofText: separator).count == text.components(separatedBy: separator).count - 1)
        let inner = text.dropFirst().dropLast()
        #expect(inner.ranges(ofText: separator).count == String(inner).components(separatedBy: separator).count - 1)
        for range in inner.ranges(ofText: separator) { #expect(inner[range] == separator[...]) }
    }

    /// Matched by bytes, not graphemes: a needle that starts a grapheme is found even when the
    /// text adds a combining mark to it (Foundation and `String.contains` would not find it).
    @Test func matchesBytesNotGraphemes() {
        #expect("e\u{301}tude".containsText("e"))
        #expect("a\r\nb".containsText("\n"))
        #expect("text".firstRange(ofText: "") == "text".startIndex..<"text".startIndex)
        #expect("text".ranges(ofText: "").isEmpty)
    }
}

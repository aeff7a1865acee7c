import Foundation
import Testing
import Platform

@Suite struct TextReplacingTests {
    /// The replacements openurl-tool and openurld make (shell quoting, scdoc and TSV escapes,
    /// log URLs), against Foundation's `replacingOccurrences`, which they used before.
    @Test(arguments: [
        ("it's", "'", "'\\''"), ("''", "'", "'\\''"), ("no quote", "'", "'\\''"), ("", "'", "x"),
        ("a\\b*c_d", "\\", "\\\\"), ("a*b**", "*", "\\*"), ("__init__", "_", "\\_"),
        ("tab\there\nnew\\line", "\t", "\\t"), ("tab\there\nnew\\line", "\n", "\\n"),
        ("open https://a.example/x and https://a.example/x", "https://a.example/x", "https://a.example/…"),
        ("aaaa", "aa", "b"), ("aaa", "aa", "b"), ("Café ☕ 'Team'", "'", "\""), ("ends with:", ":", "\\:"),
        ("日本語のテキスト", "の", "-"),
    ])
    func matchesFoundation(_ text: String, _ target: String, _ replacement: String) {
        #expect(text.replacingEvery(target, with: replacement) == text.replacingOccurrences(of: target, with: replacement))
    }

    /// Matched by bytes: a tab or newline is escaped even where it joins a grapheme ("\r\n",
    /// a combining mark after it), so no raw newline can reach a line of recent.tsv.
    @Test(arguments: [("a\r\nb", "\n", "\\n", "a\r\\nb"), ("'\u{301}", "'", "Q", "Q\u{301}"), ("x", "", "y", "x")])
    func matchesBytesNotGraphemes(_ text: String, _ target: String, _ replacement: String, _ expected: String) {
        #expect(text.replacingEvery(target, with: replacement) == expected)
    }

    /// One escape for every tab-separated file: what is written reads back the same, including a
    /// tab, newline or backslash that carries a combining mark.
    @Test(arguments: [
        ("plain", "plain"), ("a\tb", "a\\tb"), ("tab\there\nnew\\line", "tab\\there\\nnew\\\\line"),
        ("\t\u{301}", "\\t\u{301}"), ("\\\u{301}", "\\\\\u{301}"), ("a\r\nb", "a\r\\nb"), ("", ""),
    ])
    func tabSeparatedCellsRoundTrip(_ text: String, _ cell: String) {
        #expect(text.tabSeparatedCell == cell)
        #expect(String(tabSeparatedCell: cell) == text)
    }

    /// Hand-edited cells: an unknown escape reads as its character, a lone backslash at the end is kept.
    @Test(arguments: [("a\\x", "ax"), ("end\\", "end\\")])
    func tabSeparatedCellsForgiveHandEdits(_ cell: String, _ text: String) {
        #expect(String(tabSeparatedCell: cell) == text)
    }
}

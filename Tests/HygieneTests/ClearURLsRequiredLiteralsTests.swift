@testable import Hygiene
import Patterns
import Testing

/// What the ClearURLs index takes as required from a pattern: every match holds one of the
/// literals it reads, POSIX classes inside a class included.
@Suite struct ClearURLsRequiredLiteralsTests {
    @Test(arguments: [
        ("[[:alpha:]]abc", "Zabc", [["abc"]]),
        ("[[:digit:]x]+tracker", "9xtracker", [["tracker"]]),
        ("id[^[:space:]]+=utm", "id-7=utm", [["=utm"]]),
        ("(?:ref|src)_[[:alnum:]]+", "ref_a1", [["ref"], ["src"]]),
        ("utm_[a-z]+", "utm_source", [["utm_"]]),
    ])
    func everyMatchHoldsARequiredLiteral(_ pattern: String, _ match: String, _ expected: [[String]]) throws {
        let literals = try #require(ClearURLsIndex.requiredLiterals(pattern))
        #expect(literals.map { String(decoding: $0, as: UTF8.self) } == expected.flatMap { $0 }, "\(pattern)")
        // The pattern matches the text, and the text holds one of the literals.
        #expect(try PatternRegex(pattern).matches(match), "\(pattern) ~ \(match)")
        let text = Array(match.lowercased().utf8)
        #expect(literals.contains { literal in
            text.count >= literal.count && (0...(text.count - literal.count)).contains { Array(text[$0..<($0 + literal.count)]) == literal }
        }, "\(pattern): \(literals)")
    }
}

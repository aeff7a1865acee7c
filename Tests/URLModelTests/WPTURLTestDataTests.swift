import Foundation
import Testing
@testable import URLModel

/// web-platform-tests' `urltestdata.json` (../shared/conformance/wpt-url): every case whose
/// input has a scheme `ParsedURL` reads as the URL Standard does (http, https, ws, wss, ftp) and
/// whose result does not depend on its base, compared on `href` and on failure. Every case
/// agrees (the `file` cases are not among them: `file` URLs keep the generic reading).
@Suite struct WPTURLTestDataTests {
    struct Case: Sendable {
        var input: String
        /// nil when the standard refuses the input.
        var href: String?
        /// True when the case gives a base (one the input does not use).
        var hasBase: Bool
    }

    /// The URL Standard's input clean-up, for choosing cases: C0 controls and spaces trimmed at
    /// both ends, tabs and newlines removed.
    static func cleaned(_ text: String) -> Substring {
        let trimmed = text.unicodeScalars.drop(while: { $0.value <= 0x20 }).reversed().drop(while: { $0.value <= 0x20 }).reversed()
        return Substring(String(String.UnicodeScalarView(trimmed.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" })))
    }

    /// The lowercased scheme of `text`, or nil when it does not start with one.
    static func scheme(_ text: Substring) -> String? {
        guard let colon = text.firstIndex(of: ":"), colon > text.startIndex,
              text[..<colon].enumerated().allSatisfy({ index, c in
                  c.isASCII && (c.isLetter || (index > 0 && (c.isNumber || c == "+" || c == "-" || c == ".")))
              }) else { return nil }
        return text[..<colon].lowercased()
    }

    /// The cases this suite covers: special scheme (not file), and no base, or a base the input
    /// does not use (another scheme, or two slashes after the colon).
    static func cases() throws -> [Case] {
        try Conformance.jsonObjects("wpt-url/urltestdata.json").compactMap { object in
            guard let input = object["input"] as? String else { return nil }
            let text = cleaned(input)
            guard let scheme = scheme(text), ParsedURL.specialSchemes.contains(scheme) else { return nil }
            if let base = object["base"] as? String, Self.scheme(cleaned(base)) == scheme {
                let rest = text.dropFirst(scheme.count + 1).prefix(2)
                guard rest.count == 2, rest.allSatisfy({ $0 == "/" || $0 == "\\" }) else { return nil }
            }
            let failure = object["failure"] as? Bool ?? false
            return Case(input: input, href: failure ? nil : object["href"] as? String, hasBase: object["base"] is String)
        }
    }

    /// What we make of `input`: the normal form, or nil when refused.
    static func ours(_ input: String) -> String? {
        try? ParsedURL(input).string
    }

    @Test func agreesWithTheStandard() throws {
        let cases = try Self.cases()
        #expect(cases.count > 400, "only \(cases.count) cases selected")
        var disagreements: [String] = []
        var agree = 0, agreeWithoutBase = 0
        for testCase in cases {
            let ours = Self.ours(testCase.input)
            // Compared as bytes: String's == would equate canonically equivalent text.
            if ours.map({ Array($0.utf8) }) == testCase.href.map({ Array($0.utf8) }) {
                agree += 1
                if !testCase.hasBase { agreeWithoutBase += 1 }
                continue
            }
            disagreements.append("\(testCase.input.debugDescription): standard \(testCase.href?.debugDescription ?? "failure"), ours \(ours?.debugDescription ?? "failure")")
        }
        let withoutBase = cases.filter { !$0.hasBase }.count
        print("WPT urltestdata: \(agree) of \(cases.count) agree (\(agreeWithoutBase) of the \(withoutBase) with no base)")
        if let dump = ProcessInfo.processInfo.environment["WPT_DUMP"] {
            try? disagreements.joined(separator: "\n").write(toFile: dump, atomically: true, encoding: .utf8)
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements:\n\(disagreements.prefix(80).joined(separator: "\n"))")
    }
}

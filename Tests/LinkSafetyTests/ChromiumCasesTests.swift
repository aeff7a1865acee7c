import Foundation
import LinkSafety
import Testing
import URLModel

/// Chromium's own IDN spoof-checker cases (Data/chromium-idn-cases.tsv, see Data/SOURCE.md),
/// judged the way a browser shows a host: in Unicode, or not (punycode, or refused).
///
/// The cases are split by what their outcome rests on (the file's third column): "script"
/// cases on the script and character rules alone (`IDNPolicy`), judged with no known domains;
/// "top" cases sit in the sections Chromium checks against its test top-domain list, judged with
/// that list as the user's known domains (`KnownDomains`), as openurld judges look-alikes of the
/// domains in a user's rules. The goal is 95 % of the script cases; every difference is printed.
@Suite struct ChromiumCasesTests {
    struct Case: Sendable {
        var ascii: String
        var expected: String
        var restsOn: String
        var unicode: String
        var line: Int
    }

    static let dataFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Data")

    static func cases() throws -> [Case] {
        let text = try String(contentsOf: dataFolder.appendingPathComponent("chromium-idn-cases.tsv"), encoding: .utf8)
        var cases: [Case] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "line \(number + 1): \(fields.count) fields"]) }
            cases.append(Case(ascii: fields[0], expected: fields[1], restsOn: fields[2], unicode: unescape(fields[3]), line: number + 1))
        }
        return cases
    }

    static func topDomains() throws -> [KnownDomain] {
        let text = try String(contentsOf: dataFolder.appendingPathComponent("chromium-top-domains.txt"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { KnownDomain(domain: String($0), description: "is a test top domain") }
    }

    /// `\uXXXX` and `\UXXXXXXXX` escapes, as the source writes them.
    static func unescape(_ text: String) -> String {
        var out = ""
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\\", let kind = scalars.first, kind == "u" || kind == "U" {
                let width = kind == "u" ? 4 : 8
                let digits = String(String.UnicodeScalarView(scalars.dropFirst().prefix(width)))
                if digits.count == width, let value = UInt32(digits, radix: 16), let decoded = Unicode.Scalar(value) {
                    out.unicodeScalars.append(decoded)
                    scalars = scalars.dropFirst(width + 1)
                    continue
                }
            }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// How a host is shown: "unicode", "punycode" (a warning) or "refused" (the URL does not parse).
    enum Shown: String { case unicode, punycode, refused }

    /// The case's host in a URL; nil when it does not parse or is not a host a URL can carry
    /// (`xn--hello?world.com` would be the host `xn--hello` and a query).
    static func url(_ test: Case) -> ParsedURL? {
        guard let url = try? ParsedURL("http://\(test.ascii)/"), url.host == test.ascii.lowercased() else { return nil }
        return url
    }

    static func ours(_ test: Case, checker: SafetyChecker) -> (Shown, String) {
        guard let url = url(test) else { return (.refused, "not a host openurld routes") }
        let verdict = checker.verdict(for: url)
        return verdict == .safe ? (.unicode, "") : (.punycode, verdict.reasons.map(\.kind.rawValue).joined(separator: ","))
    }

    static func agrees(_ test: Case, _ shown: Shown) -> Bool {
        (test.expected == "safe") == (shown == .unicode)
    }

    @Test func chromiumAgreement() throws {
        let cases = try Self.cases()
        #expect(cases.count > 400, "the case table is short: \(cases.count) cases")
        let scriptChecker = SafetyChecker(checks: SafetyChecks(idn: true, lookalikes: false, linkText: false, blocklists: false))
        let topChecker = SafetyChecker(checks: SafetyChecks(idn: true, lookalikes: true, linkText: false, blocklists: false),
                                       knownDomains: KnownDomains(try Self.topDomains()))
        let idnOnly = SafetyChecker(checks: SafetyChecks(idn: true, lookalikes: false, linkText: false, blocklists: false))
        let lookalikesOnly = SafetyChecker(checks: SafetyChecks(idn: false, lookalikes: true, linkText: false, blocklists: false),
                                           knownDomains: KnownDomains(try Self.topDomains()))
        var topByPart = (scriptRules: 0, lookalikes: 0)
        var totals: [String: (ours: Int, all: Int)] = [:]
        var differences: [String] = []
        for test in cases {
            let (shown, why) = Self.ours(test, checker: test.restsOn == "top" ? topChecker : scriptChecker)
            var total = totals[test.restsOn] ?? (0, 0)
            total.all += 1
            if Self.agrees(test, shown) { total.ours += 1 } else {
                differences.append("[\(test.restsOn)] line \(test.line): \(test.ascii) (\(test.unicode)) Chromium \(test.expected), openurld \(shown.rawValue)\(why.isEmpty ? "" : " (\(why))")")
            }
            if test.restsOn == "top" {
                if Self.agrees(test, Self.ours(test, checker: idnOnly).0) { topByPart.scriptRules += 1 }
                if Self.agrees(test, Self.ours(test, checker: lookalikesOnly).0) { topByPart.lookalikes += 1 }
            }
            totals[test.restsOn] = total
        }
        let script = totals["script"] ?? (0, 0), top = totals["top"] ?? (0, 0)
        print("Chromium IDN cases: agree \(script.ours) of \(script.all) (script rules), \(top.ours) of \(top.all) (top-domain)")
        print("Chromium IDN top-domain cases by part: \(topByPart.scriptRules) of \(top.all) with the script rules alone, \(topByPart.lookalikes) of \(top.all) with the look-alike check alone (the test top domains as known domains)")
        for difference in differences { print("  differs: \(difference)") }
        #expect(script.ours * 100 >= script.all * 95,
                "agree on \(script.ours) of \(script.all) script-rule cases, below 95 %:\n\(differences.joined(separator: "\n"))")
    }
}

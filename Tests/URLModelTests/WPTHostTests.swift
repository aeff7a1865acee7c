import Foundation
import Testing
@testable import URLModel

/// web-platform-tests' `toascii.json` and `IdnaTestV2.json` (../shared/conformance/wpt-url),
/// run as WPT runs them: `https://INPUT/x` must have host OUTPUT, or fail when OUTPUT is null.
@Suite struct WPTHostTests {
    struct Case: Sendable {
        var input: String
        /// nil when the standard refuses the host.
        var output: String?
    }

    static func cases(_ file: String) throws -> [Case] {
        try Conformance.jsonObjects("wpt-url/\(file)").compactMap { object in
            // WPT skips the empty input: `https:///x` is not a test of the host.
            guard let input = object["input"] as? String, !input.isEmpty else { return nil }
            return Case(input: input, output: object["output"] as? String)
        }
    }

    /// Our host for `https://INPUT/x`, or nil when refused.
    static func ours(_ input: String) -> String? {
        guard let url = try? ParsedURL("https://\(input)/x") else { return nil }
        return url.host + (url.port.map { ":\($0)" } ?? "")
    }

    /// Code points whose UTS 46 status changed after Unicode 15.0, the tables of ICU 72
    /// (Debian 12): disallowed there, mapped, ignored or valid in the Unicode 16 and later
    /// tables WPT's data is generated from.
    static let changedAfterUnicode15: [ClosedRange<UInt32>] = [
        // Excluded by IDNA2008 and so disallowed; mapped to their lowercase since Unicode 16.
        0x04C0...0x04C0, 0x10A0...0x10C5, 0x10C7...0x10C7, 0x10CD...0x10CD, 0x2132...0x2132, 0x2183...0x2183,
        // Default-ignorable fillers and format characters: disallowed, ignored since Unicode 16.
        0x115F...0x1160, 0x17B4...0x17B5, 0x180E...0x180E, 0x206A...0x206F, 0x3164...0x3164, 0xFFA0...0xFFA0,
        0x1D173...0x1D17A,
        // CJK compatibility ideographs disallowed until Unicode 16, mapped since.
        0x2F868...0x2F868, 0x2F874...0x2F874, 0x2F91F...0x2F91F, 0x2F95F...0x2F95F, 0x2F9BF...0x2F9BF,
    ]

    /// True for a code point not assigned in Unicode 15.0, or in `changedAfterUnicode15`.
    static func isNewerThanICU72(_ scalar: Unicode.Scalar) -> Bool {
        if changedAfterUnicode15.contains(where: { $0.contains(scalar.value) }) { return true }
        guard let age = scalar.properties.age else { return true }
        return age.major > 15 || (age.major == 15 && age.minor > 0)
    }

    /// Why we may differ on `testCase`, or nil when no listed cause explains it. The only cause
    /// left: ICU 72's Unicode 15.0 tables refuse a code point newer tables accept.
    static func cause(of testCase: Case, ours: String?) -> String? {
        guard ours == nil, testCase.output != nil, testCase.input.unicodeScalars.contains(where: isNewerThanICU72) else { return nil }
        return "Unicode 15.0 tables (ICU 72) refuse a code point newer tables accept"
    }

    static func run(_ file: String, label: String) throws -> (agree: Int, total: Int, unexplained: [String], unsafe: [String], causes: [String: Int]) {
        let cases = try Self.cases(file)
        var agree = 0
        var unexplained: [String] = []
        var unsafe: [String] = []
        var causes: [String: Int] = [:]
        for testCase in cases {
            let ours = Self.ours(testCase.input)
            if ours == testCase.output { agree += 1; continue }
            let line = "\(testCase.input.debugDescription): standard \(testCase.output?.debugDescription ?? "failure"), ours \(ours?.debugDescription ?? "failure")"
            // A difference may only ever refuse more: never accept a host the standard refuses,
            // never read another host.
            if ours != nil { unsafe.append(line) }
            if let cause = cause(of: testCase, ours: ours) { causes[cause, default: 0] += 1 } else { unexplained.append(line) }
        }
        print("WPT \(label): \(agree) of \(cases.count) agree; differences by cause: \(causes.sorted { $0.key < $1.key })")
        if let dump = ProcessInfo.processInfo.environment["WPT_DUMP"] {
            try? (unexplained + unsafe).joined(separator: "\n").write(toFile: dump + "." + label, atomically: true, encoding: .utf8)
        }
        return (agree, cases.count, unexplained, unsafe, causes)
    }

    @Test func toASCII() throws {
        let result = try Self.run("toascii.json", label: "toascii")
        // Measured with ICU 72; a newer ICU can only raise it.
        #expect(result.agree >= 82)
        #expect(result.unsafe.isEmpty, "accepted or read differently what the standard refuses:\n\(result.unsafe.joined(separator: "\n"))")
        #expect(result.unexplained.isEmpty, "\(result.unexplained.count) unexplained differences:\n\(result.unexplained.prefix(60).joined(separator: "\n"))")
    }

    @Test func idnaTestV2() throws {
        let result = try Self.run("IdnaTestV2.json", label: "IdnaTestV2")
        #expect(result.agree >= 2598)
        #expect(result.unsafe.isEmpty, "accepted or read differently what the standard refuses:\n\(result.unsafe.prefix(60).joined(separator: "\n"))")
        #expect(result.unexplained.isEmpty, "\(result.unexplained.count) unexplained differences:\n\(result.unexplained.prefix(60).joined(separator: "\n"))")
    }
}

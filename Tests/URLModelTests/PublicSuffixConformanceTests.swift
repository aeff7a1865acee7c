import Foundation
import Testing
@testable import URLModel

/// The Public Suffix List project's own tests (../shared/conformance/psl/test_psl.txt) against
/// `PublicSuffixList` over Debian's list.
@Suite struct PublicSuffixConformanceTests {
    /// `checkPublicSuffix('DOMAIN', 'EXPECTED')` lines as (domain, expected); the `null` domain
    /// is skipped (there is no host to ask about).
    static func cases() throws -> [(domain: String, expected: String?)] {
        let text = String(decoding: try Conformance.bytes("psl/test_psl.txt"), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("checkPublicSuffix("), let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
            let arguments = line[line.index(after: open)..<close].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard arguments.count == 2, arguments[0] != "null" else { return nil }
            let unquote = { (text: String) -> String? in text == "null" ? nil : String(text.dropFirst().dropLast()) }
            return unquote(arguments[0]).map { ($0, unquote(arguments[1])) }
        }
    }

    @Test func agreesWithTheListsOwnTests() throws {
        let list = try #require(FileManager.default.contents(atPath: PublicSuffixList.debianPath).map(Array.init),
                                "install Debian's publicsuffix package (\(PublicSuffixList.debianPath))")
        let cases = try Self.cases()
        var disagreements: [String] = []
        for (domain, expected) in cases {
            // A leading dot is not a host: the list's tests expect no registrable domain.
            let ours = domain.hasPrefix(".") ? nil : PublicSuffixList.registrableDomain(of: domain, listText: list)
            if ours?.lowercased() != expected { disagreements.append("\(domain): expected \(expected ?? "null"), ours \(ours ?? "null")") }
        }
        print("PSL test_psl: \(cases.count - disagreements.count) of \(cases.count) agree")
        #expect(cases.count == 77)
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
    }
}

import Foundation
import TestSupport
import Testing
@testable import LinkExtraction

/// linkify-it's own link fixtures, read from `../shared/conformance/linkify-it/` next to the
/// package (never copied into the repository), run the way linkify-it's test runner reads them.
@Suite struct LinkifyConformanceTests {
    /// Inputs we deliberately decide differently from linkify-it, with the reason. A case here
    /// that starts passing fails the test too, so this table stays true.
    static let linkExceptions: [String: String] = [:]

    /// Lines of `not_links.txt` we deliberately treat as (containing) a link, with the reason.
    static let notLinkExceptions: [String: String] = [:]

    /// The smallest share of fixture cases we must agree with.
    static let requiredAgreement = 0.95

    @Test func linksAreFound() throws {
        let cases = try LinkifyFixtures.linkCases()
        #expect(cases.count >= 100, "links.txt looks truncated: \(cases.count) cases")
        var agreed = 0
        for fixture in cases {
            let found = LinkExtractor.extract(from: fixture.input).first?.text
            let inNewlines = LinkExtractor.extract(from: "\n" + fixture.input + "\n").first?.text
            let passes = found == fixture.expected && inNewlines == fixture.expected
            if passes { agreed += 1 }
            check(passes: passes, exception: Self.linkExceptions[fixture.input],
                  what: "links.txt:\(fixture.line) \(fixture.input.debugDescription): expected "
                      + "\(fixture.expected.debugDescription), found \(String(describing: found).debugDescription)")
        }
        let share = Double(agreed) / Double(max(cases.count, 1))
        #expect(share >= Self.requiredAgreement, "agreement with linkify-it links.txt: \(agreed)/\(cases.count)")
    }

    @Test func nonLinksAreNotFound() throws {
        let cases = try LinkifyFixtures.notLinkCases()
        #expect(cases.count > 30, "not_links.txt looks truncated: \(cases.count) cases")
        var agreed = 0
        for fixture in cases {
            let found = LinkExtractor.extract(from: fixture.input).map(\.text)
            let passes = found.isEmpty
            if passes { agreed += 1 }
            check(passes: passes, exception: Self.notLinkExceptions[fixture.input],
                  what: "not_links.txt:\(fixture.line) \(fixture.input.debugDescription): found \(found)")
        }
        let share = Double(agreed) / Double(max(cases.count, 1))
        #expect(share >= Self.requiredAgreement, "agreement with linkify-it not_links.txt: \(agreed)/\(cases.count)")
    }

    @Test func exceptionsNameRealFixtureLines() throws {
        let inputs = Set(try LinkifyFixtures.linkCases().map(\.input))
        for input in Self.linkExceptions.keys {
            #expect(inputs.contains(input), "links exception \(input.debugDescription) is not a links.txt case")
        }
        let nonLinks = Set(try LinkifyFixtures.notLinkCases().map(\.input))
        for input in Self.notLinkExceptions.keys {
            #expect(nonLinks.contains(input), "not_links exception \(input.debugDescription) is not a case")
        }
    }

    private func check(passes: Bool, exception: String?, what: String) {
        switch (passes, exception) {
        case (false, nil):
            Issue.record("disagrees with linkify-it: \(what)")
        case (true, let reason?):
            Issue.record("listed as a deliberate difference (\(reason)) but now agrees: \(what); remove it from the table")
        default:
            break
        }
    }
}

/// Reads linkify-it's fixture files in its test runner's format.
enum LinkifyFixtures {
    /// One `links.txt` case: an input line and the text of the first link expected in it.
    struct LinkCase {
        var line: Int
        var input: String
        var expected: String
    }

    /// One `not_links.txt` line, which must yield no link.
    struct NotLinkCase {
        var line: Int
        var input: String
    }

    /// `<package root>/../shared/conformance/linkify-it`.
    static var directory: URL {
        PackageRoot.url.appendingPathComponent("../shared/conformance/linkify-it").standardizedFileURL
    }

    /// The file's lines, `%` comment lines blanked as linkify-it's runner does.
    static func lines(of name: String) throws -> [String] {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw FixtureMissing(path: url.path)
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("%") ? "" : String(line)
        }
    }

    /// A non-empty line followed by a non-empty line is an input and its expected first link;
    /// a non-empty line followed by a blank one is itself the expected link.
    static func linkCases() throws -> [LinkCase] {
        let lines = try lines(of: "links.txt")
        var cases: [LinkCase] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            if isBlank(line) {
                index += 1
            } else if !isBlank(next) {
                cases.append(LinkCase(line: index + 1, input: line, expected: next))
                index += 2
            } else {
                cases.append(LinkCase(line: index + 1, input: line, expected: line))
                index += 1
            }
        }
        return cases
    }

    /// Every non-blank, non-comment line.
    static func notLinkCases() throws -> [NotLinkCase] {
        try lines(of: "not_links.txt").enumerated().compactMap { index, line in
            isBlank(line) ? nil : NotLinkCase(line: index + 1, input: line)
        }
    }

    private static func isBlank(_ line: String) -> Bool {
        line.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
    }
}

/// The shared fixtures are not where the project layout puts them.
struct FixtureMissing: Error, CustomStringConvertible {
    var path: String
    var description: String {
        "linkify-it fixture missing: \(path). The tests read ../shared/conformance/linkify-it/ next to the "
            + "package root; check out the shared directory there (it is not copied into the repository)."
    }
}

import Foundation
import Testing
import TestSupport
@testable import TOML

/// Our TOML reader against toml++ (`TOMLOracle`): documents written for the cases that matter,
/// the README's examples, and 20,000 generated documents.

@Suite struct TOMLOracleTests {
    static let documents: [String] = [
        "a = 1\nb = \"two\"\nc = 'three'\nd = true\ne = 1.5\nf = 1979-05-27T07:32:00Z\n",
        "[[rules]]\nname = \"a\"\nmatch.domain = \"x.example\"\nopen = \"b.desktop\"\n[[rules]]\nmatch.domain = [\"a\", \"b\"]\ndiscard = true\n",
        "[settings]\nclean = false\n\n[apps.work]\nexec = [\"chrome\", \"{url}\"]\n[apps.home]\nexec = [\"firefox\"]\n",
        "  [ a . b ]  # comment\n  x = 1 # comment\n[a]\ny = 2\n",
        "a.b.c = 1\na.b.d = 2\na.e = 3\n[a.f]\ng = 4\n",
        "x = { a = 1, b.c = \"d\", e = [1, 2] }\ny = []\nz = [ [1], [\"a\"], { k = 1 } ]\n",
        "s = \"\"\"\nfirst\\\n   second\n\"\"\"\nt = '''\nraw \\ text\n'''\nu = \"\"\"quote\"\"\"\"\"\nv = \"\\u00e9\\U0001F600\\t\\n\\\\\"\n",
        "i = [0x1F, 0o17, 0b101, -17, +3, 1_000, 0]\nf = [-0.5, 6.02e23, 1e-3, 1E+3, inf, -inf, 3_000.5]\n",
        "d = [1979-05-27, 07:32:00, 07:32:00.999, 1979-05-27T07:32:00, 1979-05-27 07:32:00-07:00, 1979-05-27t07:32:00.5z]\n",
        "é = 1\n\"quoted key\" = 2\n'literal key' = 3\nname = \"ünïcödé\" # ✓\nafter = 4\n",
        "[[a]]\nx = 1\n[a.b]\ny = 2\n[[a]]\nx = 3\n[[a.c]]\nz = 4\n",
        "a = 1\r\nb = 2\r\n[t]\r\nc = \"\"\"\r\nx\r\n\"\"\"\r\n",
        "\u{FEFF}a = 1\n",
        "[x.y.z]\n[x]\na = 1\n",
        // Refused by both.
        "a = 1\na = 2\n", "[t]\n[t]\n", "a = \n", "a = 1 b = 2\n", "a.b = 1\n[a]\n", "a = {b = 1}\na.c = 2\n", "a = []\n[[a]]\n",
        "[a.b]\n[a]\nb.c = 1\n", "a = \"unclosed\n", "a = 01\n", "a = 1__0\n", "a = 0x\n", "a = 1.\n", "a = .5\n", "a = 2021-02-30\n",
        "a = 25:00:00\n", "a = \"\\x\"\n", "a = { b = 1, }\n", "a = [1 2]\n", "= 1\n", "[a\n", "[[a]\n", "a = true1\n", "a = 9223372036854775808\n",
        "a = \"\"\"\n\\ x\n\"\"\"\n", "x = 333323.3e336\n", "x = 1e-400\n", "x = -1.7976931348623157e308\n", "x = 4.9e-324\n", "x = 22:22:60\n", "x = 1979-05-27T23:59:60Z\n", "\"\"\"key\"\"\" = 1\n", "a = 1 # \u{0001}\n", "a = 'x\u{0007}'\n", "a = \"\\uD800\"\n",
    ]

    @Test(arguments: documents.indices)
    func aDocumentReadsAsTomlPlusPlusReadsIt(index: Int) {
        let text = Self.documents[index]
        #expect(TOMLOracle.disagreement(text) == nil, "\(text.debugDescription): \(TOMLOracle.disagreement(text) ?? "")")
    }

    /// Every TOML file of the repository (the README's examples are checked by RealBrowserTests).
    @Test func theRepositorysConfigsReadAsTomlPlusPlusReadsThem() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        var compared = 0
        var differing: [String] = []
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        let blocks = readme.components(separatedBy: "```toml\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        for (index, block) in blocks.enumerated() {
            compared += 1
            if let found = TOMLOracle.disagreement(block) { differing.append("README block \(index + 1): \(found)") }
        }
        #expect(compared >= 3)
        #expect(differing.isEmpty, "\(differing.joined(separator: "\n"))")
    }

    @Test func twentyThousandGeneratedDocumentsReadAsTomlPlusPlusReadsThem() {
        var generator = TOMLGenerator(seed: 0x70_3d1)
        var differing: [String] = []
        var accepted = 0
        for _ in 0..<20_000 {
            let text = generator.document()
            if let found = TOMLOracle.disagreement(text) { differing.append("\(text.debugDescription): \(found)") }
            if case .success = TOMLOracle.parse(text) { accepted += 1 }
        }
        print("TOMLOracleTests: \(20_000 - differing.count) of 20,000 generated documents agree with toml++ (\(accepted) of them valid TOML)")
        // Both kinds must be many, or agreeing would say little.
        #expect(accepted > 4_000 && accepted < 16_000, "\(accepted) of 20,000 generated documents are valid")
        #expect(differing.isEmpty, "\(differing.count) documents differ, e.g.\n\(differing.prefix(8).joined(separator: "\n"))")
    }
}

/// Small TOML-shaped documents, valid and not, from a fixed seed.
struct TOMLGenerator {
    var random: SplitMix64
    init(seed: UInt64) { random = SplitMix64(seed: seed) }
    mutating func next(_ bound: Int) -> Int { random.below(bound) }
    mutating func pick(_ options: [String]) -> String { options[next(options.count)] }

    mutating func key() -> String {
        var parts = [pick(["a", "b", "c", "\"a\"", "'b'", "x-y", "1", "é"])]
        while next(3) == 0 { parts.append(pick(["a", "b", "c", " d", "\"e.f\""])) }
        return parts.joined(separator: next(4) == 0 ? " . " : ".")
    }

    mutating func value(depth: Int = 0) -> String {
        switch next(depth > 2 ? 10 : 13) {
        case 0: return pick(["1", "-0", "+7", "1_000", "0x1f", "0o7", "0b1", "01", "1__2", "0x_1", "9223372036854775807", "-9223372036854775808"])
        case 1: return pick(["1.0", "-2.5e3", "1e10", "inf", "-nan", "1.", ".1", "1e", "3.14_15", "6.02E+23", "0.0"])
        case 2: return pick(["true", "false", "True", "tru"])
        case 3: return pick(["\"s\"", "\"a\\tb\"", "\"\\u00E9\"", "\"bad\\q\"", "\"\"", "\"open"])
        case 4: return pick(["'lit'", "''", "'a\"b'", "'''\nmulti\n'''", "\"\"\"\nx\\\n  y\"\"\"", "\"\"\"a\"\"\"\"\""])
        case 5: return pick(["1979-05-27", "1979-05-27T07:32:00Z", "1979-05-27 07:32:00", "07:32:00", "1979-02-29", "2000-02-29", "1979-05-27T07:32:00+25:00", "24:00:00"])
        case 6, 7, 8, 9: return pick(["1", "\"v\"", "true", "2.5"])
        case 10:
            let count = next(4)
            return "[" + (0..<count).map { _ in value(depth: depth + 1) }.joined(separator: pick([", ", ",", ",\n", " , "])) + (next(4) == 0 ? ",]" : "]")
        case 11:
            let count = next(3)
            return "{" + (0..<count).map { _ in key() + " = " + value(depth: depth + 1) }.joined(separator: ", ") + (next(8) == 0 ? ", }" : " }")
        default:
            return "[ " + value(depth: depth + 1) + " ]"
        }
    }

    mutating func document() -> String {
        var lines: [String] = []
        for _ in 0..<(1 + next(6)) {
            switch next(8) {
            case 0: lines.append("[" + key() + "]")
            case 1: lines.append("[[" + key() + "]]")
            case 2: lines.append(pick(["# comment", "", "  ", "\t# x"]))
            default: lines.append(key() + pick([" = ", "=", " =  "]) + value() + pick(["", " # c", "  "]))
            }
        }
        return lines.joined(separator: next(5) == 0 ? "\r\n" : "\n") + "\n"
    }
}

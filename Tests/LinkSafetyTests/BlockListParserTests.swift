import Foundation
@testable import LinkSafety
import Testing
import URLModel

/// The parser's entries line by line: each edge of the syntax in a case table, and digests of
/// everything it reads from a generated list of awkward lines and from Debian's lists, taken
/// from the implementation before it was rewritten for speed (so a change of result shows).
@Suite struct BlockListParserTests {
    /// One line per entry, then the counts and the title: what the digests are taken of.
    static func describe(_ text: [UInt8]) -> String {
        var parser = BlockListParser()
        parser.parse(text)
        var out = ""
        for entry in parser.entries {
            out += "\(entry.line) \(entry.range.lowerBound)-\(entry.range.upperBound) \(entry.isException ? "@@" : "")\(escaped(Array(parser.bytes(entry.host))))"
            switch entry.kind {
            case .host: out += " host"
            case .labelPrefix: out += " label"
            case .url(let anchored, let scheme):
                let name = switch scheme { case .any: "-"; case .http: "http"; case .https: "https" }
                out += " url \(escaped(Array(parser.bytes(entry.pattern))))\(anchored ? "|" : "") \(name)"
            }
            if entry.targets >= 0 {
                let to = parser.targets[Int(entry.targets)]
                out += " to=" + to.included.map(escaped).joined(separator: "|") + " ~" + to.excluded.map(escaped).joined(separator: "|")
            }
            out += "\n"
        }
        return out + "\(parser.counts.description)\ntitle: \(parser.title ?? "-")\n"
    }

    /// Printable ASCII as itself, other bytes as `\xNN`.
    static func escaped(_ bytes: [UInt8]) -> String {
        bytes.map { $0 > 0x20 && $0 < 0x7F && $0 != 0x5C ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
    }

    /// FNV-1a of `bytes`, in hex.
    static func digest(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// 20,000 lines (a fixed seed): most a start (`||`, `@@`, `|https://`, a hosts-file
    /// address…), a host, a tail and options, each drawn from odd forms of them (case, a Kelvin
    /// sign that lowercases to ASCII `k`, invalid UTF-8, CRs and tabs); the rest fragments of
    /// all of these in any order.
    static func awkwardLines() -> [UInt8] {
        func bytes(_ strings: [String]) -> [[UInt8]] { strings.map { Array($0.utf8) } }
        let starts = bytes(["", "", "||", "||", "|", "@@||", "@@", "|https://", "|http://*.", "|HTTPS://", "0.0.0.0 ", "127.0.0.1\t",
                            ":: ", "::1 ", "0 ", "0.0.0.0", "! ", "!Title:", "[", "#", " ", "\t", "*", "/"])
        let hosts = bytes(["evil.example", "Evil.EXAMPLE", "a.b-c_d%.example", "1.2.3.4", "xn--bcher-kva.de", "bücher.de", "ü",
                           "name.", "a.b.", "localhost.localdomain", "0.0.0.0", "x", "", ".lead.example", "generic\u{212A}lock.example",
                           "\u{130}.example", "\u{212A}.example"]) + [[0xFF, 0x2E, 0x61], [0xC3, 0x2E, 0x61]]
        let tails = bytes(["", "", "^", "^|", "|", "/", "/Path/*.EXE^", "/a^b|", "/x|", "*", ".", " # comment", " b.example c.example",
                           "\tb.example # d.example", "^*", "/$x", "##.ad", "#@#.ad", "#?#x", "#$?#x", "#@$#x", "#%#x", "#x", "#@x"])
        let options = bytes(["", "", "$doc", "$all", "$DOC", "$doc,to=~Edu|gov|~", "$all,domain=~a.example", "$domain=a.example|~b",
                             "$from", "$to", "$script", "$~script", "$doc,script", "$~doc", "$3p,important,match-case", "$redirect=x",
                             "$ipaddress=1", "$generic\u{212A}lock", "$,,doc,", "$", "$popup,1p", "$Important", "$doc\r", "$xhr,~document"])
        let fragments = starts + hosts + tails + options
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1) % bound
        }
        var text: [UInt8] = []
        for _ in 0..<20_000 {
            if next(4) == 0 {
                for _ in 0...next(8) { text += fragments[next(fragments.count)] }
            } else {
                text += starts[next(starts.count)] + hosts[next(hosts.count)] + tails[next(tails.count)] + options[next(options.count)]
            }
            text += next(5) == 0 ? [0x0D, 0x0A] : next(9) == 0 ? [0x20, 0x0A] : [0x0A]
        }
        text += Array("||".utf8) + Array(repeating: UInt8(ascii: "a"), count: 300) + Array(".example^\n".utf8)
        text += Array("||b.example/".utf8) + Array(repeating: UInt8(ascii: "c"), count: 4100) + Array("\n \t\r".utf8)
        return text
    }

    @Test("edges of the syntax: each line's entries (line, byte range, host, kind) and the lines skipped", arguments: [
        ("||evil.example^\r\n||b.example^$doc\r\n", ["1 0-15 evil.example host", "2 17-33 b.example host"], "", 0),
        ("\t||tab.example^ \t\n", ["1 1-15 tab.example host"], "", 0),
        ("0.0.0.0 a.example\tB.example # c.example\n127.0.0.1 localhost.localdomain\n:: x.example\n0 y\n0.0.0.0\n",
         ["1 0-39 a.example host", "1 0-39 b.example host", "3 72-84 x.example host", "5 89-96 0.0.0.0 host"], "", 2),
        ("||host.example^$doc,to=~Edu|gov\n||other.example^$Doc,Script\n", ["1 0-31 host.example host to=gov ~edu", "2 32-59 other.example host"], "", 0),
        ("@@||good.example^$doc\n", ["1 0-21 @@good.example host"], "", 0),
        ("example.org##.ad\n##.ad\nexample.org#@#.ad\na.example#?#x\na.example#$?#x\n# a comment\n", [], "", 1),
        ("||a.example^\n   ", ["1 0-12 a.example host"], "", 0),
        ("||a.example^\n\n", ["1 0-12 a.example host"], "", 1),
        ("! Title: My list\n! Title: Another\n[Adblock Plus 2.0]\n", [], "My list", 3),
        ("||EVIL.Example/Path/*.EXE|$all\n", ["1 0-30 evil.example url /path/*.exe| -"], "", 0),
        ("|https://*.wild.example/x^$doc\n|http://plain.example^\n", ["1 0-30 wild.example url /x^ https", "2 31-53 plain.example host"], "", 0),
        ("||name.^\n||two.names.^\n", ["1 0-8 name label"], "", 0),
        ("||bücher.example^\n203.0.113.7\n", ["1 0-18 xn--bcher-kva.example host", "2 19-30 203.0.113.7 host"], "", 0),
    ])
    func edges(_ text: String, _ entries: [String], _ title: String, _ comments: Int) {
        var parser = BlockListParser()
        parser.parse(Array(text.utf8))
        let described = Self.describe(Array(text.utf8)).split(separator: "\n").map(String.init)
        #expect(Array(described.dropLast(2)) == entries)
        #expect(parser.title ?? "" == title)
        #expect(parser.counts.comments == comments)
    }

    @Test func cosmeticLinesAreCountedAndSkipped() {
        var parser = BlockListParser()
        parser.parse(Array("example.org##.ad\n##.ad\nexample.org#@#.ad\na.example#?#x\na.example#$?#x\na.example#@%#x\n||a.example/#x\n".utf8))
        #expect(parser.counts.cosmetic == 6)
        #expect(parser.entries.count == 1)
    }

    /// Eight bytes at a time, every byte value at every position and length: as one at a time.
    @Test func lowercasingManyBytesAtOnceIsLowercasingEach() {
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0) } + Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ[@`{".utf8)
        for start in 0..<8 {
            for count in [0, 1, 7, 8, 9, 15, 16, 17, 250, bytes.count - start] {
                let source = Array(bytes[start..<(start + count)])
                var copy = Array(repeating: UInt8(0), count: count)
                source.withUnsafeBufferPointer { source in copy.withUnsafeMutableBufferPointer { BlockListParser.copyLowercased(source, to: $0) } }
                #expect(copy == source.map(BlockListParser.lowercase), "from \(start), \(count) bytes")
            }
        }
    }

    /// The bit table against the characters it stands for.
    @Test func hostBytesAreLettersDigitsAndFourMarks() {
        for byte in 0...255 {
            let scalar = Unicode.Scalar(UInt8(byte))
            let expected = byte >= 0x80 || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "-._%".unicodeScalars.contains(scalar)
            #expect(BlockListParser.isHostByte(UInt8(byte)) == expected, "\(byte)")
        }
    }

    @Test func awkwardLinesParseAsTheyAlwaysHave() {
        let described = Self.describe(Self.awkwardLines())
        #expect(Self.digest(described.utf8) == "5c356688c34b4", "\(described.prefix(2000))")
    }

    /// Debian's lists as the tests found them installed (their own digest first): another
    /// version of a list is only reported.
    static let debianDigests = [
        "19ffcb95acb0b237": "d36c2491046e1a58",   // badware.min.txt, webext-ublock-origin 1.66
        "be373b64fe1b7e1b": "2c4048ca3b269a6d",   // urlhaus-filter-online.txt, 2025-10-25
    ]

    @Test func debiansListsParseAsTheyAlwaysHave() {
        let found = DebianListsTests.locations()
        #expect(!found.isEmpty, "\(DebianListsTests.missing)")
        for location in found {
            guard let text = FileManager.default.contents(atPath: location.path).map({ [UInt8]($0) }) else {
                Issue.record("cannot read \(location.path)")
                continue
            }
            let listDigest = Self.digest(text)
            let described = Self.describe(text)
            guard let expected = Self.debianDigests[listDigest] else {
                print("\(location.path): a version without a recorded digest (\(listDigest) → \(Self.digest(described.utf8)))")
                continue
            }
            #expect(Self.digest(described.utf8) == expected, "\(location.path)")
        }
    }
}

import Testing
import TestSupport
@testable import URLModel

/// `ParsedURL.replacingQuery(withTextOf:)` is a shortcut past the parser for a cleaned link: it
/// must give exactly what parsing the text gives, or nil.
@Suite struct ReplacingQueryTests {
    @Test(arguments: [
        ("https://example.org/a?utm_source=x&id=1", "https://example.org/a?id=1"),
        ("https://example.org/a?utm_source=x", "https://example.org/a"),
        ("https://example.org/a?utm_source=x", "https://example.org/a?"),
        ("https://example.org/a?utm_source=x#top", "https://example.org/a#top"),
        ("https://example.org/a?utm_source=x&b=%20c#top", "https://example.org/a?b=%20c#top"),
        ("https://example.org/a#top", "https://example.org/a?x=1#top"),
        ("https://user:pw@xn--bcher-kva.de:8443/p?q=1", "https://user:pw@xn--bcher-kva.de:8443/p?r=2"),
        ("mailto:a@example.org?subject=Hi&utm_medium=mail", "mailto:a@example.org?subject=Hi"),
    ])
    func givesWhatParsingGives(_ base: String, _ text: String) throws {
        let url = try ParsedURL(base)
        let replaced = try #require(url.replacingQuery(withTextOf: text))
        #expect(replaced == (try ParsedURL(text)))
        #expect(replaced.string == text)
    }

    @Test(arguments: [
        // Another path, host or fragment, and a query the parser would encode: all parsed again.
        ("https://example.org/a?x=1", "https://example.org/b?x=1"),
        ("https://example.org/a?x=1", "https://example.com/a?x=1"),
        ("https://example.org/a?x=1#f", "https://example.org/a?x=1#g"),
        ("https://example.org/a?x=1#f", "https://example.org/a?x=1"),
        ("https://example.org/a?x=1", "https://example.org/a?x=a b"),
        ("https://example.org/a?x=1", "https://example.org/a?x=ü"),
        ("https://example.org/a?x=1", "https://example.org/a?x='1'"),
        ("https://example.org/a?x=1", "https://example.org/a?x=<1>"),
        ("https://example.org/a?x=1", "https://example.org/a/?x=1"),
        ("https://example.org/a?x=1", "https://example.org/"),
    ])
    func leavesOtherTextToTheParser(_ base: String, _ text: String) throws {
        #expect(try ParsedURL(base).replacingQuery(withTextOf: text) == nil)
    }

    /// Generated: links with queries and fragments, each with subsets of its query's parameters
    /// kept (what a cleaner does) and bytes dropped anywhere (what it must not be trusted with).
    @Test func agreesWithTheParserOnGeneratedCleanings() throws {
        var random = SplitMix64(seed: 32)
        let bases = ["https://example.org/p/", "http://a.b.example:81/x/y", "https://xn--bcher-kva.de/", "mailto:a@b.example",
                     "https://example.org/%7Euser", "ftp://f.example/d", "web+app:thing", "https://[::1]/"]
        let parameters = ["utm_source=x", "id=1", "a=%20b", "q=caf%C3%A9", "empty=", "flag", "x=1%3D2", "fbclid=Iw", "%3F=%23"]
        var shortcuts = 0, compared = 0
        for _ in 0..<4_000 {
            var text = bases[random.below(bases.count)]
            if random.below(4) > 0 { text += "?" + (0..<(1 + random.below(4))).map { _ in parameters[random.below(parameters.count)] }.joined(separator: "&") }
            if random.below(3) == 0 { text += "#frag" + String(random.below(10)) }
            guard let url = try? ParsedURL(text) else { continue }
            var cleaned = Array(url.string.utf8)
            switch random.below(3) {
            case 0:  // keep some parameters, in order
                let items = (url.query ?? "").split(separator: "&").filter { _ in random.below(2) == 0 }
                let head = url.string.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url.string
                let base = head.split(separator: "#", maxSplits: 1).first.map(String.init) ?? head
                cleaned = Array((base + (items.isEmpty ? "" : "?" + items.joined(separator: "&")) + (url.fragment.map { "#" + $0 } ?? "")).utf8)
            case 1:  // drop one byte anywhere
                if !cleaned.isEmpty { cleaned.remove(at: random.below(cleaned.count)) }
            default:  // put a byte anywhere
                cleaned.insert(Array("a?#& %'ü/".utf8)[random.below(10)], at: random.below(cleaned.count + 1))
            }
            let given = String(decoding: cleaned, as: UTF8.self)
            compared += 1
            if let replaced = url.replacingQuery(withTextOf: given) {
                shortcuts += 1
                #expect(replaced == (try? ParsedURL(given)), "\(url.string) → \(given)")
            }
        }
        print("replacingQuery: \(shortcuts) of \(compared) generated cleanings took the shortcut, all as the parser reads them")
        #expect(shortcuts > 500)
    }
}

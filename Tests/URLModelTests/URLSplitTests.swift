import Testing
@testable import URLModel

/// `URLSplit` finds its marks with memchr and hygiene removes query items in one pass: both must
/// give what the byte loops they replaced gave.
@Suite struct URLSplitTests {
    static let links = [
        "https://example.org/a?utm_source=x&id=1",
        "https://example.org/a?utm_source=x",
        "https://example.org/a?utm_source=x#top?not=query",
        "https://example.org/a#top?utm_source=x",
        "https://example.org/a?id=1&&utm_medium=m&&b=2#f",
        "https://example.org/a?&utm_campaign=c&",
        "https://example.org/a?fbclid=1&gclid=2",
        "https://user:pw@Example.ORG.:8443/p/q?fbclid=1&x#y",
        "https://[::1]:80/p?utm_source=1",
        "http://a@b@host.example/?utm_source=1&keep",
        "https://example.org?utm_source=x&a=1",
        "https://example.org/?",
        "https://example.org/#",
        "mailto:a@example.org?subject=Hi&utm_medium=mail",
        "file:///tmp/a?b#c",
        "no-scheme/path?utm_source=x",
        "",
        "?#",
        "https://example.org/a?UTM_Source=x&%75tm_medium=y&id=3",
    ]

    /// The split's marks as the byte loop found them: the first `#`, the first `?` before it,
    /// and the authority's end at the first `/` before either.
    static func reference(_ link: String) -> (query: Int?, fragment: Int?, pathStart: Int) {
        let bytes = Array(link.utf8)
        var fragment: Int?
        var query: Int?
        for (i, b) in bytes.enumerated() {
            if b == UInt8(ascii: "#") { fragment = i; break }
            if b == UInt8(ascii: "?"), query == nil { query = i }
        }
        let split = URLSplit(link)
        var pathStart = split.pathRange.lowerBound
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), split.hostRange.isEmpty == false || link.contains("//") {
            let beforeQuery = query ?? fragment ?? bytes.count
            var end = colon + 3
            if end <= beforeQuery, bytes.count > colon + 2, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") {
                while end < beforeQuery, bytes[end] != UInt8(ascii: "/") { end += 1 }
                pathStart = end
            }
        }
        return (query, fragment, pathStart)
    }

    @Test(arguments: links)
    func theMarksAreWhereTheByteLoopFoundThem(_ link: String) {
        let split = URLSplit(link)
        let expected = Self.reference(link)
        #expect(split.queryMark == expected.query, "\(link)")
        #expect(split.fragmentRange?.lowerBound == expected.fragment.map { $0 + 1 }, "\(link)")
        #expect(split.pathRange.lowerBound == expected.pathStart, "\(link)")
    }

    @Test(arguments: links)
    func removingItemsGivesWhatFilteringAndReplacingGave(_ link: String) {
        let split = URLSplit(link)
        let keep: (UnsafeBufferPointer<UInt8>) -> Bool = { name in
            !(name.starts(with: Array("utm_".utf8)) || name.elementsEqual(Array("fbclid".utf8)) || name.elementsEqual(Array("gclid".utf8)))
        }
        let filtered = split.queryRange.flatMap { $0.isEmpty ? nil : filterItems(split.bytes, range: $0, keepName: keep) }
        let removed = removingItems(from: split, keepName: keep)
        #expect((filtered == nil) == (removed == nil), "\(link)")
        if let filtered, let removed {
            #expect(removed.url == replacing(in: split, query: filtered.kept, fragment: nil), "\(link)")
            #expect(removed.removed.map(\.range) == filtered.removed.map(\.range), "\(link)")
        }
    }

    @Test func removingEveryItemDropsTheQuestionMarkAndKeepsTheFragment() throws {
        let removed = try #require(removingItems(from: URLSplit("https://example.org/a?utm_source=x&&fbclid=1#top"), keepName: { _ in false }))
        #expect(String(decoding: removed.url, as: UTF8.self) == "https://example.org/a#top")
        #expect(removed.removed.count == 2)
    }
}

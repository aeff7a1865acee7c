import Testing
@testable import Routing

/// The rule index's byte-keyed table: pairs grouped by key, each key's positions in the order
/// given, found by String or by bytes, other keys (and prefixes of keys) not found.
@Suite struct ByteKeyTableTests {
    /// `(pairs, key, expected positions)`; nil: the key is not in the table.
    @Test(arguments: [
        ([("a.example", 0), ("b.example", 1), ("a.example", 2)], "a.example", [0, 2] as [Int]?),
        ([("a.example", 0), ("b.example", 1), ("a.example", 2)], "b.example", [1]),
        ([("a.example", 0), ("b.example", 1), ("a.example", 2)], "example", nil),
        ([("a.example", 0), ("b.example", 1), ("a.example", 2)], "a.example.", nil),
        ([("x", 5), ("x", 3), ("x", 9)], "x", [5, 3, 9]),
        ([("", 4)], "", [4]),
        ([], "a", nil),
    ] as [([(String, Int)], String, [Int]?)])
    func groupsByKeyInTheOrderGiven(pairs: [(String, Int)], key: String, expected: [Int]?) {
        let table = ByteKeyTable(grouping: pairs.map { (key: $0.0, position: $0.1) })
        var found: [Int] = []
        #expect(table.append(key, to: &found) == (expected != nil))
        #expect(found == (expected ?? []))
    }

    /// Enough keys that probes collide and wrap: every key finds exactly its own positions.
    @Test func manyKeysEachFindTheirOwn() {
        var pairs: [(key: String, position: Int)] = []
        for position in 0..<3000 { pairs.append(("site\(position % 1000).example", position)) }
        let table = ByteKeyTable(grouping: pairs)
        for site in 0..<1000 {
            var found: [Int] = []
            #expect(table.append("site\(site).example", to: &found))
            #expect(found == [site, site + 1000, site + 2000])
        }
        var none: [Int] = []
        #expect(!table.append("site1000.example", to: &none) && none.isEmpty)
    }
}

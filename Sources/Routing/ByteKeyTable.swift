import Platform

/// A read-only map from byte strings (domains, path segments, schemes) to lists of rule
/// positions, looked up with a slice of the URL's bytes.
///
/// A `[Substring: [Int]]` cost a String hash (SipHash over normalised text) and a String
/// comparison per parent domain of every host; this table hashes the bytes with FNV-1a, compares
/// them with a byte loop, and keeps keys and positions in flat arrays (no retain per lookup).
struct ByteKeyTable: Sendable {
    /// Open addressing: entry number + 1, or 0 for an empty slot; the count is a power of two.
    private let slots: [Int32]
    /// Entry `e`'s key is `keyBytes[keyStart[e]..<keyStart[e + 1]]`.
    private let keyBytes: [UInt8]
    private let keyStart: [Int32]
    /// Entry `e`'s positions are `positions[valueStart[e]..<valueStart[e + 1]]`, ascending.
    private let positions: [Int]
    private let valueStart: [Int32]

    /// True when no key was added.
    var isEmpty: Bool { keyStart.count <= 1 }

    /// Groups `pairs` by key, keeping each key's positions in the order given. Built straight
    /// into the table: a `[String: Int]` of groups and an array per key cost ~2k instructions a
    /// pair (SipHash, an allocation), 2M at each load of 1,000 rules.
    init(grouping pairs: [(key: String, position: Int)]) {
        var keyBytes: [UInt8] = []
        var keyStart: [Int32] = [0]
        var slotCount = 8
        while slotCount < pairs.count * 2 { slotCount *= 2 }
        var slots = [Int32](repeating: 0, count: slotCount)
        // Each entry's pairs as a chain through `nextPair`, in the order given.
        var firstPair: [Int32] = [], lastPair: [Int32] = []
        var nextPair = [Int32](repeating: -1, count: pairs.count)
        for (number, pair) in pairs.enumerated() {
            var key = pair.key
            let entry = key.withUTF8 { key -> Int in
                let found = slots.withUnsafeBufferPointer { slots in
                    keyBytes.withUnsafeBufferPointer { keyBytes in
                        keyStart.withUnsafeBufferPointer { Self.probe(key, slots: slots, keyBytes: keyBytes, keyStart: $0) }
                    }
                }
                if let entry = found.entry { return entry }
                keyBytes.append(contentsOf: key)
                keyStart.append(Int32(keyBytes.count))
                slots[found.slot] = Int32(keyStart.count - 1)
                firstPair.append(-1)
                lastPair.append(-1)
                return keyStart.count - 2
            }
            if lastPair[entry] < 0 { firstPair[entry] = Int32(number) } else { nextPair[Int(lastPair[entry])] = Int32(number) }
            lastPair[entry] = Int32(number)
        }
        var positions: [Int] = []
        positions.reserveCapacity(pairs.count)
        var valueStart: [Int32] = [0]
        valueStart.reserveCapacity(firstPair.count + 1)
        for first in firstPair {
            var pair = Int(first)
            while pair >= 0 {
                positions.append(pairs[pair].position)
                pair = Int(nextPair[pair])
            }
            valueStart.append(Int32(positions.count))
        }
        self.slots = slots
        self.keyBytes = keyBytes
        self.keyStart = keyStart
        self.positions = positions
        self.valueStart = valueStart
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: value ^ (value >> 29))
    }

    /// Appends the positions filed under `key` to `out`; false when there are none.
    @discardableResult
    func append(_ key: UnsafeBufferPointer<UInt8>, to out: inout [Int]) -> Bool {
        guard !isEmpty else { return false }
        let found = slots.withUnsafeBufferPointer { slots in
            keyBytes.withUnsafeBufferPointer { keyBytes in
                keyStart.withUnsafeBufferPointer { Self.probe(key, slots: slots, keyBytes: keyBytes, keyStart: $0).entry }
            }
        }
        guard let entry = found else { return false }
        out += positions[Int(valueStart[entry])..<Int(valueStart[entry + 1])]
        return true
    }

    /// Where `key` is: its entry when filed (nil when not) and the slot the probe stopped at (a
    /// free one, for a new key). The one probe of look-ups and of building the table.
    @inline(__always)
    private static func probe(_ key: UnsafeBufferPointer<UInt8>, slots: UnsafeBufferPointer<Int32>, keyBytes: UnsafeBufferPointer<UInt8>,
                              keyStart: UnsafeBufferPointer<Int32>) -> (entry: Int?, slot: Int) {
        let mask = slots.count - 1
        var slot = hash(key) & mask
        while slots[slot] != 0 {
            let entry = Int(slots[slot]) - 1
            let from = Int(keyStart[entry]), to = Int(keyStart[entry + 1])
            if to - from == key.count, keyBytes.part(from..<to).isEqual(to: key) { return (entry, slot) }
            slot = (slot + 1) & mask
        }
        return (nil, slot)
    }

    /// `append(_:to:)` for a string key.
    @discardableResult
    func append(_ key: String, to out: inout [Int]) -> Bool {
        var key = key
        return key.withUTF8 { append($0, to: &out) }
    }
}

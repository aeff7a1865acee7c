/// An open-addressing table from a 64-bit hash to an `Int32` ≥ 0 (linear probing, at most half
/// full): the hashes are FNV already, so no second hash is computed. Equal hashes are allowed;
/// `insert` returns the value it displaces, for the caller to chain. The slots are one array of
/// plain values, so a probe costs no reference counting.
///
/// A slot keeps 32 bits of its hash (the low bits pick the slot, the high bits are kept), so
/// two hashes may share a chain: every caller compares what a chain leads to with what it looks
/// for, and 8-byte slots halve the tables (Debian's two block lists: 545 → 273 KB).
struct HashSlots: Sendable {
    struct Slot: Sendable {
        var key: UInt32 = 0
        /// -1 in a free slot.
        var value: Int32 = -1
        var used: Bool { value >= 0 }
    }

    private(set) var slots: [Slot] = []
    private var mask = 0
    private(set) var isEmpty = true

    /// A table of `slots` as `slots` returned them (a snapshot); nil unless their count is a
    /// power of two of at least 16, as `init(capacity:)` makes them.
    init?(slots: [Slot], isEmpty: Bool) {
        // At most half full, as `insert` keeps them: a full table would make a probe endless.
        guard slots.count >= 16, slots.count & (slots.count - 1) == 0, slots.reduce(0, { $0 + ($1.used ? 1 : 0) }) <= slots.count / 2 else { return nil }
        self.slots = slots
        mask = slots.count - 1
        self.isEmpty = isEmpty
    }

    /// A table for `capacity` keys.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: Slot(), count: size)
        mask = size - 1
    }

    /// The value stored for `key`, or -1.
    func find(_ key: UInt64) -> Int32 {
        guard !isEmpty else { return -1 }
        let kept = Self.kept(key)
        return slots.withUnsafeBufferPointer { slots in
            var index = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
            while slots[index].used {
                if slots[index].key == kept { return slots[index].value }
                index = (index + 1) & mask
            }
            return -1
        }
    }

    /// Stores `value` for `key`; returns the value it replaces (-1 for none).
    mutating func insert(_ key: UInt64, _ value: Int32) -> Int32 {
        assert(value >= 0, "a table holds indices")
        isEmpty = false
        let kept = Self.kept(key)
        var index = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
        while slots[index].used {
            if slots[index].key == kept {
                let previous = slots[index].value
                slots[index].value = value
                return previous
            }
            index = (index + 1) & mask
        }
        slots[index] = Slot(key: kept, value: value)
        return -1
    }

    /// The bits of `key` a slot keeps: those that do not pick its slot (SuffixIndex keeps the same).
    static func kept(_ key: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: key >> 32)
    }
}

/// An open-addressing table from a 64-bit hash to an `Int32` (linear probing, at most half
/// full): the hashes are FNV already, so no second hash is computed. Equal hashes are allowed;
/// `insert` returns the value it displaces, for the caller to chain. The slots are one array of
/// plain values, so a probe costs no reference counting.
struct HashSlots: Sendable {
    struct Slot: Sendable {
        var key: UInt64 = 0
        var value: Int32 = -1
        var used = false
    }

    private(set) var slots: [Slot] = []
    private var mask = 0
    private(set) var isEmpty = true

    /// A table of `slots` as `slots` returned them (a snapshot); nil unless their count is a
    /// power of two of at least 16, as `init(capacity:)` makes them.
    init?(slots: [Slot], isEmpty: Bool) {
        guard slots.count >= 16, slots.count & (slots.count - 1) == 0 else { return nil }
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
        return slots.withUnsafeBufferPointer { slots in
            var index = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
            while slots[index].used {
                if slots[index].key == key { return slots[index].value }
                index = (index + 1) & mask
            }
            return -1
        }
    }

    /// Stores `value` for `key`; returns the value it replaces (-1 for none).
    mutating func insert(_ key: UInt64, _ value: Int32) -> Int32 {
        isEmpty = false
        var index = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
        while slots[index].used {
            if slots[index].key == key {
                let previous = slots[index].value
                slots[index].value = value
                return previous
            }
            index = (index + 1) & mask
        }
        slots[index] = Slot(key: key, value: value, used: true)
        return -1
    }
}

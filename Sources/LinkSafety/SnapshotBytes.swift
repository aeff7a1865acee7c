/// The byte format of a compiled snapshot: little-endian integers and length-prefixed byte runs,
/// written in one buffer. A reader checks every length against what is left, so a short or
/// damaged file ends in `nil`, never in a read past its end.
struct SnapshotWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }

    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }

    /// A count, then the bytes.
    mutating func run(_ run: [UInt8]) {
        u32(UInt32(clamping: run.count))
        bytes += run
    }

    /// A count, then each value.
    mutating func i32s(_ values: [Int32]) {
        u32(UInt32(clamping: values.count))
        bytes.reserveCapacity(bytes.count + values.count * 4)
        for value in values { i32(value) }
    }
}

/// Reads what `SnapshotWriter` wrote; every read is nil once the bytes run out. It reads the
/// bytes where they are (a mapped snapshot file), valid only while the caller holds them.
struct SnapshotReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func u8() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u32() -> UInt32? {
        guard bytes.count - offset >= 4 else { return nil }
        defer { offset += 4 }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    mutating func u64() -> UInt64? {
        guard bytes.count - offset >= 8 else { return nil }
        defer { offset += 8 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    mutating func i32() -> Int32? { u32().map { Int32(bitPattern: $0) } }

    mutating func i64() -> Int64? { u64().map { Int64(bitPattern: $0) } }

    /// A count no larger than what is left at `stride` bytes each (a damaged count is caught
    /// before anything is allocated for it).
    mutating func count(stride: Int) -> Int? {
        guard let count = u32().map(Int.init), count <= (bytes.count - offset) / max(stride, 1) else { return nil }
        return count
    }

    mutating func run() -> [UInt8]? {
        guard let count = count(stride: 1) else { return nil }
        defer { offset += count }
        return Array(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
    }

    mutating func i32s() -> [Int32]? {
        guard let count = count(stride: 4) else { return nil }
        var values: [Int32] = []
        values.reserveCapacity(count)
        for index in 0..<count {
            values.append(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + index * 4, as: Int32.self)))
        }
        offset += count * 4
        return values
    }

    /// A checksum of `bytes[range]`, eight bytes a step: it finds damage (a torn write, a flipped
    /// bit), not tampering, which only the file's owner could do (the file is 0600 and never read
    /// through a link).
    static func checksum(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 {
        bytes.withUnsafeBytes { checksum($0, range) }
    }

    /// `checksum(_:_:)` of bytes where they are.
    static func checksum(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(range.count)
        var index = range.lowerBound
        while index + 8 <= range.upperBound {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            hash = (hash ^ word) &* 0x0000_0100_0000_01b3
            hash ^= hash >> 29
            index += 8
        }
        while index < range.upperBound {
            hash = (hash ^ UInt64(raw[index])) &* 0x0000_0100_0000_01b3
            index += 1
        }
        return hash
    }
}

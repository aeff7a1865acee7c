import Glibc

/// Byte buffers read in place: parts of them, and comparisons with literals that make no arrays.
extension UnsafeBufferPointer<UInt8> {
    /// The bytes in `range`, as a buffer of their own (its indices from 0).
    @inlinable
    public func part(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[range])
    }

    /// The index of the first `byte` at or after `start`, or `count` (memchr: it reads a lines'
    /// worth of bytes in a few instructions).
    @inlinable
    public func index(of byte: UInt8, from start: Int) -> Int {
        guard start < count, let base = baseAddress, let found = memchr(base + start, Int32(byte), count - start) else { return count }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// True when the bytes start with `literal`.
    @inlinable
    public func hasPrefix(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard count >= length, let base = baseAddress else { return length == 0 }
        return memcmp(base, literal.utf8Start, length) == 0
    }

    /// True when the bytes are `literal`.
    @inlinable
    public func isEqual(to literal: StaticString) -> Bool {
        count == literal.utf8CodeUnitCount && hasPrefix(literal)
    }
}

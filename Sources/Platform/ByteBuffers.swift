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

    /// True when the bytes are `other`'s (memcmp: the generic `elementsEqual` of two buffers or
    /// their slices costs several instructions a byte more).
    @inlinable
    public func isEqual(to other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let base = baseAddress, let otherBase = other.baseAddress else { return true }
        return memcmp(base, otherBase, count) == 0
    }
}

extension String {
    /// True when the text's UTF-8 holds `byte`: memchr over its bytes, where the UTF-8 view's
    /// generic `contains` costs ~20 instructions a byte.
    @inlinable
    public func containsByte(_ byte: UInt8) -> Bool {
        var text = self
        return text.withUTF8 { $0.index(of: byte, from: 0) < $0.count }
    }
}

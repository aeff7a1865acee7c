import Glibc
import Testing
@testable import Platform

/// Whole-file reads: one buffer of the file's size for a regular file, doubling for the rest,
/// and the `limit` that tells an over-long file from one that fits.
@Suite struct ReadToEndTests {
    /// File sizes around the 16 KiB start for unknown sizes and the old 64 KiB chunk.
    @Test(arguments: [0, 1, 4095, 4096, 16 * 1024, 16 * 1024 + 1, 65_536, 65_537, 1_000_003])
    func aRegularFileIsReadWhole(size: Int) throws {
        let dir = TemporaryDirectory()
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try FileSystem.write(bytes, to: dir.file("f"))
        #expect(FileSystem.contents(dir.file("f")) == bytes)
        #expect(try FileSystem.ownContents(dir.file("f")) == bytes)
        #expect(try ReadableFile(dir.file("f")).read(upTo: Int.max - 1) == bytes)
    }

    /// `(size, limit, expected count)`: a result longer than the limit is exactly one byte over it.
    @Test(arguments: [(10, 10, 10), (11, 10, 11), (300_000, 100_000, 100_001), (5, 0, 1), (0, 0, 0)])
    func theLimitStopsOneBytePast(size: Int, limit: Int, expected: Int) throws {
        let dir = TemporaryDirectory()
        try FileSystem.write([UInt8](repeating: 9, count: size), to: dir.file("f"))
        #expect(try ReadableFile(dir.file("f")).read(upTo: limit).count == expected)
    }

    /// A file whose size fstat does not know (procfs says 0) is read to its end all the same.
    @Test func aFileWithoutASizeIsReadToItsEnd() throws {
        let text = try #require(FileSystem.contents("/proc/self/maps"))
        #expect(text.count > 16 * 1024 || String(decoding: text, as: UTF8.self).contains("[stack]"))
        #expect(String(decoding: text, as: UTF8.self).hasSuffix("\n"))
    }

    /// A pipe longer than the first 16 KiB buffer arrives whole, through the doubling path (50,000
    /// bytes fit in a pipe's 64 KiB, so they are all written before the read).
    @Test func aPipeIsReadWhole() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let bytes = (0..<50_000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(bytes.withUnsafeBytes { Glibc.write(ends[1], $0.baseAddress, $0.count) } == bytes.count)
        close(ends[1])
        #expect(Sys.readToEnd(ends[0]) == bytes)
        close(ends[0])
    }
}

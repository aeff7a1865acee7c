import Platform
import URLModel

/// The parts of a filter line: its pattern, cosmetic markers, its host's bytes and comment headers.
extension BlockListParser {
    /// What a line's pattern holds, as positions in it: plain values, so that a line copies and
    /// releases nothing until its entry is made (an optional holding an enum with arrays in it
    /// was copied and destroyed through run-time type metadata, ~400 instructions a line).
    struct Pattern {
        /// As `BlockEntry.Kind`, without what is read from the line.
        enum Kind { case host, url, labelPrefix }

        var kind: Kind
        /// The host's bytes.
        var host: Range<Int>
        /// A URL pattern's path and query, without the `|` that anchors it at the end.
        var path: Range<Int> = 0..<0
        var anchoredAtEnd = false
        var scheme = BlockEntry.Scheme.any
    }

    /// The host (a range of `body`) and what follows it of `||host^`, `||host/path`, `||name.`,
    /// `|https://host/…` or a plain host; nil for anything a host look-up cannot decide.
    static func pattern(_ body: UnsafeBufferPointer<UInt8>) -> Pattern? {
        if body.hasPrefix("||") {
            let hostEnd = hostEnd(body, from: 2)
            guard hostEnd > 2, hostEnd == body.count || body[hostEnd] != UInt8(ascii: "*") else { return nil }
            if body[hostEnd - 1] == UInt8(ascii: ".") {
                let tail = body.part(hostEnd..<body.count)
                guard tail.isEmpty || tail.isEqual(to: "^"), !body.part(2..<(hostEnd - 1)).contains(UInt8(ascii: ".")) else { return nil }
                return Pattern(kind: .labelPrefix, host: 2..<(hostEnd - 1))
            }
            return hostAndPath(body, host: 2..<hostEnd, scheme: .any)
        }
        if body.first == UInt8(ascii: "|") {
            let scheme: BlockEntry.Scheme
            var hostStart: Int
            if body.part(1..<body.count).hasPrefix("https://") {
                (scheme, hostStart) = (.https, 9)
            } else if body.part(1..<body.count).hasPrefix("http://") {
                (scheme, hostStart) = (.http, 8)
            } else {
                return nil
            }
            if body.part(hostStart..<body.count).hasPrefix("*.") { hostStart += 2 }
            let hostEnd = hostEnd(body, from: hostStart)
            guard hostEnd > hostStart, body[hostEnd - 1] != UInt8(ascii: ".") else { return nil }
            return hostAndPath(body, host: hostStart..<hostEnd, scheme: scheme)
        }
        // A plain host name or address (lists such as URLhaus write them bare).
        guard body.contains(UInt8(ascii: ".")), body.allSatisfy(isHostByte),
              body.first != UInt8(ascii: "."), body.last != UInt8(ascii: ".") else { return nil }
        return Pattern(kind: .host, host: 0..<body.count)
    }

    /// Where the host bytes from `start` end.
    private static func hostEnd(_ body: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var end = start
        while end < body.count, isHostByte(body[end]) { end += 1 }
        return end
    }

    /// What follows a host: nothing or `^` (the host), or `/…` (a URL pattern).
    private static func hostAndPath(_ body: UnsafeBufferPointer<UInt8>, host: Range<Int>, scheme: BlockEntry.Scheme) -> Pattern? {
        let tail = body.part(host.upperBound..<body.count)
        if tail.isEmpty || tail.isEqual(to: "^") || tail.isEqual(to: "^|") || tail.isEqual(to: "|") {
            return Pattern(kind: .host, host: host)
        }
        guard tail.first == UInt8(ascii: "/") else { return nil }
        let anchored = tail.last == UInt8(ascii: "|")
        return Pattern(kind: .url, host: host, path: host.upperBound..<(body.count - (anchored ? 1 : 0)), anchoredAtEnd: anchored, scheme: scheme)
    }

    /// `##`, `#@#`, `#?#`, `#$#`, `#%#` and their `@` forms (`#@?#`, …), and `#$?#`.
    static func isCosmetic(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        func byte(_ index: Int) -> UInt8? { index < line.count ? line[index] : nil }
        var hash = line.index(of: UInt8(ascii: "#"), from: 0)
        while hash < line.count {
            if byte(hash + 1) == UInt8(ascii: "#") { return true }
            let marker = byte(hash + 1) == UInt8(ascii: "@") ? hash + 2 : hash + 1
            if let sign = byte(marker),
               sign == UInt8(ascii: "#") || sign == UInt8(ascii: "?") || sign == UInt8(ascii: "$") || sign == UInt8(ascii: "%") {
                if sign == UInt8(ascii: "#") || byte(marker + 1) == UInt8(ascii: "#")
                    || (sign == UInt8(ascii: "$") && byte(marker + 1) == UInt8(ascii: "?") && byte(marker + 2) == UInt8(ascii: "#")) {
                    return true
                }
            }
            hash = line.index(of: UInt8(ascii: "#"), from: hash + 1)
        }
        return false
    }

    /// A bit per byte value instead of a chain of comparisons: hosts are read byte by byte.
    static func isHostByte(_ byte: UInt8) -> Bool {
        let bits: UInt64 = switch byte >> 6 {
        case 0: 0x03FF_6020_0000_0000   // 0x00–0x3F: `%` (bit 37), `-` (45), `.` (46), `0`–`9` (48–57)
        case 1: 0x07FF_FFFE_87FF_FFFE   // 0x40–0x7F: `A`–`Z` (1–26), `_` (31), `a`–`z` (33–58)
        default: ~0                     // 0x80–0xFF
        }
        return bits >> (byte & 63) & 1 != 0
    }

    /// `byte` in lowercase, if it is an ASCII letter.
    static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Copies `source` to `destination` (as long) with ASCII letters in lowercase, eight bytes
    /// at a time: hosts and patterns are lowercased as they are stored, some 300 KB for
    /// Debian's lists.
    static func copyLowercased(_ source: UnsafeBufferPointer<UInt8>, to destination: UnsafeMutableBufferPointer<UInt8>) {
        guard let from = source.baseAddress, let to = destination.baseAddress else { return }
        var index = 0
        while index + 8 <= source.count {
            let word = UnsafeRawPointer(from).loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // Per byte, 0x80 when it is `A`–`Z`: its low seven bits are at least 0x41 (adding
            // 0x3F carries into bit 7), less than 0x5B (adding 0x25 does not), and bit 7 is clear.
            let low = word & 0x7F7F_7F7F_7F7F_7F7F
            let upper = (low &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(low &+ 0x2525_2525_2525_2525) & ~word & 0x8080_8080_8080_8080
            UnsafeMutableRawPointer(to).storeBytes(of: word | upper >> 2, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < source.count {
            to[index] = lowercase(from[index])
            index += 1
        }
    }

    /// A copy of `bytes` with ASCII letters in lowercase. (Copied, then lowercased in place:
    /// `Array(unsafeUninitializedCapacity:)` is not specialised and looks its type up at run time,
    /// some 400 instructions a call.)
    static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var copy = Array(bytes)
        copy.withUnsafeMutableBufferPointer { copy in
            for index in copy.indices { copy[index] = lowercase(copy[index]) }
        }
        return copy
    }

    /// The value of `! Name: value` in a comment line.
    static func header(_ name: StaticString, in line: UnsafeBufferPointer<UInt8>) -> String? {
        var start = 1
        while start < line.count, line[start] == 0x20 { start += 1 }
        guard line.part(start..<line.count).hasPrefix(name) else { return nil }
        start += name.utf8CodeUnitCount
        while start < line.count, line[start] == 0x20 { start += 1 }
        return start == line.count ? nil : String(decoding: line.part(start..<line.count), as: UTF8.self)
    }
}

extension UnsafeMutableBufferPointer<UInt8> {
    /// The bytes in `range`, as a buffer of their own (its indices from 0).
    func part(_ range: Range<Int>) -> UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(rebasing: self[range])
    }
}

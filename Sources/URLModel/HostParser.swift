import CIDNA

/// The host of a special-scheme URL (`http`, `https`, `ws`, `wss`, `ftp`) read as browsers read
/// it, by the WHATWG URL Standard's host parser: percent-decoded, mapped by UTS #46 (fullwidth
/// letters and dots, case folding, `xn--` form), IPv4 in every form it accepts (`0x7f.1`,
/// `2130706433`, `0177.0.0.1`) turned into dotted decimal, IPv6 compressed. What a browser
/// would refuse is refused here too, so the host a rule matches is the host the browser opens.
package enum HostParser {
    /// Hosts longer than this (percent-decoded, and again in ASCII form) are refused: four
    /// times what DNS can resolve (253), and it keeps the work per URL small.
    static let maximumInputLength = 1024

    /// The serialised host for `raw` (the bytes between the userinfo and the port).
    package static func parse(_ raw: ArraySlice<UInt8>) throws(URLParseError) -> String {
        if raw.first == UInt8(ascii: "[") {
            guard raw.count >= 2, raw.last == UInt8(ascii: "]") else {
                throw URLParseError(message: "IPv6 host is missing its closing ]")
            }
            guard let pieces = parseIPv6(raw.dropFirst().dropLast()) else {
                throw URLParseError(message: "invalid IPv6 address \"\(String(decoding: raw, as: UTF8.self))\"")
            }
            return "[" + serializeIPv6(pieces) + "]"
        }
        if let plain = plainHost(raw) { return plain }
        let shown = String(decoding: raw, as: UTF8.self)
        guard !raw.isEmpty else { throw URLParseError(message: "URL has an empty host") }
        let decoded = raw.contains(UInt8(ascii: "%")) ? PercentEncoding.decodeBytes(Substring(shown)) : Array(raw)
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw URLParseError(message: "invalid host \"\(shown)\": it is not UTF-8")
        }
        let ascii = try domainToASCII(text, decoded: decoded, shown: shown)
        if endsInANumber(ascii) {
            guard let address = parseIPv4(ascii) else {
                throw URLParseError(message: "invalid host \"\(shown)\": it ends in a number but is not an IPv4 address")
            }
            return serializeIPv4(address)
        }
        return ascii
    }

    /// The URL Standard's "domain to ASCII" (beStrict false) of percent-decoded UTF-8 `text`
    /// (`decoded` is its bytes), then its forbidden domain code point check; `shown` names the
    /// domain in messages. Hosts and mail domains both go through it.
    package static func domainToASCII(_ text: String, decoded: [UInt8], shown: String) throws(URLParseError) -> String {
        guard decoded.count <= maximumInputLength else {
            throw URLParseError(message: "host is \(decoded.count) bytes long; the limit is \(maximumInputLength)")
        }
        let isASCII = decoded.allSatisfy { $0 < 0x80 }
        // An ASCII domain is taken as it is, lowercased: its `xn--` labels are not decoded or
        // checked (ICU would refuse some the standard accepts).
        let ascii = isASCII ? String(decoding: decoded.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
            : try toASCII(text, decoded: decoded, shown: shown)
        guard !ascii.isEmpty else { throw URLParseError(message: "invalid host \"\(shown)\": it maps to nothing") }
        guard ascii.utf8.count <= maximumInputLength else {
            throw URLParseError(message: "host is \(ascii.utf8.count) bytes long in ASCII form; the limit is \(maximumInputLength)")
        }
        // Forbidden code points are looked for after mapping, as the standard does: `<` with a
        // combining U+0338 is `≮`, a valid host.
        if let bad = ascii.utf8.first(where: isForbiddenInDomain) {
            throw URLParseError(message: isASCII
                ? "invalid host \"\(shown)\": it contains \(describe(bad)), which no browser accepts in a host"
                : "invalid host \"\(shown)\": it maps to \"\(ascii)\", which contains \(describe(bad))")
        }
        return ascii
    }

    /// The common case in one pass and one allocation: letters, digits, `-` and `.` only, no
    /// `xn--` label (its Unicode form would differ), not ending in a number. The URL Standard
    /// maps such a host to itself lowercased. Nil when the full parse is needed.
    static func plainHost(_ raw: ArraySlice<UInt8>) -> String? {
        guard !raw.isEmpty, raw.count <= maximumInputLength else { return nil }
        // Read through a buffer: the slice's checked subscripts were ~30 instructions a byte.
        return raw.withUnsafeBufferPointer { plainHost(in: $0) }
    }

    private static func plainHost(in raw: UnsafeBufferPointer<UInt8>) -> String? {
        var labelStart = 0
        var lastLabel = 0..<0
        var labelHasLetter = false
        var lastLabelHasLetter = false
        var hasUppercase = false
        var i = 0
        while i <= raw.count {
            if i == raw.count || raw[i] == UInt8(ascii: ".") {
                let length = i - labelStart
                if length == 0 {
                    // Only a trailing dot may leave an empty label; other empty labels go the long way.
                    guard i == raw.count, i > 0, raw[i - 1] == UInt8(ascii: ".") else { return nil }
                } else {
                    guard !startsWithXN(raw, labelStart) else { return nil }
                    lastLabel = labelStart..<i
                    lastLabelHasLetter = labelHasLetter
                }
                if i == raw.count { break }
                labelStart = i + 1
                labelHasLetter = false
                i += 1
                continue
            }
            switch raw[i] {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"): labelHasLetter = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): labelHasLetter = true; hasUppercase = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): break
            default: return nil
            }
            i += 1
        }
        // A last label of digits, or starting `0x`, may be IPv4: the full parse decides.
        guard !lastLabel.isEmpty, lastLabelHasLetter else { return nil }
        if lastLabel.count >= 2, raw[lastLabel.lowerBound] == UInt8(ascii: "0"), raw[lastLabel.lowerBound + 1] | 0x20 == UInt8(ascii: "x") { return nil }
        // Checked first, built once: the host string is the only allocation.
        guard hasUppercase else { return String(decoding: raw, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: raw.count) { buffer in
            for offset in 0..<raw.count {
                let byte = raw[offset]
                buffer[offset] = byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte
            }
            return raw.count
        }
    }

    private static func startsWithXN(_ raw: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
        raw.count - start >= 4 && raw[start] | 0x20 == UInt8(ascii: "x") && raw[start + 1] | 0x20 == UInt8(ascii: "n")
            && raw[start + 2] == UInt8(ascii: "-") && raw[start + 3] == UInt8(ascii: "-")
    }

    /// UTS #46 ToASCII (ICU) of a host with non-ASCII code points.
    private static func toASCII(_ text: String, decoded: [UInt8], shown: String) throws(URLParseError) -> String {
        // Unicode 15.1 maps U+1E9E (capital sharp s) to U+00DF where ICU 72 (Unicode 15)
        // still folds it to "ss"; browsers follow the newer table.
        var input = decoded
        if text.unicodeScalars.contains("\u{1E9E}") {
            var scalars = String.UnicodeScalarView()
            for scalar in text.unicodeScalars { scalars.append(scalar == "\u{1E9E}" ? "\u{DF}" : scalar) }
            input = Array(String(scalars).utf8)
        }
        switch convert(input, cidna_to_ascii) {
        case .success(let bytes):
            return String(decoding: bytes, as: UTF8.self)
        case .failure(let errors):
            // Say which byte when one is to blame; it may not be (`<` + U+0338 is valid).
            if let bad = decoded.first(where: isForbiddenInDomain) {
                throw URLParseError(message: "invalid host \"\(shown)\": it contains \(describe(bad)), which no browser accepts in a host")
            }
            throw URLParseError(message:
                "invalid host \"\(shown)\": it is not a valid international domain name (UTS #46 error 0x\(String(errors.bits, radix: 16)))")
        }
    }

    private struct IDNAErrors: Error { var bits: UInt32 }
    private typealias Converter = (UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<CChar>?, Int32, UnsafeMutablePointer<UInt32>?) -> Int32

    /// Runs an ICU conversion, growing the output buffer until it fits.
    private static func convert(_ input: [UInt8], _ converter: Converter) -> Result<[UInt8], IDNAErrors> {
        var capacity = max(64, input.count * 4 + 16)
        while true {
            var out = [CChar](repeating: 0, count: capacity)
            var errors: UInt32 = 0
            let name = input.map { CChar(bitPattern: $0) }
            let written = converter(name, Int32(name.count), &out, Int32(capacity), &errors)
            if written == -2 { capacity *= 2; continue }
            guard written >= 0 else { return .failure(IDNAErrors(bits: errors)) }
            return .success(out[0..<Int(written)].map { UInt8(bitPattern: $0) })
        }
    }

    /// The Unicode form of an ASCII host, for display and Unicode matchers; the host itself
    /// when it has no `xn--` label or does not decode.
    static func toUnicode(_ host: String) -> String {
        var text = host
        guard text.withUTF8({ hasPunycodeLabel($0) }) else { return host }
        let bytes = Array(host.utf8)
        guard hasPunycodeLabel(bytes[...]), case .success(let out) = convert(bytes, cidna_to_unicode) else { return host }
        return String(decoding: out, as: UTF8.self)
    }

    /// True when some label starts with `xn--` (any case).
    static func hasPunycodeLabel<Bytes: Collection>(_ host: Bytes) -> Bool where Bytes.Element == UInt8, Bytes.Index == Int {
        var atLabelStart = true
        var i = host.startIndex
        while i < host.endIndex {
            if atLabelStart, host.endIndex - i >= 4, host[i] | 0x20 == UInt8(ascii: "x"), host[i + 1] | 0x20 == UInt8(ascii: "n"),
               host[i + 2] == UInt8(ascii: "-"), host[i + 3] == UInt8(ascii: "-") { return true }
            atLabelStart = host[i] == UInt8(ascii: ".")
            i += 1
        }
        return false
    }

    /// The URL Standard's forbidden domain code points (its forbidden host code points, C0
    /// controls, `%` and DEL), as bytes: all are ASCII.
    static func isForbiddenInDomain(_ byte: UInt8) -> Bool {
        if byte <= 0x20 || byte == 0x7F { return true }
        switch byte {
        case UInt8(ascii: "#"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "?"),
             UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"),
             UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }

    /// `"x"` for a printable byte, `U+000A` for a control.
    static func describe(_ byte: UInt8) -> String {
        if byte > 0x20 && byte < 0x7F { return "\"\(Character(Unicode.Scalar(byte)))\"" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "U+00" + (hex.count < 2 ? "0" + hex : hex)
    }

    // MARK: IPv4

    /// The URL Standard's "ends in a number": the last label (less one trailing dot) is all
    /// digits, or `0x` and hex digits.
    static func endsInANumber(_ host: String) -> Bool {
        var parts = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true {
            if parts.count == 1 { return false }
            parts.removeLast()
        }
        guard let last = parts.last, !last.isEmpty else { return false }
        if last.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        let bytes = Array(last)
        return bytes.count >= 2 && bytes[0] == UInt8(ascii: "0") && bytes[1] | 0x20 == UInt8(ascii: "x")
            && bytes[2...].allSatisfy(isHexDigit)
    }

    /// The address of a host that ends in a number; nil when the URL Standard fails it.
    static func parseIPv4(_ host: String) -> UInt32? {
        var parts = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true, parts.count > 1 { parts.removeLast() }
        guard parts.count <= 4 else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = parseIPv4Number(Array(part)) else { return nil }
            numbers.append(number)
        }
        for number in numbers.dropLast() where number > 255 { return nil }
        guard let last = numbers.last, last < (UInt64(1) << (8 * UInt64(5 - numbers.count))) else { return nil }
        var address = last
        for (i, number) in numbers.dropLast().enumerated() { address += number << (8 * UInt64(3 - i)) }
        return UInt32(truncatingIfNeeded: address)
    }

    /// One IPv4 part: `0x` hex, leading-zero octal or decimal; values past 2^32 saturate.
    private static func parseIPv4Number(_ part: [UInt8]) -> UInt64? {
        guard !part.isEmpty else { return nil }
        var digits = part[...]
        var radix: UInt64 = 10
        if digits.count >= 2, digits.first == UInt8(ascii: "0"), digits[digits.startIndex + 1] | 0x20 == UInt8(ascii: "x") {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case 0x30...0x39: digit = UInt64(byte - 0x30)
            case 0x61...0x66: digit = UInt64(byte - 0x61 + 10)
            case 0x41...0x46: digit = UInt64(byte - 0x41 + 10)
            default: return nil
            }
            guard digit < radix else { return nil }
            value = min(value * radix + digit, UInt64(1) << 33)
        }
        return value
    }

    static func serializeIPv4(_ address: UInt32) -> String {
        "\(address >> 24).\((address >> 16) & 0xFF).\((address >> 8) & 0xFF).\(address & 0xFF)"
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
    }

    // MARK: IPv6

    /// The URL Standard's IPv6 parser: eight 16-bit pieces, or nil.
    static func parseIPv6(_ input: ArraySlice<UInt8>) -> [UInt16]? {
        let c = Array(input)
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int? = nil
        var p = 0
        func at(_ i: Int) -> UInt8? { i < c.count ? c[i] : nil }
        if at(p) == UInt8(ascii: ":") {
            guard at(p + 1) == UInt8(ascii: ":") else { return nil }
            p += 2
            pieceIndex += 1
            compress = pieceIndex
        }
        while let byte = at(p) {
            guard pieceIndex < 8 else { return nil }
            if byte == UInt8(ascii: ":") {
                guard compress == nil else { return nil }
                p += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value = 0, length = 0
            while length < 4, let d = at(p), isHexDigit(d) {
                value = value * 16 + Int(d <= 0x39 ? d - 0x30 : (d | 0x20) - 0x61 + 10)
                p += 1
                length += 1
            }
            if at(p) == UInt8(ascii: ".") {
                guard length > 0 else { return nil }
                p -= length
                guard pieceIndex <= 6 else { return nil }
                var numbersSeen = 0
                while at(p) != nil {
                    var ipv4Piece: Int? = nil
                    if numbersSeen > 0 {
                        guard at(p) == UInt8(ascii: "."), numbersSeen < 4 else { return nil }
                        p += 1
                    }
                    guard let first = at(p), first >= 0x30, first <= 0x39 else { return nil }
                    while let d = at(p), d >= 0x30, d <= 0x39 {
                        let number = Int(d - 0x30)
                        if ipv4Piece == nil { ipv4Piece = number } else if ipv4Piece == 0 { return nil } else { ipv4Piece = (ipv4Piece ?? 0) * 10 + number }
                        guard (ipv4Piece ?? 0) <= 255 else { return nil }
                        p += 1
                    }
                    address[pieceIndex] = address[pieceIndex] * 0x100 + UInt16(ipv4Piece ?? 0)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { return nil }
                break
            } else if at(p) == UInt8(ascii: ":") {
                p += 1
                guard at(p) != nil else { return nil }
            } else if at(p) != nil {
                return nil
            }
            address[pieceIndex] = UInt16(value)
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0, swaps > 0 {
                address.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }

    /// Lowercase hex pieces with the first longest run of two or more zero pieces as `::`.
    static func serializeIPv6(_ pieces: [UInt16]) -> String {
        var bestStart = -1, bestLength = 1
        var i = 0
        while i < 8 {
            if pieces[i] == 0 {
                var j = i
                while j < 8, pieces[j] == 0 { j += 1 }
                if j - i > bestLength { bestStart = i; bestLength = j - i }
                i = j
            } else {
                i += 1
            }
        }
        var out = ""
        var ignore0 = false
        for index in 0..<8 {
            if ignore0, pieces[index] == 0 { continue }
            ignore0 = false
            if index == bestStart {
                out += index == 0 ? "::" : ":"
                ignore0 = true
                continue
            }
            out += String(pieces[index], radix: 16)
            if index != 7 { out += ":" }
        }
        return out
    }
}

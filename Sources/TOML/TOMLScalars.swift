/// TOML's numbers, booleans' neighbours and dates, read from one token's bytes.
enum TOMLScalars {
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The value of a hexadecimal digit, or nil.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Digits of `isDigit` with single underscores between them; the digits without the underscores.
    private static func digits(_ token: ArraySlice<UInt8>, _ isDigit: (UInt8) -> Bool) -> [UInt8]? {
        guard let first = token.first, let last = token.last, isDigit(first), isDigit(last) else { return nil }
        var kept: [UInt8] = []
        kept.reserveCapacity(token.count)
        var previousUnderscore = false
        for byte in token {
            if byte == UInt8(ascii: "_") {
                guard !previousUnderscore else { return nil }
                previousUnderscore = true
            } else {
                guard isDigit(byte) else { return nil }
                previousUnderscore = false
                kept.append(byte)
            }
        }
        return kept
    }

    /// A decimal, hexadecimal (`0x`), octal (`0o`) or binary (`0b`) integer that fits 64 bits.
    static func integer(_ token: [UInt8]) -> Int64? {
        guard let first = token.first else { return nil }
        if token.count > 2, first == UInt8(ascii: "0") {
            let radix: Int64
            switch token[1] {
            case UInt8(ascii: "x"): radix = 16
            case UInt8(ascii: "o"): radix = 8
            case UInt8(ascii: "b"): radix = 2
            default: return decimal(token)
            }
            let isDigit = { (byte: UInt8) in hexValue(byte).map { Int64($0) < radix } ?? false }
            return digits(token[2...], isDigit).flatMap { value(of: $0, radix: radix, negative: false) }
        }
        return decimal(token)
    }

    /// The number `digits` (each a digit of `radix`) write, negated digit by digit when
    /// `negative` (so that Int64.min fits); nil when it does not fit 64 bits.
    private static func value(of digits: [UInt8], radix: Int64, negative: Bool) -> Int64? {
        var value: Int64 = 0
        for byte in digits {
            guard let digit = hexValue(byte).map(Int64.init) else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
            guard !overflow else { return nil }
            let (sum, overflowAgain) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowAgain else { return nil }
            value = sum
        }
        return value
    }

    private static func decimal(_ token: [UInt8]) -> Int64? {
        var body = token[...]
        var negative = false
        if let sign = body.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            body = body.dropFirst()
        }
        // No leading zero but "0" itself.
        if body.first == UInt8(ascii: "0"), body.count > 1 { return nil }
        return digits(body, isDigit).flatMap { value(of: $0, radix: 10, negative: negative) }
    }

    /// `inf`, `nan` (signed or not), or a decimal with a fraction, an exponent or both.
    static func float(_ token: [UInt8]) -> Double? {
        var body = token[...]
        var sign: UInt8?
        if let first = body.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            sign = first
            body = body.dropFirst()
        }
        if body.elementsEqual("inf".utf8) { return sign == UInt8(ascii: "-") ? -Double.infinity : Double.infinity }
        if body.elementsEqual("nan".utf8) { return Double.nan }
        let exponentAt = body.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = body[..<(exponentAt ?? body.endIndex)]
        let dot = mantissa.firstIndex(of: UInt8(ascii: "."))
        guard dot != nil || exponentAt != nil else { return nil }
        let whole = mantissa[..<(dot ?? mantissa.endIndex)]
        if whole.first == UInt8(ascii: "0"), whole.count > 1 { return nil }
        guard var text = digits(whole, isDigit) else { return nil }
        if let dot {
            guard let fraction = digits(mantissa[(dot + 1)...], isDigit) else { return nil }
            text += [UInt8(ascii: ".")] + fraction
        }
        if let exponentAt {
            var exponent = body[(exponentAt + 1)...]
            var exponentSign: [UInt8] = []
            if let first = exponent.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
                exponentSign = [first]
                exponent = exponent.dropFirst()
            }
            guard let kept = digits(exponent, isDigit) else { return nil }
            text += [UInt8(ascii: "e")] + exponentSign + kept
        }
        if let sign { text.insert(sign, at: 0) }
        // A finite number too large for a double is refused (toml++ did), not read as infinity.
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// `YYYY-MM-DD`, a real day.
    static func isDate(_ token: [UInt8]) -> Bool { date(token[...]) }

    /// "date", "time" or "date-time" (local or with an offset), as the old bridge named them.
    static func dateTimeKind(_ token: [UInt8]) -> String? {
        if token.count == 10 { return date(token[...]) ? "date" : nil }
        if token.count >= 8, token.count < 10 || token[2] == UInt8(ascii: ":") { return time(token[...]) ? "time" : nil }
        guard token.count > 11, date(token[..<10]), [UInt8(ascii: "T"), UInt8(ascii: "t")].contains(token[10]) else { return nil }
        var rest = token[11...]
        if let last = rest.last, last == UInt8(ascii: "Z") || last == UInt8(ascii: "z") {
            rest = rest.dropLast()
        } else if rest.count > 6, let sign = rest.dropLast(5).last, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            let offset = rest.suffix(5)
            guard number(offset.prefix(2), max: 23), offset.dropFirst(2).first == UInt8(ascii: ":"), number(offset.suffix(2), max: 59) else { return nil }
            rest = rest.dropLast(6)
        }
        return time(rest) ? "date-time" : nil
    }

    /// Two digits, as a number.
    private static func twoDigits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 2, bytes.allSatisfy(isDigit) else { return nil }
        return Int(bytes[bytes.startIndex] - UInt8(ascii: "0")) * 10 + Int(bytes[bytes.startIndex + 1] - UInt8(ascii: "0"))
    }

    /// Two digits, from `min` to `max`.
    private static func number(_ bytes: ArraySlice<UInt8>, max: Int, min: Int = 0) -> Bool {
        guard let value = twoDigits(bytes) else { return false }
        return value >= min && value <= max
    }

    private static func date(_ token: ArraySlice<UInt8>) -> Bool {
        guard token.count == 10 else { return false }
        let base = token.startIndex
        guard token[base + 4] == UInt8(ascii: "-"), token[base + 7] == UInt8(ascii: "-"),
              token[base..<(base + 4)].allSatisfy(isDigit), let month = twoDigits(token[(base + 5)..<(base + 7)]), (1...12).contains(month)
        else { return false }
        let year = token[base..<(base + 4)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return number(token[(base + 8)..<(base + 10)], max: days, min: 1)
    }

    /// `HH:MM:SS` with an optional fraction.
    private static func time(_ token: ArraySlice<UInt8>) -> Bool {
        guard token.count >= 8 else { return false }
        let base = token.startIndex
        guard number(token[base..<(base + 2)], max: 23), token[base + 2] == UInt8(ascii: ":"),
              number(token[(base + 3)..<(base + 5)], max: 59), token[base + 5] == UInt8(ascii: ":"),
              number(token[(base + 6)..<(base + 8)], max: 59) else { return false }
        let fraction = token[(base + 8)...]
        guard !fraction.isEmpty else { return true }
        return fraction.first == UInt8(ascii: ".") && fraction.count > 1 && fraction.dropFirst().allSatisfy(isDigit)
    }
}

/// Punycode (RFC 3492) and the IDNA `xn--` label form, for showing and matching IDN hosts.
public enum Punycode {
    /// The most code points `encode` takes and `decode` produces (its text may be 8 bytes a
    /// code point): far past
    /// DNS's 63-byte labels, and small enough that the RFC's per-code-point passes stay cheap
    /// (a megabyte label once took half a minute).
    public static let maximumInput = 1024

    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN = 0x80

    /// The ASCII (`xn--`) form of a host; labels that are already ASCII are kept.
    /// Returns nil when a label cannot be encoded.
    public static func toASCII(host: String) -> String? {
        // Almost every host is ASCII already: nothing to encode, no labels to split and join.
        // Over the contiguous bytes: the UTF-8 view's generic `allSatisfy` was ~20 instructions a byte.
        if host.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy { $0 < 0x80 } }) ?? host.utf8.allSatisfy({ $0 < 0x80 }) { return host }
        var labels: [String] = []
        for label in host.split(separator: ".", omittingEmptySubsequences: false) {
            if label.utf8.allSatisfy({ $0 < 0x80 }) {
                labels.append(String(label))
            } else {
                guard let encoded = encode(String(label)) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }

    /// The Unicode form of a host; `xn--` labels that fail to decode are kept as they are.
    public static func toUnicode(host: String) -> String {
        // Almost no host has an `xn--` label: then there is nothing to decode.
        guard hasACELabel(host) else { return host }
        return host.split(separator: ".", omittingEmptySubsequences: false).map { label -> String in
            let lower = label.lowercased()
            guard lower.hasPrefix("xn--"), let decoded = decode(String(lower.dropFirst(4))) else { return String(label) }
            return decoded
        }.joined(separator: ".")
    }

    /// True when a label of `host` starts with `xn--` (in any case): a byte scan, no copies.
    static func hasACELabel(_ host: String) -> Bool {
        // Read through the contiguous bytes: the UTF-8 view's indices cost ~25 instructions a
        // byte, for a scan asked of every host the safety checks see.
        var host = host
        return host.withUTF8 { bytes in
            var label = 0
            while label + 4 <= bytes.count {
                // ASCII case folding by the 0x20 bit: `-` has it set already.
                if bytes[label] | 0x20 == UInt8(ascii: "x"), bytes[label + 1] | 0x20 == UInt8(ascii: "n"),
                   bytes[label + 2] == UInt8(ascii: "-"), bytes[label + 3] == UInt8(ascii: "-") { return true }
                var dot = label
                while dot < bytes.count, bytes[dot] != UInt8(ascii: ".") { dot += 1 }
                label = dot + 1
            }
            return false
        }
    }

    /// Encodes one label's code points (without the `xn--` prefix).
    public static func encode(_ input: String) -> String? {
        let scalars = input.unicodeScalars.map { Int($0.value) }
        guard scalars.count <= maximumInput else { return nil }
        // The code points still to handle, in order: found once, not by a pass per code point.
        var pending = Array(Set(scalars.filter { $0 >= initialN })).sorted()[...]
        var output = scalars.filter { $0 < 0x80 }.map { Character(Unicode.Scalar(UInt8($0))) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN, delta = 0, bias = initialBias
        while handled < scalars.count {
            while let first = pending.first, first < n { pending = pending.dropFirst() }
            guard let m = pending.first else { return nil }
            let (product, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow else { return nil }
            delta += product
            n = m
            for c in scalars {
                if c < n { delta += 1 }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    /// Decodes one label (without the `xn--` prefix); nil when malformed.
    public static func decode(_ input: String) -> String? {
        // Any label `encode` accepts decodes again: its encoding may be several bytes per code
        // point, so the bound on the text is wider, and the bound on code points is the same.
        guard input.utf8.count <= maximumInput * 8 else { return nil }
        let bytes = Array(input.utf8)
        var output: [Int] = []
        var position = 0
        if let dash = bytes.lastIndex(of: UInt8(ascii: "-")) {
            output = bytes[..<dash].map { Int($0) }
            position = dash + 1
        }
        var n = initialN, i = 0, bias = initialBias
        while position < bytes.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard position < bytes.count, let d = digitValue(bytes[position]) else { return nil }
                position += 1
                let (step, overflow) = d.multipliedReportingOverflow(by: w)
                guard !overflow, i <= Int(Int32.max) - step else { return nil }
                i += step
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if d < t { break }
                w *= base - t
                k += base
            }
            bias = adapt(i - oldI, output.count + 1, oldI == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n <= 0x10FFFF, output.count < maximumInput else { return nil }
            output.insert(n, at: i)
            i += 1
        }
        var result = ""
        for value in output {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digit(_ d: Int) -> Character {
        Character(Unicode.Scalar(UInt8(d < 26 ? d + 97 : d + 22)))
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte) - 22
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(byte) - 97
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(byte) - 65
        default: return nil
        }
    }
}

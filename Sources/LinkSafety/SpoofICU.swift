import CSpoof

/// ICU's spoof checker and the character properties the rules read, through `CSpoof`.
///
/// Every call is bounded: labels longer than `maximumInput` bytes are refused before ICU sees
/// them (DNS labels are 63 bytes; a host is 253), so hostile input costs nothing to reject.
enum SpoofICU {
    /// Longest text handed to ICU, in UTF-8 bytes.
    static let maximumInput = 1024

    /// What ICU's checker says of one label.
    struct LabelCheck: Equatable {
        /// `CSPOOF_*` checks that failed.
        var failed: Int32
        /// `CSPOOF_LEVEL_*`.
        var level: Int32
    }

    /// Runs the checker on `label`; nil when ICU fails or the label is too long, which callers
    /// treat as unsafe.
    static func check(_ label: String) -> LabelCheck? {
        var text = label
        return text.withUTF8 { bytes -> LabelCheck? in
            guard bytes.count <= maximumInput, let base = bytes.baseAddress else { return bytes.isEmpty ? LabelCheck(failed: 0, level: Int32(CSPOOF_LEVEL_ASCII)) : nil }
            var level: Int32 = 0
            let failed = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                cspoof_check_label($0, Int32(bytes.count), &level)
            }
            return failed < 0 ? nil : LabelCheck(failed: failed, level: level)
        }
    }

    /// The TR 39 skeleton of `text`, nil when ICU fails.
    static func skeleton(_ text: String) -> String? {
        convert(text) { cspoof_skeleton($0, $1, $2, $3) }
    }

    /// `text` without nonspacing marks (NFD, marks removed, NFC), nil when ICU fails.
    static func strippingMarks(_ text: String) -> String? {
        convert(text) { cspoof_strip_marks($0, $1, $2, $3) }
    }

    /// Runs a `CSpoof` text conversion, growing the buffer once if it is too small.
    private static func convert(_ text: String, _ call: (UnsafePointer<CChar>, Int32, UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String? {
        var input = text
        return input.withUTF8 { bytes -> String? in
            guard bytes.count <= maximumInput else { return nil }
            if bytes.isEmpty { return "" }
            guard let base = bytes.baseAddress else { return nil }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { source -> String? in
                var capacity = bytes.count * 4 + 16
                for _ in 0..<2 {
                    var output = [CChar](repeating: 0, count: capacity)
                    let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
                        guard let out = buffer.baseAddress else { return -1 }
                        return call(source, Int32(bytes.count), out, Int32(capacity))
                    }
                    if written >= 0 {
                        return String(decoding: output.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    }
                    guard written == -2 else { return nil }
                    capacity *= 4
                }
                return nil
            }
        }
    }

    /// True when the checker allows `scalar` in a label.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool { cspoof_is_allowed(scalar.value) == 1 }

    /// The scalar's Script property (`CSPOOF_SCRIPT_*` or another ICU script code).
    static func script(_ scalar: Unicode.Scalar) -> Int32 { cspoof_script(scalar.value) }

    /// True when `script` is among the scalar's Script_Extensions.
    static func hasScript(_ scalar: Unicode.Scalar, _ script: Int32) -> Bool { cspoof_has_script(scalar.value, script) == 1 }

    /// The English name of a script ("Cyrillic").
    static func scriptName(_ script: Int32) -> String {
        guard let name = cspoof_script_name(script) else { return "unknown" }
        return String(String(cString: name).map { $0 == "_" ? " " : $0 })
    }

    /// True for a nonspacing mark (General_Category Mn).
    static func isNonspacingMark(_ scalar: Unicode.Scalar) -> Bool { cspoof_is_nonspacing_mark(scalar.value) == 1 }

    /// The value of a decimal digit of any numbering system, nil for anything else.
    static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        let value = cspoof_digit_value(scalar.value)
        return value < 0 ? nil : Int(value)
    }
}

/// Script codes the rules name.
enum Script {
    static let common = Int32(CSPOOF_SCRIPT_COMMON), inherited = Int32(CSPOOF_SCRIPT_INHERITED)
    static let latin = Int32(CSPOOF_SCRIPT_LATIN), greek = Int32(CSPOOF_SCRIPT_GREEK), cyrillic = Int32(CSPOOF_SCRIPT_CYRILLIC)
    static let han = Int32(CSPOOF_SCRIPT_HAN), hiragana = Int32(CSPOOF_SCRIPT_HIRAGANA), katakana = Int32(CSPOOF_SCRIPT_KATAKANA)
    static let bopomofo = Int32(CSPOOF_SCRIPT_BOPOMOFO), hangul = Int32(CSPOOF_SCRIPT_HANGUL)
    static let armenian = Int32(CSPOOF_SCRIPT_ARMENIAN), ethiopic = Int32(CSPOOF_SCRIPT_ETHIOPIC), georgian = Int32(CSPOOF_SCRIPT_GEORGIAN)
    static let hebrew = Int32(CSPOOF_SCRIPT_HEBREW), thai = Int32(CSPOOF_SCRIPT_THAI), myanmar = Int32(CSPOOF_SCRIPT_MYANMAR)
    static let lao = Int32(CSPOOF_SCRIPT_LAO), bengali = Int32(CSPOOF_SCRIPT_BENGALI), devanagari = Int32(CSPOOF_SCRIPT_DEVANAGARI)
    static let gujarati = Int32(CSPOOF_SCRIPT_GUJARATI), gurmukhi = Int32(CSPOOF_SCRIPT_GURMUKHI), kannada = Int32(CSPOOF_SCRIPT_KANNADA)
    static let malayalam = Int32(CSPOOF_SCRIPT_MALAYALAM), oriya = Int32(CSPOOF_SCRIPT_ORIYA), tamil = Int32(CSPOOF_SCRIPT_TAMIL)
    static let telugu = Int32(CSPOOF_SCRIPT_TELUGU)
}

extension SpoofICU {
    /// "U+0338 COMBINING LONG SOLIDUS OVERLAY" (or just the code point when ICU has no name).
    static func describe(_ scalar: Unicode.Scalar) -> String {
        var hex = String(scalar.value, radix: 16, uppercase: true)
        while hex.utf8.count < 4 { hex = "0" + hex }
        var buffer = [CChar](repeating: 0, count: 128)
        let written = buffer.withUnsafeMutableBufferPointer { pointer -> Int32 in
            guard let base = pointer.baseAddress else { return -1 }
            return cspoof_char_name(scalar.value, base, Int32(pointer.count))
        }
        guard written > 0 else { return "U+" + hex }
        return "U+" + hex + " " + String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

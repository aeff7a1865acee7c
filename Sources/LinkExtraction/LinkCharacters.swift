/// Character classes the link extractor works with, following linkify-it's definitions:
/// "ZPCc" is Unicode space separators, punctuation and controls; a "pseudo-letter" is anything
/// else that may appear in a host name (letters, digits, marks, symbols, format characters).
enum LinkCharKind: UInt8 {
    /// Letters, digits, marks, non-ASCII symbols and format characters: may be in a host label.
    case letter
    /// Unicode spaces (Z) and controls (Cc), including newlines and NUL.
    case spaceOrControl
    /// Unicode punctuation (P), ASCII and not.
    case punctuation
    /// `<`, `>` and the fullwidth vertical line `｜`: they always end a link.
    case separator
    /// ASCII symbols `$ + = ^ ` | ~`: neither punctuation nor allowed in our host labels.
    case asciiSymbol
}

/// Byte- and scalar-level helpers over UTF-8.
enum LinkChars {
    /// Class of every ASCII byte.
    static let asciiKinds: [LinkCharKind] = (0..<128).map { value -> LinkCharKind in
        let byte = UInt8(value)
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return .letter
        case 0x00...0x20, 0x7F: return .spaceOrControl
        case UInt8(ascii: "<"), UInt8(ascii: ">"): return .separator
        case UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "="), UInt8(ascii: "^"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return .asciiSymbol
        default: return .punctuation
        }
    }

    /// Class of a Unicode scalar value.
    static func kind(_ value: UInt32) -> LinkCharKind {
        if value < 0x80 { return asciiKinds[Int(value)] }
        switch value {
        case 0x80...0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return .spaceOrControl
        case 0xFF5C:
            return .separator
        // Common letter blocks without punctuation, answered without the Unicode tables:
        // Latin-1 letters, Latin Extended-A/B, IPA, Cyrillic, CJK ideographs, Hangul.
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2AF, 0x400...0x52F, 0x4E00...0x9FFF, 0xAC00...0xD7A3:
            return .letter
        default:
            guard let scalar = Unicode.Scalar(value) else { return .letter }
            switch scalar.properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                 .initialPunctuation, .finalPunctuation, .otherPunctuation:
                return .punctuation
            default:
                return .letter
            }
        }
    }

    @inline(__always) static func isAlnum(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= 0x61 && lower <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// First character of an email local part: `[-;:&=+$,.a-zA-Z0-9_]` (linkify-it).
    @inline(__always) static func isEmailNameStart(_ byte: UInt8) -> Bool {
        if isAlnum(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "&"),
             UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "$"), UInt8(ascii: ","),
             UInt8(ascii: "."), UInt8(ascii: "_"):
            return true
        default: return false
        }
    }

    /// Later characters of an email local part: the start set plus `"`.
    @inline(__always) static func isEmailName(_ byte: UInt8) -> Bool {
        isEmailNameStart(byte) || byte == UInt8(ascii: "\"")
    }

    /// Characters of a scheme name after the first letter (RFC 3986).
    @inline(__always) static func isSchemeChar(_ byte: UInt8) -> Bool {
        isAlnum(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// After a run of letters and digits, the bytes that could continue a scheme name, an
    /// email local part or a host; any other byte means the word cannot start a link.
    @inline(__always) static func continuesCandidate(_ byte: UInt8) -> Bool {
        if byte >= 0x80 { return true }
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "@"),
             UInt8(ascii: "+"), UInt8(ascii: "_"), UInt8(ascii: ";"), UInt8(ascii: "&"),
             UInt8(ascii: "="), UInt8(ascii: "$"), UInt8(ascii: ","), UInt8(ascii: "\""):
            return true
        default: return false
        }
    }
}

/// What may stand right before the start of a link, by kind of link (linkify-it's prefixes).
struct LinkPrefix {
    /// A scheme (`http:`) or `//`: start of text, a separator, or Z/P/Cc except `_`.
    var scheme: Bool
    /// A bare host: start of text, `$+<=>^`|｜`, or Z/P/Cc except `. : / - _ @`.
    var fuzzy: Bool
    /// A bare email: start of text, `<>｜"(`, or Z/Cc.
    var email: Bool

    static let start = LinkPrefix(scheme: true, fuzzy: true, email: true)
    static let none = LinkPrefix(scheme: false, fuzzy: false, email: false)

    /// The prefix rules for the character `value` of class `kind`.
    static func after(_ value: UInt32, kind: LinkCharKind) -> LinkPrefix {
        switch kind {
        case .letter: return .none
        case .spaceOrControl: return .start
        case .separator: return LinkPrefix(scheme: true, fuzzy: true, email: true)
        case .asciiSymbol:
            return LinkPrefix(scheme: false, fuzzy: value != UInt32(UInt8(ascii: "~")), email: false)
        case .punctuation:
            switch value {
            case UInt32(UInt8(ascii: "_")): return .none
            case UInt32(UInt8(ascii: ".")), UInt32(UInt8(ascii: ":")), UInt32(UInt8(ascii: "/")),
                 UInt32(UInt8(ascii: "-")), UInt32(UInt8(ascii: "@")):
                return LinkPrefix(scheme: true, fuzzy: false, email: false)
            case UInt32(UInt8(ascii: "\"")), UInt32(UInt8(ascii: "(")):
                return LinkPrefix(scheme: true, fuzzy: true, email: true)
            default:
                return LinkPrefix(scheme: true, fuzzy: true, email: false)
            }
        }
    }
}

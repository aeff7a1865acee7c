/// Unicode scripts of host labels, for spotting look-alike (homograph) domains such as
/// `аpple.com` with a Cyrillic "а".
///
/// The policy follows what browsers do, simplified: a label that mixes Latin, Greek, Cyrillic or
/// Armenian letters with each other (or any of them with another script except the CJK
/// combinations Japanese and Korean names use) is suspicious, and so is a label written wholly in
/// Cyrillic or Greek letters that all look like Latin ones under a Latin top-level domain.
public enum HostScripts {
    /// A script as far as the homograph policy cares.
    public enum Script: String, Sendable {
        case latin, greek, cyrillic, armenian, hebrew, arabic, han, kana, hangul, other
    }

    /// The script of a letter, nil for digits, hyphens and other shared characters.
    public static func script(of scalar: Unicode.Scalar) -> Script? {
        let v = scalar.value
        switch v {
        case 0x30...0x39, 0x2D, 0x5F: return nil
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF: return .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: return .greek
        case 0x400...0x52F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return .cyrillic
        case 0x530...0x58F: return .armenian
        case 0x590...0x5FF: return .hebrew
        case 0x600...0x6FF, 0x750...0x77F: return .arabic
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF: return .han
        case 0x3040...0x30FF, 0x31F0...0x31FF: return .kana
        case 0x1100...0x11FF, 0xAC00...0xD7AF, 0x3130...0x318F: return .hangul
        case 0x300...0x36F: return nil  // combining marks take the script of their base
        default: return .other
        }
    }

    /// Cyrillic and Greek letters that look like Latin ones.
    static let latinLookalikes: Set<Unicode.Scalar> = Set("аеорсухіјѕԁӏԛԝһаеіоруьвтмнкАВЕКМНОРСТХІЈЅαοκνρτυχιβεΑΒΕΖΗΙΚΜΝΟΡΤΥΧ".unicodeScalars)

    /// Why `unicodeHost` looks like another domain, or nil when it does not.
    public static func homographWarning(unicodeHost: String) -> String? {
        let labels = unicodeHost.split(separator: ".")
        let topLevelIsLatin = labels.last.map { $0.unicodeScalars.allSatisfy { script(of: $0) == .latin || script(of: $0) == nil } } ?? true
        for label in labels {
            var scripts = Set<Script>()
            for scalar in label.unicodeScalars { if let s = script(of: scalar) { scripts.insert(s) } }
            if scripts.count > 1, !isAllowedMix(scripts) {
                let names = scripts.map(\.rawValue).sorted().map(capitalised).joined(separator: " and ")
                return "\"\(label)\" mixes \(names) letters: it may imitate another site's name"
            }
            if scripts.count == 1, let only = scripts.first, only == .cyrillic || only == .greek, topLevelIsLatin,
               label.unicodeScalars.allSatisfy({ script(of: $0) == nil || latinLookalikes.contains($0) }) {
                return "\"\(label)\" is written in \(capitalised(only.rawValue)) letters that look like Latin ones: it may imitate another site's name"
            }
        }
        return nil
    }

    /// Latin with the CJK scripts (Japanese, Chinese and Korean names) is ordinary.
    private static func isAllowedMix(_ scripts: Set<Script>) -> Bool {
        scripts.isSubset(of: [.latin, .han, .kana]) || scripts.isSubset(of: [.latin, .han, .hangul])
    }

    private static func capitalised(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }
}

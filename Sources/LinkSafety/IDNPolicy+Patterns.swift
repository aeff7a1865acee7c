extension IDNPolicy {
    /// The first pattern in a label (of more than one script) that fakes punctuation or hides
    /// a letter: one pass, each character looked at with its neighbours.
    static func dangerousPattern(_ scalars: [Unicode.Scalar]) -> String? {
        let count = scalars.count
        for index in 0..<count {
            let scalar = scalars[index]
            let previous: Unicode.Scalar? = index > 0 ? scalars[index - 1] : nil
            let next: Unicode.Scalar? = index + 1 < count ? scalars[index + 1] : nil
            if IDNTables.slashLookalikes.contains(scalar), let previous, let next, !isJapanese(previous), !isJapanese(next) {
                return "its name uses \(quoted(scalar)), which looks like a slash, between non-Japanese characters"
            }
            if scalar == "\u{30FD}" || scalar == "\u{30FE}", !(previous.map { has($0, Script.katakana) } ?? false) {
                return "its name uses the Katakana iteration mark \(quoted(scalar)) after a character that is not Katakana"
            }
            if (0x3078...0x307A).contains(scalar.value), isEnclosed(scalars, at: index, by: Script.katakana) {
                return "its name puts Hiragana \(quoted(scalar)) among Katakana, where it cannot be told from Katakana \(quoted(katakanaTwin(of: scalar)))"
            }
            if (0x30D8...0x30DA).contains(scalar.value), isEnclosed(scalars, at: index, by: Script.hiragana) {
                return "its name puts Katakana \(quoted(scalar)) among Hiragana, where it cannot be told from Hiragana \(quoted(hiraganaTwin(of: scalar)))"
            }
            if scalar == "\u{30FC}", !(previous.map { has($0, Script.katakana) || has($0, Script.hiragana) } ?? false) {
                return "its name uses the prolonged sound mark ー after a character that is not Kana"
            }
            if scalar == "\u{30FB}", isASCIILowercase(previous) || isASCIILowercase(next) {
                return "its name uses the Katakana middle dot ・ next to Latin letters"
            }
            if IDNTables.cjkLatinLookalikes.contains(scalar),
               previous.map({ !isCJK($0) }) ?? false || next.map({ !isCJK($0) }) ?? false {
                return "its name uses \(quoted(scalar)), which looks like a Latin letter or a dash, next to non-CJK characters"
            }
            if IDNTables.isCombiningDiacritic(scalar), let previous,
               !(has(previous, Script.latin) || has(previous, Script.greek) || has(previous, Script.cyrillic)) {
                return "its name puts a combining mark (\(SpoofICU.describe(scalar))) on a character that is not Latin, Greek or Cyrillic"
            }
            if scalar == "\u{131}", let next, IDNTables.isCombiningDiacritic(next) {
                return "its name puts a combining mark on a dotless ı, so that it reads as i"
            }
            if scalar == "\u{3099}" || scalar == "\u{309A}" {
                return "its name uses a combining Kana voiced sound mark (\(SpoofICU.describe(scalar)))"
            }
            if scalar == "i" || scalar == "j" || scalar == "l", next == "\u{307}" {
                return "its name puts a dot above on \(scalar), which hides it"
            }
        }
        return nil
    }

    private static func has(_ scalar: Unicode.Scalar, _ script: Int32) -> Bool { SpoofICU.hasScript(scalar, script) }

    /// Katakana, Hiragana or Han (by Script_Extensions).
    private static func isJapanese(_ scalar: Unicode.Scalar) -> Bool {
        has(scalar, Script.katakana) || has(scalar, Script.hiragana) || has(scalar, Script.han)
    }

    /// Katakana, Hiragana, Han or Bopomofo (by Script_Extensions).
    private static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        isJapanese(scalar) || has(scalar, Script.bopomofo)
    }

    private static func isASCIILowercase(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return ("a"..."z").contains(scalar)
    }

    /// True when everything before and after `index` (at least one character each) is `script`.
    private static func isEnclosed(_ scalars: [Unicode.Scalar], at index: Int, by script: Int32) -> Bool {
        guard index > 0, index + 1 < scalars.count else { return false }
        for (other, scalar) in scalars.enumerated() where other != index {
            if !has(scalar, script) { return false }
        }
        return true
    }

    /// ヘベペ for へべぺ: the Katakana twins sit 0x60 above the Hiragana ones.
    private static func katakanaTwin(of scalar: Unicode.Scalar) -> Unicode.Scalar { Unicode.Scalar(scalar.value + 0x60) ?? scalar }
    private static func hiraganaTwin(of scalar: Unicode.Scalar) -> Unicode.Scalar { Unicode.Scalar(scalar.value - 0x60) ?? scalar }

    private static func quoted(_ scalar: Unicode.Scalar) -> String { "\(Character(scalar)) (\(SpoofICU.describe(scalar)))" }
}

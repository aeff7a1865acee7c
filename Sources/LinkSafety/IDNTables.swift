/// The character data behind the IDN display rules: which letters of other scripts pass for
/// Latin ones, which characters pass for digits, and where a script is expected.
///
/// The letters are those TR 39's confusables map to Latin letters plus those that look Latin in
/// common fonts though TR 39 does not map them (Chromium and Firefox keep lists to the same
/// effect; where they differ by platform, the Linux fonts count).
enum IDNTables {
    /// A script whose labels can be written wholly in Latin look-alikes.
    struct WholeScript: Sendable {
        /// The script (`Script.cyrillic`).
        var script: Int32
        /// Its letters that look like Latin letters or digits.
        var lookalikes: Set<Unicode.Scalar>
        /// ASCII top-level domains where the script is at home; a TLD written in the script is
        /// always one.
        var homeTLDs: Set<String>
    }

    /// The scripts checked for whole-script look-alikes.
    static let wholeScripts: [WholeScript] = [
        entry(Script.armenian, "ագզէլհյոսւօՙռցք", ["am"]),
        entry(Script.cyrillic, "аысԁеԍһіюкјӏорԗԛѕԝхуъьҽпгѵѡүӕ", ["bg", "by", "kg", "kz", "mk", "mn", "rs", "ru", "su", "tj", "ua", "uz"]),
        entry(Script.ethiopic, "ሀሠሰስበነተከዐዕዘጠፐꬅ", ["er", "et"]),
        entry(Script.georgian, "იოყძხჽჿ", ["ge"]),
        entry(Script.greek, "αικνρυωηοτγσ", ["gr", "cy"]),
        entry(Script.hebrew, "דוחיןסװײ׳ﬦט", ["il"]),
        entry(Script.bengali, "০৭৪", []),
        entry(Script.devanagari, "ऽ०ॱ", []),
        entry(Script.gujarati, "ડટ૦૧", []),
        entry(Script.gurmukhi, "੦੧੪", []),
        entry(Script.kannada, "ಽ೦೧ಂ", []),
        entry(Script.malayalam, "ടഠധനറ൦ം൭", []),
        entry(Script.oriya, "ଠ୦୮୨", []),
        entry(Script.tamil, "டப௦", []),
        entry(Script.telugu, "౦౧ం", []),
        entry(Script.myanmar, "ခဂငထပဝ၀၂ၔၜ\u{1090}\u{1091}\u{1095}\u{1096}\u{1097}", ["mm"]),
        entry(Script.thai, "ทนบพรหเแ๐ดลปฟม", ["th"]),
        entry(Script.lao, "ບພຟຣຮ໐", ["la"]),
    ]

    private static func entry(_ script: Int32, _ letters: String, _ tlds: Set<String>) -> WholeScript {
        WholeScript(script: script, lookalikes: Set(letters.unicodeScalars), homeTLDs: tlds)
    }

    /// Words that are written wholly in Latin look-alikes but are ordinary words, not imitations.
    static let ordinaryWords: Set<String> = ["секс", "как", "коса", "курс", "парк", "такий", "укроп", "сахарок", "покраска"]

    /// Characters that look like ASCII digits, with the digit each passes for. A label of
    /// digits and these alone imitates a number.
    static let digitLookalikes: [Unicode.Scalar: Character] = table([
        ("0", "θ"), ("2", "२২੨૨೩೭շ"), ("3", "зҙӡउওਤ੩૩౩ဒვპੜკ"), ("4", "੫丩ㄐ"), ("6", "ճ"),
        ("8", "৪੪୫"), ("9", "૭୨౨"),
    ])

    /// What characters look like where TR 39's skeletons leave them alone (some are letters of
    /// other scripts, some digits of other numbering systems), applied before the skeleton so
    /// that `шмнть` compares as `wmhtb`.
    static let extraSkeleton: [Unicode.Scalar: String] = {
        var map: [Unicode.Scalar: String] = [:]
        let groups: [(String, String)] = [
            ("ae", "æӕ"), ("p", "ϼҏ"), ("h", "ħнћңҥӈӊԋԧԩ"), ("k", "ĸκкқҝҟҡӄԟ"), ("n", "ŋпԥกח"),
            ("t", "ŧтҭԏ七丅丆丁"), ("b", "ƅьҍв"), ("w", "ωшщพฟພຟ"), ("m", "мӎ"), ("e", "єҽҿၔ"),
            ("r", "ґ"), ("f", "ғӻ"), ("c", "ҫင"), ("y", "ұ丫"), ("x", "χҳӽӿ乂"), ("d", "ԃძ"),
            ("g", "ԍဌ"), ("s", "ടรຣຮ"), ("j", "၂"), ("o", "०০੦૦ଠ୦೦"), ("q", "৭੧૧"), ("u", "บບ"),
            ("-", "—一―⸺⸻"),
        ]
        for (target, characters) in groups {
            for scalar in characters.unicodeScalars { map[scalar] = target }
        }
        for (scalar, digit) in digitLookalikes { map[scalar] = String(digit) }
        return map
    }()

    /// Characters that look like two things: each is tried every way (`þ` as `b` and `p`). TR 39
    /// (ICU 72) maps `ß` to itself, though it passes for `b` (`youtuße`) as well as `ss`.
    static let alternatives: [Unicode.Scalar: [String]] = ["þ": ["b", "p"], "œ": ["ce", "oe"], "ӏ": ["l", "i"], "ß": ["b", "ss"]]

    private static func table(_ groups: [(Character, String)]) -> [Unicode.Scalar: Character] {
        var map: [Unicode.Scalar: Character] = [:]
        for (digit, characters) in groups {
            for scalar in characters.unicodeScalars { map[scalar] = digit }
        }
        return map
    }

    // MARK: - Dangerous patterns

    /// Kana and CJK characters that look like `/` between letters of other scripts.
    static let slashLookalikes: Set<Unicode.Scalar> = ["\u{30CE}", "\u{30F3}", "\u{30BD}", "\u{30BE}", "\u{4E36}", "\u{4E40}", "\u{4E41}", "\u{4E3F}"]

    /// CJK characters that look like Latin letters, `-` or `|` next to non-CJK characters.
    static let cjkLatinLookalikes: Set<Unicode.Scalar> = [
        "\u{4E00}", "\u{3127}", "\u{4E28}", "\u{4E5B}", "\u{4E03}", "\u{4E05}", "\u{5341}", "\u{3007}", "\u{3112}", "\u{311A}",
        "\u{311F}", "\u{3128}", "\u{3129}", "\u{3108}", "\u{31BA}", "\u{31B3}", "\u{5DE5}", "\u{31B2}", "\u{8BA0}", "\u{4E01}",
    ]

    /// Kana that only pass in Japanese context: へべぺ and ヘベペ (identical in both scripts) and
    /// the marks ・ー ヽヾ. A label with one goes through the pattern rules even when it is in one
    /// script.
    static func isKanaException(_ scalar: Unicode.Scalar) -> Bool {
        (0x3078...0x307A).contains(scalar.value) || (0x30D8...0x30DA).contains(scalar.value) || (0x30FB...0x30FE).contains(scalar.value)
    }

    /// The combining diacritical marks the allowed set holds (U+0300–U+0339).
    static func isCombiningDiacritic(_ scalar: Unicode.Scalar) -> Bool { (0x300...0x339).contains(scalar.value) }
}

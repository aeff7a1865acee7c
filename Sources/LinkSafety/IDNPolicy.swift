import CSpoof

/// Whether a host's Unicode labels may be shown as Unicode, decided as browsers decide it
/// (Chromium's IDN spoof checker and Firefox's IDN display rules agree on the substance), on
/// ICU's spoof checker:
///
/// 1. ICU's checks at the "highly restrictive" level: one script per label, except Latin with
///    Han and Kana (Japanese), Han and Bopomofo (Chinese) or Han and Hangul (Korean); only
///    characters of the identifier sets (less look-alikes of `/`, `-` and quotes, historic and
///    rare letters); no invisible characters or repeated marks; one numbering system.
/// 2. Letters at home under one country's domain only: `þ ð` (.is, .fo), `ə` (.az), `·`
///    between two `l` (.cat).
/// 3. A one-script label may still imitate Latin: written wholly in letters that look Latin
///    (`аррӏе`, `ικα`), unless the TLD is in that script or at home with it (`.ru`, `.gr`); or
///    made only of digits and digit look-alikes (`੨੨੨`, `০৭০৭`).
/// 4. A label mixing scripts may not put non-ASCII Latin beside another script, nor use the
///    patterns that fake punctuation: Kana `ノ` and CJK `丶 一` next to Latin, combining marks on
///    letters they do not belong to (dotless `ı`, `i j l` with a dot above), Kana marks out of
///    context.
enum IDNPolicy {
    /// Why `label` (its Unicode form; `ascii` its `xn--` form) should not be shown in Unicode
    /// under the top-level domain `tld` (ASCII) / `tldUnicode`, or nil when it may be.
    static func reason(label: String, ascii: String, tld: String, tldUnicode: String) -> SafetyReason? {
        func because(_ kind: SafetyReason.Kind, _ message: String) -> SafetyReason {
            SafetyReason(kind: kind, message: message, label: ascii)
        }
        if label.utf8.count >= 4, label.utf8.prefix(4).elementsEqual("xn--".utf8) {
            return because(.idnInvalid, "its name has a label that is not valid punycode")
        }
        let scalars = Array(label.unicodeScalars)
        if scalars.count >= 4, scalars[2] == "-", scalars[3] == "-" {
            return because(.idnInvalid, "its name has a label with -- in third and fourth place, which IDNA does not allow")
        }
        guard let check = SpoofICU.check(label) else {
            return because(.idnCharacter, "its name could not be checked (a label too long or not valid text)")
        }
        if check.failed != 0 { return iCUReason(check.failed, scalars, because) }
        let scripts = scalars.map(SpoofICU.script)
        if let reason = tldSpecific(scalars, tld: tld) { return because(.idnTLDCharacter, reason) }
        if check.level == Int32(CSPOOF_LEVEL_ASCII) { return nil }

        let isDigitLookalike = Self.isDigitLookalike(scalars)
        if check.level == Int32(CSPOOF_LEVEL_SINGLE_SCRIPT),
           !scalars.contains(where: IDNTables.isKanaException), !scalars.contains(where: IDNTables.isCombiningDiacritic) {
            if let script = wholeScriptLookalike(scalars, scripts, tld: tld, tldUnicode: tldUnicode), !IDNTables.ordinaryWords.contains(label) {
                return because(.idnWholeScript, "its name is written in \(SpoofICU.scriptName(script)) letters that all look like Latin ones")
            }
            return isDigitLookalike ? because(.idnDigitLookalike, "its name is made of digits and characters that look like digits") : nil
        }
        if isDigitLookalike { return because(.idnDigitLookalike, "its name is made of digits and characters that look like digits") }
        if zip(scalars, scripts).contains(where: { !$0.isASCII && $1 == Script.latin }), !scalars.allSatisfy(isLGCOrASCII) {
            let others = Self.scripts(of: scalars).filter { $0 != Script.latin }.map(SpoofICU.scriptName)
            return because(.idnMixedScript, "its name mixes accented Latin letters with \(list(others)) ones")
        }
        if let pattern = dangerousPattern(scalars) { return because(.idnDangerousPattern, pattern) }
        return nil
    }

    /// The reason for the first of ICU's failed checks that explains itself best.
    private static func iCUReason(_ failed: Int32, _ scalars: [Unicode.Scalar], _ because: (SafetyReason.Kind, String) -> SafetyReason) -> SafetyReason {
        if failed & Int32(CSPOOF_CHAR_LIMIT) != 0, let bad = scalars.first(where: { !SpoofICU.isAllowed($0) }) {
            if bad == "\u{200C}" || bad == "\u{200D}" {
                return because(.idnInvisible, "its name hides an invisible \(bad == "\u{200D}" ? "zero-width joiner" : "zero-width non-joiner") (\(SpoofICU.describe(bad)))")
            }
            return because(.idnCharacter, "its name contains \(SpoofICU.describe(bad)), which is not used in domain names")
        }
        if failed & Int32(CSPOOF_INVISIBLE) != 0 {
            return because(.idnInvisible, "its name repeats a combining mark or hides an invisible character")
        }
        if failed & Int32(CSPOOF_RESTRICTION_LEVEL) != 0 {
            return because(.idnMixedScript, "its name mixes \(list(scripts(of: scalars).map(SpoofICU.scriptName))) letters")
        }
        if failed & Int32(CSPOOF_MIXED_NUMBERS) != 0 {
            return because(.idnMixedDigits, "its name mixes digits of different numbering systems")
        }
        if failed & Int32(CSPOOF_HIDDEN_OVERLAY) != 0 {
            return because(.idnDangerousPattern, "its name hides a dot above on a dotted letter")
        }
        return because(.idnCharacter, "its name fails ICU's spoof checks")
    }

    /// Letters only one country's names use, outside that country's domain.
    private static func tldSpecific(_ scalars: [Unicode.Scalar], tld: String) -> String? {
        if scalars.count > 1, tld != "is", tld != "fo", let letter = scalars.first(where: { $0 == "þ" || $0 == "ð" }) {
            return "its name uses \(letter), a letter of Icelandic and Faroese names (.is, .fo) that can pass for \(letter == "þ" ? "b or p" : "o")"
        }
        if scalars.count > 1, tld != "az", scalars.contains("ə") {
            return "its name uses ə, a letter of Azerbaijani names (.az) that can pass for e"
        }
        for (index, scalar) in scalars.enumerated() where scalar == "\u{B7}" {
            let betweenLs = index > 0 && index + 1 < scalars.count && scalars[index - 1] == "l" && scalars[index + 1] == "l"
            if tld != "cat" || !betweenLs {
                return "its name uses a middle dot (·), which only Catalan names (.cat) use, between two l's"
            }
        }
        return nil
    }

    /// The script whose Latin look-alikes make up every letter of the label, when the TLD does
    /// not make that script expected.
    private static func wholeScriptLookalike(_ scalars: [Unicode.Scalar], _ scripts: [Int32], tld: String, tldUnicode: String) -> Int32? {
        for entry in IDNTables.wholeScripts where scripts.contains(entry.script) {
            let allLookalikes = zip(scalars, scripts).allSatisfy { $1 != entry.script || entry.lookalikes.contains($0) }
            guard allLookalikes else { continue }
            if entry.homeTLDs.contains(tld) || tldUnicode.unicodeScalars.contains(where: { SpoofICU.script($0) == entry.script }) { continue }
            return entry.script
        }
        return nil
    }

    /// Digits and digit look-alikes only, with at least one look-alike.
    static func isDigitLookalike(_ scalars: [Unicode.Scalar]) -> Bool {
        var lookalike = false
        for scalar in scalars {
            if ("0"..."9").contains(scalar) { continue }
            guard IDNTables.digitLookalikes[scalar] != nil else { return false }
            lookalike = true
        }
        return lookalike
    }

    /// Latin, Greek, Cyrillic, ASCII digits, `. _ -` and the allowed combining marks: the
    /// labels whose diacritics can be dropped for comparison.
    static func isLGCOrASCII(_ scalar: Unicode.Scalar) -> Bool {
        if ("0"..."9").contains(scalar) || scalar == "." || scalar == "_" || scalar == "-" || IDNTables.isCombiningDiacritic(scalar) { return true }
        let script = SpoofICU.script(scalar)
        return script == Script.latin || script == Script.greek || script == Script.cyrillic
    }

    /// The scripts of the label's letters, in order of appearance (Common and Inherited left out).
    static func scripts(of scalars: [Unicode.Scalar]) -> [Int32] {
        var found: [Int32] = []
        for scalar in scalars {
            let script = SpoofICU.script(scalar)
            if script != Script.common, script != Script.inherited, !found.contains(script) { found.append(script) }
        }
        return found
    }

    /// "Latin", "Latin and Cyrillic", "Latin, Greek and Cyrillic".
    static func list(_ names: [String]) -> String {
        switch names.count {
        case 0: return "unknown"
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        }
    }
}

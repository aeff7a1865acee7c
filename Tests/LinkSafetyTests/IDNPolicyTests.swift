import LinkSafety
import Testing
import URLModel

/// The IDN display rules on cases of our own, one or more per rule, with the reason kind each
/// should give (nil: shown in Unicode).
@Suite struct IDNPolicyTests {
    static let idnOnly = SafetyChecker(checks: SafetyChecks(idn: true, lookalikes: false, linkText: false, blocklists: false))

    static func kinds(_ host: String) throws -> [SafetyReason.Kind] {
        let url = try ParsedURL("https://\(host)/")
        return idnOnly.verdict(for: url).reasons.map(\.kind)
    }

    @Test("hosts shown in Unicode", arguments: [
        "example.com", "bücher.de", "café.fr", "пример.рф", "президент.рф", "торты.ru", "ικα.gr", "ουτοπία.gr",
        "北京大學.cn", "視頻.com", "日本語.jp", "コマース.jp", "한국어.kr", "한글han.kr", "ヴィタミンb1.com", "fuß.de", "αβς.gr",
        "ѕсоре.bg", "ѕсоре.xn--90ae", "музей.com", "курс.com", "عربي.eg", "mn\u{F0}pqr.is", "l\u{B7}l.cat", "\u{259}xample.az",
        "xn--ldk.jp",
    ])
    func shownInUnicode(_ host: String) throws {
        #expect(try Self.kinds(host) == [], "\(host)")
    }

    @Test("hosts kept in punycode, and why", arguments: [
        ("аpple.com", SafetyReason.Kind.idnMixedScript),            // Cyrillic а among Latin
        ("paypаl.com", .idnMixedScript),
        ("payp\u{3B1}l.com", .idnMixedScript),                        // Greek alpha
        ("аррӏе.com", .idnWholeScript),                               // all Cyrillic look-alikes
        ("ѕсоре.com", .idnWholeScript),
        ("ѵк.com", .idnCharacter),                                    // historic Cyrillic ѵ, ѡ: not used in names
        ("ѡѡѡ.com", .idnCharacter),
        ("ск.com", .idnWholeScript),                                  // к: outside the old hard-coded set
        ("сю.com", .idnWholeScript),
        ("ικα.com", .idnWholeScript),                                 // Greek under a Latin TLD
        ("ոսւօ.com", .idnWholeScript),                                // Armenian
        ("ᏣᎳᎩ.com", .idnCharacter),                                   // Cherokee: a limited-use script
        ("ꓲꓳ.com", .idnCharacter),                                    // Lisu
        ("ჽჿხ.com", .idnWholeScript),                                 // Georgian
        ("ทนบพรห.com", .idnWholeScript),                              // Thai (Linux fonts)
        ("ພຣບ.com", .idnWholeScript),                                 // Lao
        ("\u{A68}\u{A68}\u{A68}.com", .idnDigitLookalike),            // ੨੨੨
        ("\u{9E6}\u{9ED}\u{9E6}\u{9ED}.com", .idnWholeScript),        // ০৭০৭ (Bengali letters that look like o, 9)
        ("1\u{577}.com", .idnDigitLookalike),                         // 1 and Armenian շ (looks like 2)
        ("google.com\u{338}abc", .idnCharacter),                      // a combining slash overlay
        ("google.com\u{30CE}evil.jp", .idnDangerousPattern),          // Katakana ノ between Latin
        ("example.com\u{4E36}test", .idnDangerousPattern),            // CJK 丶
        ("ip\u{4E00}address.com", .idnDangerousPattern),              // CJK 一 next to Latin
        ("\u{262}\u{1D0F}\u{1D0F}\u{262}\u{29F}\u{1D07}.com", .idnCharacter), // ɢᴏᴏɢʟᴇ: small capitals
        ("hard\u{1D21}are.com", .idnCharacter),                       // small capital ᴡ
        ("pi\u{307}xel.com", .idnDangerousPattern),                   // i with a dot above
        ("p\u{131}\u{300}xel.com", .idnDangerousPattern),             // dotless ı with a grave
        ("\u{924}\u{94D}\u{200C}\u{930}\u{93F}.in", .idnInvisible),   // ZWNJ, even in Devanagari
        ("a\u{FE}cdef.com", .idnTLDCharacter),                        // þ outside .is and .fo
        ("google\u{B7}com.com", .idnTLDCharacter),                    // middle dot outside .cat
        ("h\u{E9}llo\u{4E2D}\u{56FD}.cn", .idnMixedScript),           // accented Latin with Han
        ("abc\u{30FB}def.jp", .idnDangerousPattern),                  // ・ next to Latin
        ("google\u{3099}.com", .idnDangerousPattern),                 // Kana voiced sound mark
        ("xn-----8kci4dhsd", .idnInvalid),                             // ру--авто: -- in third and fourth place
    ])
    func keptInPunycode(_ host: String, _ kind: SafetyReason.Kind) throws {
        let kinds = try Self.kinds(host)
        #expect(kinds.first == kind, "\(host): \(kinds)")
    }

    @Test func reasonsNameTheLabelAndReadAsSentences() throws {
        let url = try ParsedURL("https://аpple.com/")
        let verdict = Self.idnOnly.verdict(for: url)
        let reason = try #require(verdict.reasons.first)
        #expect(reason.label == url.host.split(separator: ".").first.map(String.init))
        #expect(reason.message == "its name mixes Cyrillic and Latin letters")
        #expect(verdict.shownHost(of: url) == url.host)
        #expect(verdict.shownHost(of: url).hasPrefix("xn--"))
        let whole = Self.idnOnly.verdict(for: try ParsedURL("https://аррӏе.com/"))
        #expect(whole.summary == "its name is written in Cyrillic letters that all look like Latin ones")
        let character = Self.idnOnly.verdict(for: try ParsedURL("https://google.com\u{338}abc/"))
        #expect(character.summary == "its name contains U+0338 COMBINING LONG SOLIDUS OVERLAY, which is not used in domain names")
    }

    @Test func safeHostsShowInUnicode() throws {
        let url = try ParsedURL("https://bücher.de/")
        #expect(Self.idnOnly.verdict(for: url).shownHost(of: url) == "bücher.de")
    }

    @Test func everyLabelIsChecked() throws {
        // A safe IDN TLD does not excuse the label before it, and each bad label is reported.
        #expect(try Self.kinds("googlе.한국") == [.idnMixedScript])
        #expect(try Self.kinds("аpple.ѕсоре.com") == [.idnMixedScript, .idnWholeScript])
    }
}

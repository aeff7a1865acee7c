import Foundation
import Testing
@testable import OpenurlChooser
@testable import URLModel
import RouterContract

/// The chooser's pure parts: registrable domains, homographs, the link preview, remembered rules.
@Suite struct ChooserModelTests {
    /// Debian's list when installed (the tests below say which cases need it).
    static let publicSuffixList: [UInt8]? = FileManager.default.contents(atPath: PublicSuffixList.debianPath).map(Array.init)

    @Test(arguments: [
        ("www.example.co.uk", "example.co.uk"),
        ("example.org", "example.org"),
        ("a.b.c.example.com", "example.com"),
        ("foo.github.io", "foo.github.io"),  // a private-section suffix
        ("city.kawasaki.jp", "city.kawasaki.jp"),  // an exception rule (!city.kawasaki.jp)
        ("x.y.kawasaki.jp", "x.y.kawasaki.jp"),  // a wildcard rule (*.kawasaki.jp)
        ("www.xn--bcher-kva.de", "xn--bcher-kva.de"),
        ("shop.example.xn--p1ai", "example.xn--p1ai"),  // .рф written in the list in Unicode
    ])
    func registrableDomainsFromTheList(host: String, expected: String) throws {
        let list = try #require(Self.publicSuffixList, "install Debian's publicsuffix package (\(PublicSuffixList.debianPath))")
        #expect(PublicSuffixList.registrableDomain(of: host, listText: list) == expected)
    }

    @Test(arguments: [
        ("co.uk", nil),
        ("localhost", nil),
        ("192.168.1.10", nil),
        ("[::1]", nil),
    ] as [(String, String?)])
    func hostsWithoutARegistrableDomain(host: String, expected: String?) throws {
        let list = try #require(Self.publicSuffixList, "install Debian's publicsuffix package")
        #expect(PublicSuffixList.registrableDomain(of: host, listText: list) == expected)
    }

    @Test(arguments: [
        ("www.example.co.uk", "example.co.uk"),
        ("a.b.example.com", "example.com"),
        ("www.example.com.au", "example.com.au"),
        ("foo.github.io", "github.io"),  // the fallback does not know private suffixes
    ])
    func theFallbackWithoutAList(host: String, expected: String) {
        #expect(PublicSuffixList.registrableDomain(of: host, listText: nil) == expected)
    }

    /// The chooser's own judgement when the daemon sends no verdict: the IDN rules alone.
    @Test(arguments: [
        ("\u{430}pple.com", "Cyrillic and Latin"),  // Cyrillic а
        ("g\u{3BF}\u{3BF}gle.com", "Greek"),  // Greek ο
        ("\u{430}\u{440}\u{440}\u{4CF}\u{435}.com", "Cyrillic"),  // аррӏе
        ("paypal.com", nil),
        ("b\u{FC}cher.de", nil),
        ("\u{43F}\u{440}\u{438}\u{43C}\u{435}\u{440}.\u{440}\u{444}", nil),  // пример.рф: Cyrillic under a Cyrillic TLD
        ("\u{65E5}\u{672C}\u{8A9E}abc.jp", nil),  // Han with Latin is ordinary
        ("\u{C608}\u{C2DC}.kr", nil),
    ] as [(String, String?)])
    func homographs(host: String, warning: String?) throws {
        let preview = try LinkPreview(url: "https://\(host)/", original: nil, choices: [], opener: nil, publicSuffixes: nil)
        if let warning {
            #expect(preview.warning?.contains(warning) == true, "\(preview.warning ?? "nil")")
            #expect(preview.title == "Open link — \(preview.host)", "a look-alike's title is in ASCII")
            #expect(preview.safety.verdict == "warn")
        } else {
            #expect(preview.warning == nil, "\(preview.warning ?? "")")
            #expect(preview.title == "Open link — \(preview.unicodeHost ?? preview.host)")
        }
    }

    @Test func thePreviewEmphasisesTheRegistrableDomainAndShowsBothHostForms() throws {
        let preview = try LinkPreview(url: "http://user@shop.b\u{FC}cher.de:8080/x?y", original: "http://user@shop.b\u{FC}cher.de:8080/x?y&utm_source=z",
                                      choices: [OfferedChoice(key: "copy", label: "Copy", icon: "edit-copy")],
                                      opener: "slack", publicSuffixes: nil)
        #expect(preview.urlParts.before == "http://user@shop.")
        #expect(preview.urlParts.domain == "xn--bcher-kva.de")
        #expect(preview.urlParts.after == ":8080/x?y")
        #expect(preview.unicodeHost == "shop.b\u{FC}cher.de")
        #expect(preview.warning == nil)
        #expect(preview.notes.contains { $0.hasPrefix("Plain http") })
        #expect(preview.original != nil)
        #expect(preview.title == "Open link — shop.b\u{FC}cher.de")
        // The narrowest scope first (issue 21, case 3).
        #expect(preview.remember.map(\.scope) == ["host", "domain", "opener"])
        #expect(preview.remember.first?.label == "Remember for shop.b\u{FC}cher.de only")
        #expect(preview.remember[1].label == "Remember for b\u{FC}cher.de")
    }

    @Test func aMailtoPreviewShowsItsFieldsAndRemembersByRecipientDomain() throws {
        let body = String(repeating: "word ", count: 100)
        let preview = try LinkPreview(url: "mailto:a@corp.example.com?cc=b@x.org&subject=Hi%20there&body=\(body.replacingOccurrences(of: " ", with: "%20"))",
                                      original: nil, choices: [], opener: nil, publicSuffixes: nil)
        let mail = try #require(preview.mail)
        #expect(mail.to == ["a@corp.example.com"])
        #expect(mail.cc == ["b@x.org"])
        #expect(mail.subject == "Hi there")
        #expect(mail.bodyPreview?.count == LinkPreview.bodyPreviewLength + 1)
        #expect(preview.title == "Open link — a@corp.example.com")
        #expect(preview.remember == [LinkPreview.RememberScope(scope: "mail-domain", value: "corp.example.com", label: "Remember for mail to @corp.example.com")])
    }

    // Issue 21, case 7: the scope offered first is the narrowest.
    @Test(arguments: [
        // The narrowest scope that answers this question comes first (the default).
        ("https://news.example.org/a", ["host", "domain"], "Remember for news.example.org only"),
        ("https://example.org/a", ["domain"], "Remember for example.org"),
        // A look-alike host is named in its ASCII form.
        ("https://xn--pple-43d.com/", ["domain"], "Remember for xn--pple-43d.com"),
        ("https://www.xn--pple-43d.com/", ["host", "domain"], "Remember for www.xn--pple-43d.com only"),
        // A host safe to show in Unicode keeps it.
        ("https://www.xn--bcher-kva.de/", ["host", "domain"], "Remember for www.bücher.de only"),
    ])
    func theDefaultScopeIsTheNarrowestAndALookAlikeIsShownInASCII(url: String, scopes: [String], firstLabel: String) throws {
        let preview = try LinkPreview(url: url, original: nil, choices: [], opener: nil, publicSuffixes: nil)
        #expect(preview.remember.map(\.scope) == scopes)
        #expect(preview.remember.first?.label == firstLabel)
    }
}

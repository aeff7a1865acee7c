import Testing
@testable import URLModel

/// mailto recipients (issue 22, finding 4): quoted local parts, domains read by UTS 46 as hosts
/// are, and the addresses no mailer may be given.
@Suite struct MailtoAddressTests {
    @Test(arguments: [
        // A comma inside a quoted local part does not split the list.
        ("mailto:%22a,b%22@example.org", ["\"a,b\"@example.org"]),
        ("mailto:%22a,b%22@example.org,c@example.org", ["\"a,b\"@example.org", "c@example.org"]),
        ("mailto:%22a%5C%22,b%22@example.org,c@x.org", ["\"a\\\",b\"@example.org", "c@x.org"]),
        ("mailto:%22Doe,%20John%22%20%3Cj@x.org%3E,k@x.org", ["\"Doe, John\" <j@x.org>", "k@x.org"]),
        ("mailto:a@x.org,%20,b@y.org", ["a@x.org", "b@y.org"]),
        // Domains go through UTS 46 as hosts do; the local part stays as written.
        ("mailto:user@\u{FF47}\u{FF4F}\u{FF4F}\u{FF47}\u{FF4C}\u{FF45}.com", ["user@google.com"]),
        ("mailto:user@%EF%BD%87%EF%BD%8F%EF%BD%8F%EF%BD%87%EF%BD%8C%EF%BD%85.com", ["user@google.com"]),
        ("mailto:A.Person@Example.ORG", ["A.Person@example.org"]),
        ("mailto:a@example\u{3002}org", ["a@example.org"]),
        ("mailto:a@B%C3%BCcher.DE", ["a@b\u{FC}cher.de"]),
        ("mailto:a@xn--bcher-kva.de", ["a@b\u{FC}cher.de"]),
        ("mailto:John%20%3CJ@EXAMPLE.org%3E", ["John <J@example.org>"]),
        ("mailto:%22x@y%22@example.org", ["\"x@y\"@example.org"]),
        // Nothing to map: no domain, or an address literal.
        ("mailto:postmaster", ["postmaster"]),
        ("mailto:a@[192.0.2.1]", ["a@[192.0.2.1]"]),
    ])
    func readsRecipients(url: String, to: [String]) throws {
        let mailto = MailtoURL(try ParsedURL(url))
        #expect(mailto.to == to)
        #expect(mailto.problem == nil, "\(mailto.problem ?? "")")
        #expect(mailto.addresses.map(\.display) == to)
    }

    @Test func idnDomainsHaveBothForms() throws {
        let mailto = MailtoURL(try ParsedURL("mailto:a@b%C3%BCcher.de?cc=c@xn--mnchen-3ya.de&bcc=d@\u{4F8B}\u{3048}.jp"))
        #expect(mailto.addresses.map(\.display) == ["a@b\u{FC}cher.de", "c@m\u{FC}nchen.de", "d@\u{4F8B}\u{3048}.jp"])
        #expect(mailto.addresses.map(\.ascii) == ["a@xn--bcher-kva.de", "c@xn--mnchen-3ya.de", "d@xn--r8jz45g.jp"])
        #expect(mailto.addresses.map(\.kind) == [.to, .cc, .bcc])
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        var url: String
        var reason: String
        var to: [String] = []
        var cc: [String] = []
        var bcc: [String] = []
        var testDescription: String { url }
    }

    /// An address never holds a control once decoded: the link has a `problem` (to be refused)
    /// and the address is in no list, so it reaches neither the clipboard nor a template.
    @Test(arguments: [
        Refused(url: "mailto:a@b.com%0D%0ABcc:%20spy@evil.com", reason: "line break"),
        Refused(url: "mailto:a@b.com%0ABcc:spy@evil.com", reason: "line break"),
        Refused(url: "mailto:ok@x.org?cc=a@b.com%0D%0ABcc:%20spy@evil.com", reason: "hidden Bcc", to: ["ok@x.org"]),
        Refused(url: "mailto:?to=a@b.com%00x@y.org", reason: "NUL"),
        Refused(url: "mailto:ok@x.org?bcc=a%01b@x.org", reason: "U+0001", to: ["ok@x.org"]),
        Refused(url: "mailto:a%7F@x.org", reason: "U+007F"),
        Refused(url: "mailto:a%09b@x.org", reason: "U+0009"),
        Refused(url: "mailto:a@exa%20mple.org", reason: "no valid domain"),
        Refused(url: "mailto:a@exa%2Fmple.org,b@y.org", reason: "no valid domain", to: ["b@y.org"]),
        Refused(url: "mailto:a@%FF.org", reason: "not UTF-8"),
    ])
    func addressesWithControlsAreAProblem(testCase: Refused) throws {
        let mailto = MailtoURL(try ParsedURL(testCase.url))
        let problem = try #require(mailto.problem, "no problem found in \(testCase.url)")
        #expect(problem.contains(testCase.reason), "\(problem)")
        #expect(mailto.to == testCase.to)
        #expect(mailto.cc == testCase.cc)
        #expect(mailto.bcc == testCase.bcc)
        for address in mailto.addresses {
            #expect(!address.display.utf8.contains { $0 < 0x20 || $0 == 0x7F })
        }
    }

    /// Other fields keep their decoded line breaks as data (they are encoded again in URLs).
    @Test func aLineBreakInASubjectIsNoProblem() throws {
        let mailto = MailtoURL(try ParsedURL("mailto:a@x.org?subject=Hi%0D%0ABcc:%20evil@x.org"))
        #expect(mailto.problem == nil)
        #expect(mailto.subject == "Hi\r\nBcc: evil@x.org")
        #expect(mailto.bcc.isEmpty)
    }

    @Test(arguments: [
        ("mailto:?bcc=s@x.org&subject=Hi", "mailto:?subject=Hi"),
        ("mailto:?subject=Hi&BCC=s@x.org&body=b", "mailto:?subject=Hi&body=b"),
        ("mailto:?bcc=s@x.org", "mailto:"),
        ("mailto:a@x.org?subject=x", "mailto:a@x.org?subject=x"),
        // Found by Fuzz/Targets/mailto: the authority of `mailto://` was dropped, and the copy did not parse.
        ("mailto://u@h/p?bcc=s@x.org&subject=x#f", "mailto://u@h/p?subject=x#f"),
    ])
    func withoutBccDropsOnlyBcc(url: String, expected: String) throws {
        #expect(MailtoURL.withoutBcc(try ParsedURL(url)) == expected)
    }
}

/// Fields given more than once (RFC 6068 lets `to`, `cc` and `bcc` repeat; Thunderbird joins
/// repeated bodies): read as a mailer reads them, and handed on whole.
@Suite struct MailtoRepeatedFieldTests {
    @Test(arguments: [
        ("mailto:a@b.com?body=one&body=two", "one\r\ntwo", nil as String?, ["body"]),
        ("mailto:a@b.com?body=one&body=two&body=three", "one\r\ntwo\r\nthree", nil, ["body"]),
        ("mailto:a@b.com?subject=first&subject=second&body=x", "x", "second", ["subject"]),
        ("mailto:a@b.com?subject=s&body=b", "b", "s", []),
    ] as [(String, String, String?, [String])])
    func repeatedBodiesAreJoinedAndTheLastSubjectStands(url: String, body: String, subject: String?, repeated: [String]) throws {
        let mailto = MailtoURL(try ParsedURL(url))
        #expect(mailto.body == body)
        #expect(mailto.subject == subject)
        #expect(mailto.repeatedFields == repeated)
    }

    @Test func aMailerGetsEveryBodyAndEveryRecipient() throws {
        let mailto = MailtoURL(try ParsedURL("mailto:a@b.com?to=c@d.org&cc=e@f.org&cc=g@h.org&body=one&body=two"))
        #expect(mailto.to == ["a@b.com", "c@d.org"] && mailto.cc == ["e@f.org", "g@h.org"])
        #expect(mailto.forMailer.contains("body=one%0D%0Atwo"), "\(mailto.forMailer)")
    }
}

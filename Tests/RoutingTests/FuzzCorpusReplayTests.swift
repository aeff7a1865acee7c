import Foundation
import JSON
@testable import LinkSafety
import TestSupport
import Testing
@testable import URLModel
@testable import ConfigLanguage
@testable import Routing
@testable import RoutingCore

/// Replays the fuzz seed corpora (Fuzz/Corpus, which also keeps every past finding as a
/// `regression-*` file) through the url, mailto, decide and safety oracles in the normal suite,
/// so a finding stays fixed without a fuzzing build.
@Suite struct FuzzCorpusReplayTests {
    static func inputs(_ target: String) throws -> [(name: String, text: String)] {
        let directory = PackageRoot.url.appendingPathComponent("Fuzz/Corpus/\(target)").path
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        return names.compactMap { name in
            FileManager.default.contents(atPath: directory + "/" + name).map { (name, String(decoding: $0, as: UTF8.self)) }
        }
    }

    @Test func urlCorpusNormalFormsReparseToThemselves() throws {
        let inputs = try Self.inputs("url")
        #expect(inputs.count > 40)
        #expect(inputs.contains { $0.name.hasPrefix("regression-") })
        for (name, text) in inputs {
            guard let url = try? ParsedURL(text) else { continue }
            let again = try? ParsedURL(url.string)
            #expect(again?.string == url.string, "\(name): \(url.string.debugDescription) re-parses as \(String(describing: again?.string))")
            #expect(again?.host == url.host, "\(name)")
            // The URL Standard's path state: no dot segment is left for the app to apply.
            if ParsedURL.specialSchemes.contains(url.scheme) {
                let segments = Array(url.path.utf8).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
                #expect(!segments.contains { URLTail.isDotSegment($0) != nil }, "\(name): \(url.path.debugDescription)")
            }
        }
    }

    @Test func mailtoCorpusRecipientsHoldNoControl() throws {
        let inputs = try Self.inputs("mailto")
        #expect(inputs.count > 10)
        for (name, text) in inputs {
            guard let url = try? ParsedURL(text), url.scheme == "mailto" else { continue }
            let mailto = MailtoURL(url)
            for recipient in mailto.to + mailto.cc + mailto.bcc + mailto.addresses.map(\.ascii) {
                #expect(!recipient.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "\(name): \(recipient.debugDescription)")
            }
            #expect(MailtoURL(try ParsedURL(url.string)) == mailto, "\(name)")
            // What a copy of a Bcc-only mailto shows parses, and holds no Bcc.
            let copied = try? ParsedURL(MailtoURL.withoutBcc(url))
            #expect(copied.map { MailtoURL($0).bcc.isEmpty } == true, "\(name): \(MailtoURL.withoutBcc(url).debugDescription)")
            // What a mail program is handed is its own normal form with the same recipients and body, no other field.
            let handed = mailto.forMailer
            let reread = try MailtoURL(ParsedURL(handed))
            #expect(try ParsedURL(handed).string == handed, "\(name)")
            for kind in [MailtoURL.Address.Kind.to, .cc, .bcc] {
                #expect(reread.addresses.filter { $0.kind == kind }.map(\.ascii).sorted() == mailto.addresses.filter { $0.kind == kind }.map(\.ascii).sorted(), "\(name): \(handed)")
            }
            #expect(reread.otherFields.isEmpty && reread.problem == nil, "\(name): \(handed)")
            #expect(reread.body == (mailto.body?.isEmpty == false ? mailto.body : nil), "\(name)")
        }
    }

    @Test func decideCorpusIndexEqualsScanAndHandsOnNormalForms() throws {
        let engine = RuleEngine(config: try ConfigLoader.load(text: """
            [[rules]]
            match.to = "*@gmail.com"
            copy = "{to}"
            [[rules]]
            match.domain = ["example.org", "bücher.de"]
            open = "browser.desktop"
            [[rules]]
            match.host = ["127.0.0.1", "[::1]", "*.local"]
            discard = true
            [default]
            open = "other.desktop"
            """, path: "replay.toml"))
        for (name, text) in try Self.inputs("decide") {
            guard let indexed = try? engine.decide(text) else { continue }
            let scanned = try engine.decide(text, explain: true)
            #expect(indexed.rule == scanned.rule, "\(name)")
            #expect(indexed.finalURL == scanned.finalURL, "\(name)")
            #expect((try? ParsedURL(indexed.finalURL))?.string == indexed.finalURL, "\(name): \(indexed.finalURL.debugDescription)")
        }
    }

    /// Fuzz/Targets/safety.swift's oracles: a stable verdict, `safe` for a plain ASCII host with
    /// nothing known, a known domain never its own look-alike, JSON that parses back.
    @Test func safetyCorpusVerdictsAreStableAndPlainHostsSafe() throws {
        let inputs = try Self.inputs("safety")
        #expect(inputs.count >= 30)
        let known = KnownDomains([KnownDomain(domain: "paypal.com", description: "your rule 'Pay' opens in firefox"),
                                  KnownDomain(domain: "bücher.de", description: "you opened recently")])
        let lists = [BlockList(name: "fuzz list", text: "||malware.example^\n||evil.example/path^\n0.0.0.0 hosts.example\n@@||good.malware.example^\n")]
        let full = SafetyChecker(knownDomains: known, blocklists: lists)
        var warned = 0, blocked = 0
        for (name, input) in inputs {
            let parts = input.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let linkText = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
            guard let url = (try? ParsedURL(parts[0])) ?? (try? ParsedURL("https://" + parts[0] + "/")) else { continue }
            let verdict = full.verdict(for: url, linkText: linkText)
            #expect(full.verdict(for: url, linkText: linkText) == verdict, "\(name)")
            #expect(SafetyChecker(knownDomains: known, blocklists: lists).verdict(for: url, linkText: linkText) == verdict, "\(name)")
            #expect((try? JSONValue(parsing: verdict.json(for: url).text))?["verdict"]?.string == verdict.name, "\(name)")
            if verdict != .safe { #expect(verdict.shownHost(of: url) == url.host, "\(name)") }
            let host = url.host
            if !host.isEmpty, url.userinfo?.isEmpty ?? true, host.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }) {
                // Only a top site written in front of another domain warns on a plain host.
                let plain = SafetyChecker().verdict(for: url).reasons
                #expect(plain.allSatisfy { $0.kind == .targetEmbedding && host.contains($0.domain ?? "?") }, "\(name): \(host): \(plain)")
            }
            if !host.isEmpty {
                let own = SafetyChecker(checks: SafetyChecks(idn: false, lookalikes: true, linkText: false, blocklists: false),
                                        knownDomains: KnownDomains([KnownDomain(domain: url.matchingHost)]))
                #expect(own.verdict(for: url).reasons.filter { $0.kind != .targetEmbedding || $0.domain == url.matchingHost }.isEmpty,
                        "\(name): \(host) looks like itself")
            }
            if case .warn = verdict { warned += 1 }
            if case .block = verdict { blocked += 1 }
        }
        // The seeds reach every kind of verdict.
        #expect(warned >= 10 && blocked >= 3, "warned \(warned), blocked \(blocked)")
    }
}

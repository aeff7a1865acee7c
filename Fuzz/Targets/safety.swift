import JSON
@testable import LinkSafety
@testable import URLModel

/// Fuzzed links (first line: a URL, or a host; the rest: the text it was shown as). Oracles:
/// no crash; the verdict is stable (twice with one checker, and with a checker built afresh);
/// a host whose ASCII form is only letters, digits and dots, with no known domains, lists, user
/// information or link text, is `safe`; a known domain never looks like itself; the `safety`
/// JSON parses back; a host is shown in Unicode only when safe.
let known = KnownDomains([KnownDomain(domain: "paypal.com", description: "your rule 'Pay' opens in firefox"),
                          KnownDomain(domain: "bücher.de", description: "you opened recently")])
let lists = [BlockList(name: "fuzz list", text: "||malware.example^\n||evil.example/path^\n0.0.0.0 hosts.example\n@@||good.malware.example^\n")]
let full = SafetyChecker(knownDomains: known, blocklists: lists)
let bare = SafetyChecker()

func makeFull() -> SafetyChecker { SafetyChecker(knownDomains: known, blocklists: lists) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let (first, rest) = twoParts(data, size)
    let linkText: String? = rest.isEmpty ? nil : rest
    guard let url = (try? ParsedURL(first)) ?? (try? ParsedURL("https://" + first + "/")) else { return 0 }
    let verdict = full.verdict(for: url, linkText: linkText)
    require(full.verdict(for: url, linkText: linkText) == verdict, "the verdict changed on a second look")
    require(makeFull().verdict(for: url, linkText: linkText) == verdict, "a fresh checker judged differently")
    // The JSON parses back, with the verdict's name.
    let json = verdict.json(for: url)
    require((try? JSONValue(parsing: json.text))?["verdict"]?.string == verdict.name, "the safety JSON does not parse back: \(json.text)")
    // Unicode is shown only for a safe host.
    if verdict != .safe { require(verdict.shownHost(of: url) == url.host, "a \(verdict.name) host is shown in Unicode") }
    let plain = bare.verdict(for: url)
    let host = url.host
    if !host.isEmpty, url.userinfo?.isEmpty ?? true,
       host.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }) {
        // Only a top site written in front of another domain warns with nothing known.
        require(plain.reasons.allSatisfy { $0.kind == .targetEmbedding && host.contains($0.domain ?? "?") } && plain.name != "block",
                "the ASCII host \(host) with nothing known is \(plain.name): \(plain.json(for: url).text)")
    }
    // A known domain never looks like itself (its ASCII form is the domain: an `xn--` label
    // that decodes to the same text as another name is a look-alike of that name).
    if !host.isEmpty {
        let own = SafetyChecker(checks: SafetyChecks(idn: false, lookalikes: true, linkText: false, blocklists: false),
                                knownDomains: KnownDomains([KnownDomain(domain: url.matchingHost)]))
        // A top site in front of it may still warn (target embedding), but never the domain itself.
        let ownReasons = own.verdict(for: url).reasons.filter { $0.kind != .targetEmbedding || $0.domain == url.matchingHost }
        require(ownReasons.isEmpty, "\(host) looks like itself: \(own.verdict(for: url).json().text)")
        require(full.trusts(host: url.matchingHost, unicodeHost: url.matchingUnicodeHost) == full.trusts(host: url.matchingHost, unicodeHost: url.matchingUnicodeHost),
                "trust changed on a second look")
    }
    return 0
}

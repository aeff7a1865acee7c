@testable import URLModel
@testable import ConfigLanguage
@testable import Routing

/// Fixed configs, fuzzed URLs. Oracles: the rule index decides exactly as trying every rule
/// in order (`explain`), and the URL handed on parses to itself with the host the rules saw.
let engines: [RuleEngine] = [
    """
    [[rules]]
    name = "gmail"
    match.to = "*@gmail.com"
    copy = "{to}"
    [[rules]]
    name = "trusted"
    match.domain = ["example.org", "bücher.de"]
    open = "browser.desktop"
    [[rules]]
    name = "zoom"
    match.domain = "zoom.us"
    match.path = "/j/*"
    open = "Zoom.desktop"
    [[rules]]
    name = "loopback"
    match.host = ["127.0.0.1", "[::1]", "*.local"]
    discard = true
    [[rules]]
    name = "query"
    match.query = { id = "4*" }
    open = "q.desktop"
    [[rules]]
    name = "mail"
    match.scheme = "mailto"
    discard = true
    [[rules]]
    name = "url"
    match.url = "https://*/x/**"
    open = "x.desktop"
    [[rules]]
    name = "regex"
    match.regex = "^https?://[^/]*evil"
    discard = true
    [default]
    open = "other.desktop"
    """,
].compactMap { try? RuleEngine(config: ConfigLoader.load(text: $0, path: "fuzz.toml")) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    require(!engines.isEmpty, "the fixed config does not load")
    let input = text(data, size)
    for engine in engines {
        guard let indexed = try? engine.decide(input) else { continue }
        guard let scanned = try? engine.decide(input, explain: true) else {
            require(false, "explain refused what the index decided")
            continue
        }
        require(indexed.rule == scanned.rule, "index chose \(String(describing: indexed.rule)), scan \(String(describing: scanned.rule))")
        require(indexed.kind == scanned.kind, "index and scan decided different kinds")
        require(indexed.finalURL == scanned.finalURL, "index and scan hand on different URLs")
        guard let handed = try? ParsedURL(indexed.finalURL) else {
            require(false, "the URL handed on does not parse: \(indexed.finalURL.debugDescription)")
            continue
        }
        require(handed.string == indexed.finalURL, "the URL handed on is not in normal form")
    }
    return 0
}

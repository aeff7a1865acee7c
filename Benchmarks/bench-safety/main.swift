// bench-safety: link safety's costs on the real lists from Debian's uBlock Origin package
// (webext-ublock-origin-firefox): each list's load (read, parse, index) and entries, the cost of
// a block-list look-up (hits and misses), and of a whole verdict for an ASCII and an IDN host,
// with and without known domains and lists.
//
//     swift build -c release --product bench-safety && .build/release/bench-safety
import BenchSupport
import Foundation
import LinkSafety
import URLModel

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("bench-safety: " + message + "\n").utf8))
    exit(1)
}


/// Nanoseconds per call of `body` over `count` calls, the median of `runs` runs.
func perCall(_ count: Int, runs: Int = 7, _ body: (Int) -> Void) -> Double {
    var results: [Double] = []
    for _ in 0..<runs {
        let start = nanoseconds()
        for index in 0..<count { body(index) }
        results.append(Double(nanoseconds() - start) / Double(count))
    }
    return median(results)
}

func format(_ value: Double, _ digits: Int = 0) -> String {
    let scale = pow(10.0, Double(digits))
    let rounded = (value * scale).rounded() / scale
    return digits == 0 ? String(Int(rounded)) : String(rounded)
}

func isFile(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
}

let locations = BlockListDiscovery.auto(isFile: isFile)
guard !locations.isEmpty else { fail("no block lists found: apt-get install -y \(BlockListDiscovery.package)") }

func makeList(_ location: BlockListLocation) -> BlockList {
    BlockList(path: location.path, name: location.name) { FileManager.default.contents(atPath: location.path).map { [UInt8]($0) } }
}

// OPENURL_BENCH_PROFILE_LOAD=1: load each list and index the Public Suffix List, once each, and
// stop (for callgrind: the instructions of the lists' first use, without the timing loops'). The
// last verdict is the first with an IDN host: the list's rules in Unicode are indexed then.
if getenv("OPENURL_BENCH_PROFILE_LOAD") != nil {
    for location in locations { _ = makeList(location).summary }
    let suffixes = FileManager.default.contents(atPath: PublicSuffixList.debianPath).map { [UInt8]($0) }
    let checker = SafetyChecker(publicSuffixes: SuffixIndex(text: suffixes))
    guard let link = try? ParsedURL("https://evil.example/"), let idn = try? ParsedURL("https://xn--bcher-kva.de/") else {
        fail("the profile links do not parse")
    }
    _ = checker.verdict(for: link, linkText: "paypal.com")
    _ = checker.verdict(for: idn, linkText: "paypal.com")
    exit(0)
}

// 1. Each list: read, parse and index, from a fresh BlockList each time.
print("bench-safety: block lists (Debian \(BlockListDiscovery.package))")
var lists: [BlockList] = []
var hitURLs: [ParsedURL] = []
for location in locations {
    var readTimes: [Double] = [], loadTimes: [Double] = []
    var summary: BlockList.Summary?
    for _ in 0..<15 {
        let readStart = nanoseconds()
        _ = FileManager.default.contents(atPath: location.path)
        readTimes.append(Double(nanoseconds() - readStart) / 1e6)
        let list = makeList(location)
        let start = nanoseconds()
        summary = list.summary
        loadTimes.append(Double(nanoseconds() - start) / 1e6)
    }
    guard let summary else { fail("\(location.path) did not load") }
    if let error = summary.error { fail(error) }
    let size = (try? FileManager.default.attributesOfItem(atPath: location.path)[.size] as? Int) ?? 0
    print("  \(location.name): \(summary.counts.entries) entries (\(summary.counts.description))")
    print("    \(size / 1024) KB; load \(format(median(loadTimes), 2)) ms (of which reading the file \(format(median(readTimes), 2)) ms)")
    let list = makeList(location)
    _ = list.summary
    lists.append(list)
    // Links built from the list's own host entries: hits.
    let text = String(decoding: FileManager.default.contents(atPath: location.path) ?? Data(), as: UTF8.self)
    for line in text.split(separator: "\n") where line.hasPrefix("||") && line.contains("^") && !line.contains("/") && !line.contains("*") {
        let host = line.dropFirst(2).prefix { $0 != "^" }
        if let url = try? ParsedURL("https://www.\(host)/page"), list.block(for: url) != nil { hitURLs.append(url) }
        if hitURLs.count % 1000 == 999 { break }
    }
}
guard !hitURLs.isEmpty else { fail("no hits built from the lists") }

// 2. Look-ups: misses (ordinary links, 2 to 5 labels, with paths) and hits, against each list.
let missURLs: [ParsedURL] = (0..<2000).compactMap { index in
    let hosts = ["example\(index).com", "www.site\(index).example.org", "cdn.static.host\(index).co.uk", "a.b.c.deep\(index).example.net"]
    return try? ParsedURL("https://\(hosts[index % hosts.count])/path/\(index)?q=\(index)")
}
let allLists = lists
// OPENURL_BENCH_PROFILE=N: N miss look-ups and stop (for perf or callgrind).
if let profile = getenv("OPENURL_BENCH_PROFILE").flatMap({ Int(String(cString: $0)) }) {
    for index in 0..<profile { for list in allLists { _ = list.block(for: missURLs[index % missURLs.count]) } }
    exit(0)
}
let missNs = perCall(200_000) { index in
    for list in allLists { _ = list.block(for: missURLs[index % missURLs.count]) }
} / Double(allLists.count)
let hitNs = perCall(200_000) { index in
    for list in allLists { _ = list.block(for: hitURLs[index % hitURLs.count]) }
} / Double(allLists.count)
print("  look-up, one list: \(format(missNs)) ns a miss, \(format(hitNs)) ns a hit (\(missURLs.count) and \(hitURLs.count) links, both lists)")

// 3. Whole verdicts.
let known = KnownDomains((0..<200).map { KnownDomain(domain: "site\($0).example", description: "your rule \($0) opens in firefox") }
    + [KnownDomain(domain: "paypal.com", description: "your rule 'Pay' opens in firefox:Banking")])
let publicSuffixes = FileManager.default.contents(atPath: PublicSuffixList.debianPath).map { [UInt8]($0) }
let plain = SafetyChecker()
let full = SafetyChecker(knownDomains: known, blocklists: lists, publicSuffixes: SuffixIndex(text: publicSuffixes))
func url(_ text: String) -> ParsedURL {
    guard let url = try? ParsedURL(text) else { fail("\(text) does not parse") }
    return url
}
let cases: [(String, SafetyChecker, ParsedURL, String?)] = [
    ("ASCII host, no known domains, no lists", plain, url("https://www.example.org/path?q=1"), nil),
    ("ASCII host, 201 known domains and both lists", full, url("https://www.example.org/path?q=1"), nil),
    ("ASCII look-alike (paypa1.com), known domains and lists", full, url("https://paypa1.com/login"), nil),
    ("IDN host shown in Unicode (bücher.de), no known domains, no lists", plain, url("https://www.bücher.de/"), nil),
    ("IDN host shown in Unicode (bücher.de), known domains and lists", full, url("https://www.bücher.de/"), nil),
    ("IDN spoof (аррӏе.com), known domains and lists", full, url("https://xn--80ak6aa92e.com/"), nil),
    ("link text, same host", full, url("https://www.example.org/"), "www.example.org"),
    ("link text, same site (registrable domains compared)", full, url("https://www.example.org/"), "example.org"),
    ("link text naming another site", full, url("https://evil.example/"), "paypal.com"),
]
// OPENURL_BENCH_PROFILE_VERDICT=N: N verdicts of the IDN spoof case and stop.
if let profile = getenv("OPENURL_BENCH_PROFILE_VERDICT").flatMap({ Int(String(cString: $0)) }) {
    let spoof = url("https://xn--80ak6aa92e.com/")
    for _ in 0..<profile { _ = full.verdict(for: spoof) }
    exit(0)
}
print("bench-safety: verdicts (ns each, median of 7 runs)")
for (label, checker, target, text) in cases {
    let count = text == nil ? 200_000 : 2_000
    let ns = perCall(count) { _ in _ = checker.verdict(for: target, linkText: text) }
    let verdict = checker.verdict(for: target, linkText: text)
    print("  \(label): \(format(ns)) ns → \(verdict.name)\(verdict.summary.map { " (\($0))" } ?? "")")
}
var firstUse: [Double] = []
for _ in 0..<7 {
    let fresh = SafetyChecker(publicSuffixes: SuffixIndex(text: publicSuffixes))
    let start = nanoseconds()
    _ = fresh.verdict(for: url("https://evil.example/"), linkText: "paypal.com")
    firstUse.append(Double(nanoseconds() - start) / 1e6)
}
print("  first link-text verdict of a checker (indexes the Public Suffix List): \(format(median(firstUse), 2)) ms")
let psl = perCall(50, runs: 3) { _ in _ = PublicSuffixList.registrableDomain(of: "www.example.co.uk", listText: publicSuffixes) }
print("  (URLModel's registrable-domain look-up, a pass over the list's text: \(format(psl / 1000, 1)) µs; link text uses LinkSafety's index of it, built once, instead)")

// Routing benchmark: decisions per second and config load time for 10 to 10,000 rules, and
// PCRE2 against Swift Regex for the regex matcher. Run in release mode:
//   swift build -c release --product bench-routing && .build/release/bench-routing
import BenchSupport
import Hygiene
import LinkSafety
import SiteLists
import URLModel
#if canImport(Glibc)
import Glibc
import Patterns
import RoutingCore
import ConfigLanguage
import Routing
#endif

/// A realistic mix: 80% domain rules (a tenth with a path), 8% path-only, 2% regex, 5% mailto `to`, 5% opener.
/// `settings` are more lines of the one `[settings]` table (two tables would not load).
func makeConfig(rules: Int, hygiene: Bool = true, front: String = "", settings: String = "") -> String {
    let table = (hygiene ? "" : "clean = false\nunwrap = false\n") + settings
    var text = (table.isEmpty ? "" : "[settings]\n" + table) + "[default]\nopen = \"firefox.desktop\"\n[apps.work]\nexec = [\"chrome\", \"{url}\"]\n" + front
    for i in 0..<rules {
        text += "[[rules]]\nname = \"rule \(i)\"\n"
        switch i % 100 {
        case 0..<80:
            text += "match.domain = \"site\(i).example\"\n"
            if i % 10 == 0 { text += "match.path = \"/app/*\"\n" }
            text += "open = \"work\"\n"
        case 80..<88: text += "match.path = \"/only\(i)/*\"\nopen = \"b.desktop\"\n"
        case 88..<90: text += "match.regex = \"^https://[a-z]+\\\\.r\(i)\\\\.example/\"\ndiscard = true\n"
        case 90..<95: text += "match.scheme = \"mailto\"\nmatch.to = \"*@corp\(i).example\"\nopen = \"gmail\"\n"
        default: text += "match.opener = \"app\(i)\"\nopen = \"c.desktop\"\n"
        }
    }
    return text
}

func corpus(rules: Int) -> [String] {
    var urls: [String] = []
    for i in 0..<1000 {
        switch i % 10 {
        case 0..<5: urls.append("https://www.site\((i * 7) % max(rules, 1)).example/page/\(i)?utm_source=x")
        case 5: urls.append("https://github.com/org/repo/issues/\(i)")
        case 6: urls.append("mailto:person\(i)@corp\((i * 13) % max(rules, 1)).example?subject=Hello")
        case 7: urls.append("https://news.ycombinator.com/item?id=\(i)")
        case 8: urls.append("https://sub.site\((i * 3) % max(rules, 1)).example/app/x")
        default: urls.append("https://en.wikipedia.org/wiki/Page_\(i)")
        }
    }
    return urls
}

// OPENURL_BENCH_PROFILE=N: decide N URLs under 10 rules (OPENURL_BENCH_RULES to change) and stop (for callgrind).
// OPENURL_BENCH_SAFETY=off: with `safety = "off"`; =lists: with Debian's uBlock lists and the
// Public Suffix List, read before the decisions; =suffixes: the Public Suffix List alone. OPENURL_BENCH_LINK_TEXT=TEXT: every link shown as TEXT.
let profileRules = getenv("OPENURL_BENCH_RULES").flatMap { Int(String(cString: $0)) } ?? 10
let profileSafety = getenv("OPENURL_BENCH_SAFETY").map { String(cString: $0) } ?? ""
if let value = getenv("OPENURL_BENCH_PROFILE"), let n = Int(String(cString: value)) {
    // A config that does not load must stop the benchmark, loudly: it once ran the full
    // benchmark instead, and its figures were taken for the profile's.
    var config: Config
    do {
        config = try ConfigLoader.load(text: makeConfig(rules: profileRules, hygiene: getenv("OPENURL_BENCH_NO_HYGIENE") == nil,
                                                        settings: profileSafety == "off" ? "safety = \"off\"\n" : ""), path: "p")
    } catch {
        print("bench-routing: the profile's config does not load: \(error)")
        exit(1)
    }
    if profileSafety == "lists" || profileSafety == "suffixes" {
        config.publicSuffixes = readFile(PublicSuffixList.debianPath).map { SuffixIndex(text: $0) }
    }
    if profileSafety == "lists" {
        config.blockLists = BlockListDiscovery.auto(isFile: isFile).map { location in BlockList(path: location.path, name: location.name) { readFile(location.path) } }
    }
    let engine = RuleEngine(config: config)
    engine.safety.prepare()
    let urls = corpus(rules: profileRules)
    var sink = 0
    let context = getenv("OPENURL_BENCH_LINK_TEXT").map { LinkContext(linkText: String(cString: $0)) }
    for i in 0..<n { sink &+= (try? engine.decide(urls[i % urls.count], context: context))?.finalURL.utf8.count ?? 0 }
    print(sink)
    exit(0)
}
print("openurld routing benchmark (release, one core; each rate the best of ten 0.1-s windows)")
for hygiene in [false, true] {
print(hygiene ? "\nwith URL hygiene (unwrap + clean, the default)" : "rules only (clean = false, unwrap = false)")
print("rules   | load ms | decisions/s | µs/decision | vs 10 rules")
var baseline = 0.0
for count in [10, 100, 1_000, 10_000] {
    let text = makeConfig(rules: count, hygiene: hygiene)
    var loadTimes: [Double] = []
    var engine = RuleEngine(config: Config())
    for _ in 0..<5 {
        let start = now()
        guard let config = try? ConfigLoader.load(text: text, path: "bench.toml") else { fatalError("config failed") }
        engine = RuleEngine(config: config)
        loadTimes.append(now() - start)
    }
    loadTimes.sort()
    let urls = corpus(rules: count)
    var sink = 0
    // A `let`: the `var` above, captured by the timed closure, was read through its box at
    // every decision (the same engine measured ~15 % slower than in the safety table below).
    let decider = engine
    let rate = bestRate(perRound: urls.count) {
        for url in urls {
            if let decision = try? decider.decide(url) { sink &+= decision.kind.rawValue.utf8.count }
        }
    }
    if count == 10 { baseline = rate }
    let pad = { (s: String, n: Int) in s + String(repeating: " ", count: max(0, n - s.count)) }
    print(pad("\(count)", 8) + "| " + pad(String(format1(loadTimes[2] * 1000)), 8) + "| " + pad("\(Int(rate))", 12) + "| "
          + pad(format2(1e6 / rate), 12) + "| " + format2(baseline / rate) + "× slower (sink \(sink % 10))")
}
}

func format1(_ x: Double) -> String { String(Double(Int(x * 10)) / 10) }
func format2(_ x: Double) -> String { String(Double(Int(x * 100)) / 100) }

// Issue 24: rules on the moment. The same 1,000 rules behind 20 rules on the network, VPN, time,
// days, window, keys and any/not groups (which no index can file, so every URL tries them),
// decided with a full moment as the daemon gathers it; beside the 1,000 rules alone, same run.
do {
    var moment = Moment(network: .known(NetworkFacts(connections: [ActiveConnection(id: "Home", type: "802-11-wireless", ssid: "Fritz")])),
                        time: .known(LocalTime(year: 2026, month: 12, day: 1, hour: 18, minute: 30)),
                        window: .known("Inbox — Thunderbird"), modifiers: .known([]))
    moment.running = .known(["bash", "firefox-esr"])
    var front = ""
    for i in 0..<20 {
        front += "[[rules]]\nname = \"moment \(i)\"\n"
        switch i % 5 {
        case 0: front += "match.network = \"Office\(i)*\"\n"
        case 1: front += "match.vpn = \"Corp\(i)*\"\n"
        case 2: front += "match.time = \"0\(i % 10):00-0\(i % 10):30\"\nmatch.days = \"mon-fri\"\n"
        case 3: front += "match.window = \"*Project \(i)*\"\nmatch.modifiers = \"shift\"\n"
        default: front += "match.any = [{ network = \"N\(i)\" }, { vpn = true }]\nmatch.not = { days = \"sat\" }\n"
        }
        front += "discard = true\n"
    }
    let base = makeConfig(rules: 1_000)
    let urls = corpus(rules: 1_000)
    func rate(_ text: String, _ moment: Moment) -> Double {
        guard let config = try? ConfigLoader.load(text: text, path: "bench.toml") else { fatalError("config failed") }
        let engine = RuleEngine(config: config)
        return bestRate(perRound: urls.count) {
            for url in urls { _ = try? engine.decide(url, moment: moment) }
        }
    }
    let split = makeConfig(rules: 1_000, front: front)
    let plain = rate(base, Moment()), withMoment = rate(split, moment)
    print("moment: 1,000 rules: \(format2(1e6 / plain)) µs/decision; with 20 rules on the moment first (network, vpn, time, days, window, keys, any/not), "
          + "full moment: \(format2(1e6 / withMoment)) µs/decision (+\(format2(1e6 / withMoment - 1e6 / plain)) µs, same run)")
}

// Regex engines on the regex matcher's job: search a URL for a pattern.
let pattern = "^https://[a-z]+\\.r88\\.example/"
let subjects = corpus(rules: 1000)
let iterations = 200_000
if let pcre = try? PatternRegex(pattern) {
    var hits = 0
    var start = now()
    for i in 0..<iterations where pcre.matches(subjects[i % subjects.count]) { hits += 1 }
    let pcreTime = now() - start
    let swiftRegex = try Regex(pattern)
    start = now()
    var swiftHits = 0
    for i in 0..<(iterations / 20) where (try? swiftRegex.firstMatch(in: subjects[i % subjects.count])) != nil { swiftHits += 1 }
    let swiftTime = (now() - start) * 20
    print("regex: PCRE2 JIT \(format2(pcreTime / Double(iterations) * 1e9)) ns/match, Swift Regex \(format2(swiftTime / Double(iterations) * 1e9)) ns/match: PCRE2 is \(format1(swiftTime / pcreTime))× faster (hits \(hits), \(swiftHits))")
}

// Start-up: what the daemon loads before it serves its first click, a config of 1,000 rules and
// the ClearURLs catalogue, with patterns JIT-compiled on first use (now) and, for comparison in
// the same run, with every catalogue pattern JIT-compiled at load (as before).
func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let read = fread(&chunk, 1, chunk.count, file)
        if read <= 0 { break }
        bytes += chunk[0..<read]
    }
    return bytes
}
func readCatalogue() -> [UInt8]? {
    let root = String(#filePath.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropLast(3)
        .map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/"))
    return readFile(root + "/../shared/conformance/clearurls/data.min.json")
}
if let catalogue = readCatalogue() {
    let text = makeConfig(rules: 1_000)
    func loadTime(eager: Bool) -> Double {
        var times: [Double] = []
        for _ in 0..<15 {
            let start = now()
            guard var config = try? ConfigLoader.load(text: text, path: "bench.toml"),
                  let rules = try? ClearURLsRules(json: catalogue, compiling: eager ? .atLoad : .onFirstUse) else { fatalError("config or catalogue failed") }
            if eager { rules.jitCompileEveryPattern() }
            config.clearURLs = rules
            _ = RuleEngine(config: config)
            times.append(now() - start)
        }
        return times.sorted()[times.count / 2]
    }
    let lazy = loadTime(eager: false), eager = loadTime(eager: true)
    print("start-up: config (1,000 rules) + ClearURLs catalogue load: \(format2(lazy * 1000)) ms (patterns compiled on first use, as the daemon starts); "
          + "every catalogue pattern compiled and JIT-compiled at load, as before: \(format2(eager * 1000)) ms (median of 15, same run)")
} else {
    print("start-up: ../shared/conformance/clearurls/data.min.json not found; no start-up figure")
}

// Issue 33: every routed link is first asked whether it is an `openurl doctor` probe.
do {
    let links = ["https://www.example.com/a/b?utm_source=x", "http://intranet.corp/x", "mailto:someone@example.org?subject=Hi",
                 "https://openurld.invalid.example.org/probe/x"]
    let rounds = 200_000
    var found = 0
    let seconds = bestTime(runs: 5) {
        for index in 0..<rounds where ProbeLink.token(in: links[index & 3]) != nil { found += 1 }
    }
    var long = 0
    let loop = bestTime(runs: 5) {
        for index in 0..<rounds where links[index & 3].utf8.count > 4096 { long += 1 }
    }
    print("probe check (openurl doctor) per routed link, not a probe: \(format2(seconds / Double(rounds) * 1e9)) ns, "
          + "of which the loop and the link's read \(format2(loop / Double(rounds) * 1e9)) ns (\(found + long) false positives)")
}

// Site lists: an Enterprise Mode v.2 list of 10,000 sites read from its XML (parse, patterns,
// host index) and a 1,000-rule config deciding with the list as a rule (first, as a system
// list would be) against the same config without it.
func siteListXML(sites: Int) -> String {
    var text = "<site-list version=\"1\">\n"
    for i in 0..<sites {
        let openIn = i % 10 == 0 ? "MSEdge" : (i % 25 == 0 ? "None" : "IE11")
        text += "  <site url=\"app\(i).legacy\(i % 97).example\(i % 3 == 0 ? "/path\(i)" : "")\">\n    <compat-mode>IE8Enterprise</compat-mode>\n    <open-in>\(openIn)</open-in>\n  </site>\n"
    }
    return text + "</site-list>\n"
}
let xml = Array(siteListXML(sites: 10_000).utf8)
var parseTimes: [Double] = []
var parsed = SiteList.empty(.emieV2)
for _ in 0..<7 {
    let start = now()
    guard let list = try? SiteList.parse(xml, format: .emieV2) else { fatalError("site list failed") }
    parsed = list
    parseTimes.append(now() - start)
}
parseTimes.sort()
print("site list: 10,000-site Enterprise Mode v.2 list (\(xml.count / 1024) KiB): read in \(format2(parseTimes[3] * 1000)) ms (median of 7), \(parsed.entries.count) entries")
/// Decisions per second over `urls` (the best of ten 0.1-s windows), each with `context`.
func rate(_ engine: RuleEngine, _ urls: [String], context: LinkContext? = nil) -> Double {
    var sink = 0
    let best = bestRate(perRound: urls.count) {
        for url in urls {
            if let decision = try? engine.decide(url, context: context) { sink &+= decision.safety.verdict.name.utf8.count }
        }
    }
    if sink == 42 { print("") }
    return best
}
do {
    // A config that fails stops the run (this row was once left out without a word).
    guard var withList = try? ConfigLoader.load(text: "[[sitelist]]\npath = \"sites.xml\"\nformat = \"emie-v2\"\nopen = \"work\"\n" + makeConfig(rules: 1_000), path: "bench.toml"),
          let without = try? ConfigLoader.load(text: makeConfig(rules: 1_000), path: "bench.toml") else { fatalError("the site-list config does not load") }
    withList.siteLists[0].list = parsed
    let listed = RuleEngine(config: withList.finishingLayers()), plain = RuleEngine(config: without)
    let urls = corpus(rules: 1_000) + (0..<200).map { "https://app\($0 * 7).legacy\(($0 * 7) % 97).example/x" }
    let plainRate = rate(plain, urls), listedRate = rate(listed, urls)
    print("site list: 1,000 rules \(format2(1e6 / plainRate)) µs/decision; with the 10,000-site list as the first rule \(format2(1e6 / listedRate)) µs/decision")
}

// Link safety per decision (issue 23), same run: 1,000 rules with hygiene, the verdict off,
// on without block lists (the rules' domains as known domains), on with Debian's uBlock lists
// (webext-ublock-origin-firefox, read before timing; their first-use load shown apart), and
// with link text on every link.
func isFile(_ path: String) -> Bool { access(path, R_OK) == 0 }
do {
    let suffixes = readFile(PublicSuffixList.debianPath)
    let found = BlockListDiscovery.auto(isFile: isFile)
    func engine(_ settings: String, lists: Bool) -> (RuleEngine, Double) {
        guard var config = try? ConfigLoader.load(text: settings + "\n" + makeConfig(rules: 1_000), path: "bench.toml") else { fatalError("config failed") }
        config.publicSuffixes = suffixes.map { SuffixIndex(text: $0) }
        config.blockLists = lists ? found.map { location in BlockList(path: location.path, name: location.name) { readFile(location.path) } } : []
        let engine = RuleEngine(config: config)
        let start = now()
        engine.safety.prepare()
        return (engine, now() - start)
    }
    let urls = corpus(rules: 1_000)
    func safetyRate(_ engine: RuleEngine, linkText: String?) -> Double {
        rate(engine, urls, context: linkText.map { LinkContext(linkText: $0) })
    }
    print("\nlink safety per decision (1,000 rules, hygiene on; lists: \(found.isEmpty ? "none installed: apt-get install webext-ublock-origin-firefox" : found.map(\.name).joined(separator: ", ")))")
    print("verdict                                  | decisions/s | µs/decision | + µs vs off")
    let (off, _) = engine("[settings]\nsafety = \"off\"", lists: false)
    let offRate = safetyRate(off, linkText: nil)
    let (plain, _) = engine("", lists: false)
    let (listed, loadSeconds) = engine("", lists: true)
    let rows: [(String, Double)] = [
        ("off (safety = \"off\")", offRate),
        ("on, no lists (\(plain.safety.knownDomains.count) known domains)", safetyRate(plain, linkText: nil)),
        ("on, with the Debian lists", safetyRate(listed, linkText: nil)),
        ("on, with the lists and link text", safetyRate(listed, linkText: "example.com")),
    ]
    let pad = { (s: String, n: Int) in s + String(repeating: " ", count: max(0, n - s.count)) }
    for (label, value) in rows {
        print(pad(label, 41) + "| " + pad("\(Int(value))", 12) + "| " + pad(format2(1e6 / value), 12) + "| " + format2(1e6 / value - 1e6 / offRate))
    }
    print("the lists' first use (read, parse, index, and the suffix list's index), off the click path at load: \(format2(loadSeconds * 1000)) ms")
}

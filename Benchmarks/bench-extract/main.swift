// bench-extract: LinkExtractor's speed on a deterministic ~10 MB corpus of chat logs, mail,
// Markdown, code and prose, beside linkify-it-py (the Python port of linkify-it) on the same
// corpus in the same run, plus hostile 1 MB inputs timed against a normal 1 MB.
//
//   swift build -c release --product bench-extract && .build/release/bench-extract
import BenchSupport
import Foundation
import LinkExtraction

/// SplitMix64: the corpus must be identical on every run and machine.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// Builds text that looks like what people paste: links at realistic density among words.
struct CorpusGenerator {
    var random = SplitMix64(state: 20_260_401)
    let words = ("the a to of and in is it you that was for on are with as I his they be at one have this "
        + "from or had by hot word but what some we can out other were all there when up use your how said "
        + "an each she which do their time if will way about many then them write would like so these her long "
        + "make thing see him two has look more day could go come did number sound no most people my over "
        + "café naïve 日本語 テスト привет мир 😀 👍 e.g. i.e. etc. v1.2.3 node.js file.txt 3.14 10:30 a/b").split(separator: " ").map(String.init)
    let hosts = ["github.com", "example.com", "docs.swift.org", "en.wikipedia.org", "news.ycombinator.com",
                 "www.youtube.com", "zoom.us", "mail.google.com", "stackoverflow.com", "bücher.de", "t.co",
                 "intranet.corp.example.org", "192.168.1.10", "localhost:8080", "example.co.uk", "пример.рф"]
    let paths = ["", "/", "/docs", "/wiki/Swift_(programming_language)", "/watch?v=dQw4w9WgXcQ&t=42s",
                 "/j/81234567890?pwd=abcDEF", "/org/repo/pull/123#issuecomment-42", "/search?q=link+extract",
                 "/a/b/c.html", "/questions/1234/how-do-i", "/path/with.dots/and-dashes_", "/ü/ñ"]

    mutating func word() -> String { random.pick(words) }

    mutating func sentence(_ count: Int) -> String {
        (0..<count).map { _ in word() }.joined(separator: " ")
    }

    mutating func url() -> String {
        let host = random.pick(hosts)
        let path = random.pick(paths)
        if host.hasPrefix("localhost") { return "http://" + host + path }
        switch random.below(10) {
        case 0...5: return "https://" + host + path
        case 6: return "http://" + host + path
        case 7: return host + path
        case 8: return "www." + host.split(separator: ".").suffix(2).joined(separator: ".") + path
        default: return "//" + host + path
        }
    }

    mutating func email() -> String {
        random.pick(["alice", "bob.smith", "c+tag", "support", "no-reply"]) + "@"
            + random.pick(["example.com", "corp.example.org", "gmail.com", "mail.example.co.uk"])
    }

    mutating func chatLine() -> String {
        let who = random.pick(["alice", "bob", "carol", "dave"])
        let time = String(format: "%02d:%02d", random.below(24), random.below(60))
        var line = "[\(time)] <\(who)> " + sentence(3 + random.below(12))
        if random.chance(20) { line += " " + url() + random.pick(["", ".", "!", " :)", ")", "?"]) }
        if random.chance(3) { line += " ping " + email() }
        return line
    }

    mutating func mail() -> String {
        var lines = ["From: Bob Smith <\(email())>", "To: \(email())", "Subject: Re: " + sentence(4), ""]
        for _ in 0..<(4 + random.below(8)) {
            var line = sentence(8 + random.below(10))
            if random.chance(15) { line += " (" + url() + ")" }
            lines.append(line)
        }
        lines += ["", "-- ", "Bob Smith | \(email()) | https://example.com", ""]
        return lines.joined(separator: "\n")
    }

    mutating func markdown() -> String {
        var lines = ["## " + sentence(4), ""]
        for _ in 0..<(3 + random.below(6)) {
            switch random.below(5) {
            case 0: lines.append("- [" + sentence(3) + "](" + url() + ") " + sentence(5))
            case 1: lines.append("See <" + url() + "> for " + sentence(6) + ".")
            case 2: lines.append("> " + sentence(10))
            case 3: lines.append("![img](https://example.com/img/\(random.below(999)).png \"pic\")")
            default: lines.append(sentence(12) + " **" + word() + "** " + sentence(6))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    mutating func code() -> String {
        var lines = ["func handle\(random.below(1000))(request: Request) -> Response {"]
        for _ in 0..<(4 + random.below(8)) {
            switch random.below(6) {
            case 0: lines.append("    // See " + url() + " for details")
            case 1: lines.append("    let endpoint = \"http://localhost:\(8000 + random.below(100))/api/v1/items\"")
            case 2: lines.append("    let value = self.config.items[index].name.lowercased()")
            case 3: lines.append("    if a.count > 10 && b.isEmpty { return .notFound(\"/missing\") }")
            case 4: lines.append("    log.info(\"user=\\(user.id) ip=10.0.\(random.below(255)).\(random.below(255))\")")
            default: lines.append("    try await client.send(Message(text: \"" + sentence(5) + "\"))")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    mutating func corpus(bytes target: Int) -> String {
        var parts: [String] = []
        var size = 0
        while size < target {
            let part: String
            switch random.below(10) {
            case 0...3: part = (0..<20).map { _ in chatLine() }.joined(separator: "\n") + "\n"
            case 4...5: part = mail()
            case 6...7: part = markdown()
            case 8: part = code()
            default: part = (0..<6).map { _ in sentence(15) + "." }.joined(separator: " ") + "\n\n"
            }
            parts.append(part)
            size += part.utf8.count
        }
        return parts.joined()
    }
}

/// linkify-it-py's figures on the same file, or why there are none.
enum PeerResult {
    case measured(seconds: Double, links: [String])
    case unavailable(String)
}

let peerScript = """
import json, sys, time
try:
    from linkify_it import LinkifyIt
except ImportError:
    print(json.dumps({"missing": True})); sys.exit(0)
text = open(sys.argv[1], encoding="utf-8").read()
linkify = LinkifyIt(options={"fuzzy_ip": True})
linkify.match(text[:20000])
start = time.perf_counter()
matches = linkify.match(text) or []
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "links": [m.raw for m in matches]}))
"""

/// Runs linkify-it-py on `path` through python3 (argv, no shell).
func runPeer(corpusPath: String) -> PeerResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", peerScript, corpusPath]
    let output = Pipe()
    process.standardOutput = output
    do { try process.run() } catch { return .unavailable("python3 could not be started: \(error)") }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        return .unavailable("python3 failed (status \(process.terminationStatus))")
    }
    if object["missing"] != nil { return .unavailable("linkify-it-py is not installed: pip install linkify-it-py") }
    guard let seconds = object["seconds"] as? Double, let links = object["links"] as? [String] else {
        return .unavailable("unexpected output from python3")
    }
    return .measured(seconds: seconds, links: links)
}

/// How many items the two lists share, counting repeats.
func commonCount(_ a: [String], _ b: [String]) -> Int {
    var counts: [String: Int] = [:]
    for item in a { counts[item, default: 0] += 1 }
    var common = 0
    for item in b where counts[item, default: 0] > 0 {
        counts[item, default: 0] -= 1
        common += 1
    }
    return common
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

func figure(_ value: Double, _ decimals: Int = 1) -> String { fixed(value, decimals) }

// MARK: - Run

var generator = CorpusGenerator()
let corpus = generator.corpus(bytes: 10 * 1_000_000)
let megabytes = Double(corpus.utf8.count) / 1e6
print("corpus: \(figure(megabytes, 2)) MB (chat, mail, Markdown, code, prose; deterministic)")

var ours: [ExtractedLink] = []
let ourSeconds = bestTime(runs: 5) { ours = LinkExtractor.extract(from: corpus) }

let corpusURL = FileManager.default.temporaryDirectory.appendingPathComponent("bench-extract-\(getpid()).txt")
let peer: PeerResult
do {
    try corpus.write(to: corpusURL, atomically: true, encoding: .utf8)
    peer = runPeer(corpusPath: corpusURL.path)
} catch {
    peer = .unavailable("could not write the corpus: \(error)")
}
try? FileManager.default.removeItem(at: corpusURL)

print("")
print(pad("extractor", 34) + pad("seconds", 10) + pad("MB/s", 10) + "links")
print(pad("openurld LinkExtractor (Swift)", 34) + pad(figure(ourSeconds, 3), 10)
      + pad(figure(megabytes / ourSeconds), 10) + "\(ours.count)")
switch peer {
case .measured(let seconds, let links):
    print(pad("linkify-it-py (Python)", 34) + pad(figure(seconds, 3), 10)
          + pad(figure(megabytes / seconds), 10) + "\(links.count)")
    print("ratio: LinkExtractor is \(figure(seconds / ourSeconds))x faster than linkify-it-py")
    let common = commonCount(ours.map(\.text), links)
    print("same link texts: \(common) of \(links.count) linkify-it-py links (\(figure(100 * Double(common) / Double(max(links.count, 1))))%)")
case .unavailable(let reason):
    print("linkify-it-py: no figures (\(reason))")
}

// Hostile inputs: each unit repeated to 1 MB, timed against a normal 1 MB slice of the corpus.
let normal = String(decoding: Array(corpus.utf8.prefix(1_000_000)), as: UTF8.self)
let normalSeconds = bestTime(runs: 5) { _ = LinkExtractor.extract(from: normal) }
print("")
print("worst cases (1 MB each, relative to a normal 1 MB at \(figure(normalSeconds * 1000, 2)) ms; goal <= 10x):")
let hostileUnits = [".", "(", ")", "[", "@", ":", "/", "\"", "'a", "a.", "a-", "a@", "x@a.", "a:", "mailto:",
                    "http://", "a.com/(", "a.com/[", "((((a.com/", "a.com/'", "a.com/..", "\0", "\n", "é.", "😀"]
var worstRatio = 0.0
for unit in hostileUnits {
    let input = String(repeating: unit, count: 1_000_000 / unit.utf8.count)
    var links = 0
    let seconds = bestTime(runs: 3) { links = LinkExtractor.extract(from: input).count }
    worstRatio = max(worstRatio, seconds / normalSeconds)
    print("  " + pad(unit.debugDescription, 14) + pad(figure(seconds * 1000, 2) + " ms", 12)
          + pad(figure(seconds / normalSeconds, 2) + "x", 9) + "\(links) links")
}
print("worst ratio: \(figure(worstRatio, 2))x")

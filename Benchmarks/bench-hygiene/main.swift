// bench-hygiene: URL hygiene (unwrap + clean + the full ClearURLs rule file) per URL, the rule
// file's load time, and the independent Python implementation (url-unwrap) on the same corpus,
// side by side from the same run.
//
//     swift build -c release --product bench-hygiene && .build/release/bench-hygiene
import BenchSupport
import Foundation
import Hygiene

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let rulesPath = packageRoot.appendingPathComponent("../shared/conformance/clearurls/data.min.json").standardized.path
let scriptPath = packageRoot.appendingPathComponent("Tests/HygieneCorpus/clearurls_corpus.py").path

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("bench-hygiene: " + message + "\n").utf8))
    exit(1)
}


guard let ruleData = FileManager.default.contents(atPath: rulesPath) else { fail("missing \(rulesPath)") }
let ruleBytes = [UInt8](ruleData)

// 1. Load time of the full rule file (JSON parse, compile every pattern, build the index).
// OPENURL_BENCH_PROFILE=N (with `--corpus FILE`): load once, apply hygiene to N URLs and stop (for
// callgrind). OPENURL_BENCH_DUMP=FILE (with `--corpus FILE`): write every URL's result to FILE
// and stop, to compare two builds byte for byte.
let profileCount = getenv("OPENURL_BENCH_PROFILE").flatMap { Int(String(cString: $0)) }
let dumpPath = getenv("OPENURL_BENCH_DUMP").map { String(cString: $0) }
var loadTimes: [Double] = []
var loaded: ClearURLsRules?
for _ in 0..<(profileCount != nil || dumpPath != nil ? 1 : 15) {
    let start = nanoseconds()
    do { loaded = try ClearURLsRules(json: ruleBytes, compiling: .onFirstUse) } catch { fail("\(error)") }
    loadTimes.append(Double(nanoseconds() - start) / 1e6)
}
guard let rules = loaded else { fail("rules did not load") }
// The checking path (`openurl check`, reloads): every pattern compiled at load, no JIT.
var checkedLoadTimes: [Double] = []
for _ in 0..<(profileCount != nil || dumpPath != nil ? 0 : 15) {
    let start = nanoseconds()
    guard (try? ClearURLsRules(json: ruleBytes)) != nil else { fail("rules did not load") }
    checkedLoadTimes.append(Double(nanoseconds() - start) / 1e6)
}
// The old eager path for comparison: load, then JIT-compile every pattern.
var eagerLoadTimes: [Double] = []
for _ in 0..<(profileCount != nil || dumpPath != nil ? 0 : 15) {
    let start = nanoseconds()
    guard let eager = try? ClearURLsRules(json: ruleBytes) else { fail("rules did not load") }
    eager.jitCompileEveryPattern()
    eagerLoadTimes.append(Double(nanoseconds() - start) / 1e6)
}

// 2. The corpus and the Python implementation's timing, from a child process (argv, no shell).
struct Entry: Decodable { var url: String; var out: String }
struct Report: Decodable { var corpus: [Entry]; var median_us: Double? }
// `--corpus FILE` reads a saved report instead (for profiling ours alone).
func loadReport() -> Report {
    let arguments = CommandLine.arguments
    if let flag = arguments.firstIndex(of: "--corpus"), flag + 1 < arguments.count {
        guard let data = FileManager.default.contents(atPath: arguments[flag + 1]),
              let report = try? JSONDecoder().decode(Report.self, from: data) else { fail("cannot read \(arguments[flag + 1])") }
        return report
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", scriptPath, "--rules", rulesPath, "--count", "3000", "--seed", "1", "--timing"]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { fail("cannot run python3: \(error)") }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { fail("python3 \(scriptPath) exited \(process.terminationStatus) (pip install url-unwrap)") }
    guard let report = try? JSONDecoder().decode(Report.self, from: output) else { fail("could not read the corpus report") }
    return report
}
let report = loadReport()
let pythonMedian = report.median_us ?? .nan
let urls = report.corpus.map(\.url)

if let n = profileCount {
    let hygiene = URLHygiene(unwrap: true, clean: true, clearURLs: rules)
    var sink = 0
    for i in 0..<n { sink &+= hygiene.apply(to: urls[i % urls.count]).url.utf8.count }
    print(sink)
    exit(0)
}
if let dumpPath {
    var lines: [String] = []
    for (name, hygiene) in [("full", URLHygiene(unwrap: true, clean: true, clearURLs: rules)),
                            ("unwrap-only", URLHygiene(unwrap: true, clean: false, clearURLs: rules)),
                            ("clean-only", URLHygiene(unwrap: false, clean: true, clearURLs: rules)),
                            ("built-in", URLHygiene(unwrap: true, clean: true))] {
        for url in urls { lines.append("\(name)\t\(url)\t\(hygiene.apply(to: url))") }
    }
    for url in urls { lines.append("engine\t\(url)\t\(rules.apply(to: url))") }
    _ = FileManager.default.createFile(atPath: dumpPath, contents: Data(lines.joined(separator: "\n").utf8))
    exit(0)
}

// 3. Ours, per URL, on the same corpus: the median over URLs of each URL's best of 5 runs.
func measure(_ body: (String) -> Int) -> Double {
    var best = [Double](repeating: .infinity, count: urls.count)
    var sink = 0
    for _ in 0..<5 {
        for (i, url) in urls.enumerated() {
            let start = nanoseconds()
            sink &+= body(url)
            let elapsed = Double(nanoseconds() - start) / 1e3
            if elapsed < best[i] { best[i] = elapsed }
        }
    }
    if sink == 42 { print("") }
    return median(best)
}
let hygiene = URLHygiene(unwrap: true, clean: true, clearURLs: rules)
let fullMedian = measure { hygiene.apply(to: $0).url.utf8.count }
let clearURLsMedian = measure { rules.apply(to: $0).url.utf8.count }
let builtInOnly = URLHygiene(unwrap: true, clean: true)
let builtInMedian = measure { builtInOnly.apply(to: $0).url.utf8.count }

print("bench-hygiene: \(urls.count) URLs, \(rules.providers.count) ClearURLs providers (\(rules.indexedProviderCount) indexed by a host literal)")
print(String(format: "  ClearURLs load (data.min.json, %d bytes): median %.2f ms, patterns compiled and JIT-compiled on first use (goal <= 30 ms)", ruleBytes.count, median(loadTimes)))
print(String(format: "  ClearURLs load, every pattern compiled at load (openurl check, reloads): median %.2f ms", median(checkedLoadTimes)))
print(String(format: "  ClearURLs load, every pattern JIT-compiled at load (as before): median %.2f ms", median(eagerLoadTimes)))
print(String(format: "  ours, unwrap + clean + ClearURLs: median %.2f us/URL (goal <= 2 us)", fullMedian))
print(String(format: "  ours, ClearURLs engine only:      median %.2f us/URL", clearURLsMedian))
print(String(format: "  ours, built-in unwrap + clean:    median %.2f us/URL", builtInMedian))
print(String(format: "  url-unwrap 0.1.1 (Python):        median %.2f us/URL", pythonMedian))
print(String(format: "  ratio url-unwrap / ours (full):   %.0fx (goal >= 50x)", pythonMedian / fullMedian))

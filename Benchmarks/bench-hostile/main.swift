// Hostile-input benchmark: how the bounded parsers grow with their input, up to and past each
// limit (issue 14's directed stress cases; before the bounds a 1 MB xn-- label took 23-33 s,
// 600,000 rules 100 s). Run in release mode:
//   swift build -c release --product bench-hostile && .build/release/bench-hostile
import BenchSupport
import Foundation
#if canImport(Glibc)
import Glibc
import URLModel
import ConfigLanguage
#endif

/// Best of `runs`, in milliseconds.
func time(runs: Int = 5, _ body: () -> Void) -> Double { bestTime(runs: runs, body) * 1000 }

func row(_ label: String, _ ms: Double, _ note: String) {
    print(label.padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: "%10.3f ms  ", ms) + note)
}

print("URL hosts (refused past 1,024 decoded bytes / 253 in ASCII form)")
for size in [63, 253, 1024, 64 * 1024, 1 << 20, 2 << 20] {
    let url = "https://" + String(repeating: "\u{FC}", count: size / 2) + ".de/"
    var outcome = ""
    let ms = time { outcome = (try? ParsedURL(url)) == nil ? "refused" : "parsed" }
    row("  host of \(size) bytes (ü…)", ms, outcome)
}
for size in [63, 1024, 64 * 1024, 1 << 20] {
    let url = "https://xn--" + String(repeating: "a", count: size) + "-9a.org/"
    var outcome = ""
    let ms = time { outcome = (try? ParsedURL(url)) == nil ? "refused" : "parsed" }
    row("  xn-- label of \(size) bytes", ms, outcome)
}

print("Punycode (refused past \(Punycode.maximumInput))")
for size in [63, 256, 1024, 1 << 20] {
    let label = String(String.UnicodeScalarView((0..<size).compactMap { Unicode.Scalar(0x100 + $0 % 60000) }))
    var encoded: String?
    let ms = time { encoded = Punycode.encode(label) }
    row("  encode \(size) distinct-ish code points", ms, encoded == nil ? "refused" : "\(encoded?.utf8.count ?? 0) bytes")
}

print("Config loading (refused past \(ConfigLoader.maximumBytes) bytes or \(ConfigLoader.maximumRules) rules)")
for rules in [1_000, 2_000, 5_000, 10_000, 600_000] {
    let text = String(repeating: "[[rules]]\nmatch.domain = \"x.org\"\ndiscard = true\n", count: rules)
    var outcome = ""
    let ms = time(runs: rules > 10_000 ? 1 : 3) {
        do { _ = try ConfigLoader.load(text: text, path: "c.toml"); outcome = "loaded" } catch { outcome = "refused" }
    }
    row("  \(rules) rules (\(text.utf8.count / 1024) KiB)", ms, outcome)
}
for parts in [64, 65, 50_000] {
    let text = Array(repeating: "a", count: parts).joined(separator: ".") + " = 1\n"
    var outcome = ""
    let ms = time { do { _ = try ConfigLoader.load(text: text, path: "c.toml"); outcome = "loaded" } catch { outcome = "\(error)".contains("dotted") ? "refused (depth)" : "other error" } }
    row("  key of \(parts) dotted parts", ms, outcome)
}

// bench-routing, bench-hygiene and bench-gio, run from the same build in the same run; their
// printed lines are echoed and the figures issues 15 and 32 name are picked out of them. The parsing looks for
// the row or label, not for a column position, so extra lines (start-up figures) do not break it.
import Foundation
import TestSupport

struct EngineFigures {
    var decisionsPerSecond: Double?
    var rulesOnlyDecisionsPerSecond: Double?
    var hygieneMicroseconds: Double?
    var urlUnwrapMicroseconds: Double?
    /// bench-routing's safety table: default safety with Debian's uBlock lists, and with link text too.
    var listsDecisionsPerSecond: Double?
    var linkTextDecisionsPerSecond: Double?
    /// bench-gio's warm clicks until the link arrives: D-Bus activation (A) and `Exec=openurl %u` (B).
    var gioActivationMilliseconds: Double?
    var gioExecMilliseconds: Double?
}

func runEngineBenchmarks(products: String) -> EngineFigures {
    var figures = EngineFigures()
    if let output = runBenchmark(products + "/bench-routing") {
        figures.decisionsPerSecond = decisionsPerSecond(atThousandRules: output)
        figures.rulesOnlyDecisionsPerSecond = decisionsPerSecond(atThousandRules: output, section: "rules only")
        figures.listsDecisionsPerSecond = firstNumber(afterLabel: "on, with the Debian lists", in: output)
        figures.linkTextDecisionsPerSecond = firstNumber(afterLabel: "on, with the lists and link text", in: output)
    }
    if let output = runBenchmark(products + "/bench-hygiene") {
        figures.hygieneMicroseconds = microseconds(onLineWith: "unwrap + clean + ClearURLs", in: output)
        figures.urlUnwrapMicroseconds = microseconds(onLineWith: "url-unwrap", in: output)
    }
    if let output = runBenchmark(products + "/bench-gio", arguments: ["20"]) {
        figures.gioActivationMilliseconds = milliseconds(after: "link arrives", onLineWith: "A. DBusActivatable (Application.Open)", in: output)
        figures.gioExecMilliseconds = milliseconds(after: "link arrives", onLineWith: "B. Exec=openurl %u (spawned)", in: output)
    }
    return figures
}

private func runBenchmark(_ path: String, arguments: [String] = []) -> String? {
    print("\n--- \((path as NSString).lastPathComponent) ---")
    guard FileManager.default.isExecutableFile(atPath: path) else {
        print("  not built: \(path) (swift build -c release --product \((path as NSString).lastPathComponent))")
        return nil
    }
    guard let result = try? Command.run([path] + arguments, timeout: 900), result.status == 0 else {
        print("  failed to run \(path)")
        return nil
    }
    print(result.stdout, terminator: "")
    return result.stdout
}

/// The decisions/s of the 1,000-rule row in the table headed `section` ("with URL hygiene", the
/// default settings, unless told), or of the first 1,000-rule row when no table says so.
func decisionsPerSecond(atThousandRules output: String, section: String = "with url hygiene") -> Double? {
    let lines = output.split(separator: "\n").map(String.init)
    let sectionStart = lines.firstIndex { $0.lowercased().contains(section) } ?? 0
    // The rate is the column headed "decisions/s" in the header nearest above the row (the
    // safety table's header, further down, has it second: taking the last header anywhere read
    // the load time as the rate); without a header, the third column.
    var column = 2
    for line in lines[sectionStart...] + lines[..<sectionStart] {
        let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        if let headed = cells.firstIndex(where: { $0 == "decisions/s" }) {
            column = headed
            continue
        }
        guard cells.count >= 3, cells[0].replacingOccurrences(of: ",", with: "") == "1000", column < cells.count else { continue }
        return Double(cells[column].filter { $0.isNumber || $0 == "." })
    }
    return nil
}

/// The number before "us/URL" (or "µs/URL") on the first line containing `label`.
func microseconds(onLineWith label: String, in output: String) -> Double? {
    for line in output.split(separator: "\n") where line.contains(label) {
        guard let unit = line.range(of: "us/URL") ?? line.range(of: "µs/URL") else { continue }
        let before = line[..<unit.lowerBound].trimmingCharacters(in: .whitespaces)
        let number = before.reversed().prefix { $0.isNumber || $0 == "." }
        return Double(String(number.reversed()))
    }
    return nil
}

/// The first number in the `|`-separated cell after the cell that starts with `label` (a row
/// of bench-routing's safety table: "label | decisions/s | …").
func firstNumber(afterLabel label: String, in output: String) -> Double? {
    for line in output.split(separator: "\n") where line.hasPrefix(label) {
        let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard cells.count >= 2 else { continue }
        return Double(cells[1].filter { $0.isNumber || $0 == "." })
    }
    return nil
}

/// The number before "ms" that follows `marker` on the first line containing `label`.
func milliseconds(after marker: String, onLineWith label: String, in output: String) -> Double? {
    for line in output.split(separator: "\n") where line.contains(label) {
        guard let start = line.range(of: marker) else { continue }
        let number = line[start.upperBound...].drop { $0 == " " }.prefix { $0.isNumber || $0 == "." }
        return Double(String(number))
    }
    return nil
}

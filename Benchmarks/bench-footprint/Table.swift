// The summary table: one row per figure of issues 15 and 32, with the peer or ratio, the figure
// of one day before issue 32 (from that run, recorded here and in README) and the goal beside it.
struct Row {
    var figure: String
    var measured: String
    var peer: String = "—"
    /// Issue 32's "one day earlier" figure (main before link safety, the moment, system layers and persisted questions).
    var earlier: String = "—"
    var goal: String = "—"
    /// nil when the row has no goal (shown for reading, not judged).
    var met: Bool? = nil
}

func printTable(_ rows: [Row]) {
    let header = Row(figure: "figure", measured: "measured", peer: "peer/ratio", earlier: "one day earlier", goal: "goal", met: nil)
    func cells(_ row: Row) -> [String] { [row.figure, row.measured, row.peer, row.earlier, row.goal, row.met.map { $0 ? "yes" : "NO" } ?? "—"] }
    var widths = cells(header).map(\.count)
    for row in rows { for (i, cell) in cells(row).enumerated() { widths[i] = max(widths[i], cell.count) } }
    func line(_ values: [String]) -> String {
        "| " + values.enumerated().map { $0.element + String(repeating: " ", count: widths[$0.offset] - $0.element.count) }.joined(separator: " | ") + " |"
    }
    print(line(cells(header).dropLast() + ["met"]))
    print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
    for row in rows { print(line(cells(row))) }
}

/// A whole number with thousands separators ("252,965"), as the issues write them.
func grouped(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var out = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { out += "," }
        out.append(digit)
    }
    return out
}

// The summary table: one row per figure of issue 15, with the peer or ratio and the goal beside it.
struct Row {
    var figure: String
    var measured: String
    var peer: String = "—"
    var goal: String = "—"
    /// nil when the row has no goal (shown for reading, not judged).
    var met: Bool? = nil
}

func printTable(_ rows: [Row]) {
    let header = Row(figure: "figure", measured: "measured", peer: "peer/ratio", goal: "goal", met: nil)
    func cells(_ row: Row) -> [String] { [row.figure, row.measured, row.peer, row.goal, row.met.map { $0 ? "yes" : "NO" } ?? "—"] }
    var widths = cells(header).map(\.count)
    for row in rows { for (i, cell) in cells(row).enumerated() { widths[i] = max(widths[i], cell.count) } }
    func line(_ values: [String]) -> String {
        "| " + values.enumerated().map { $0.element + String(repeating: " ", count: widths[$0.offset] - $0.element.count) }.joined(separator: " | ") + " |"
    }
    print(line(["figure", "measured", "peer/ratio", "goal", "met"]))
    print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
    for row in rows { print(line(cells(row))) }
}

import JSON
import Platform
import RouterContract

/// How `openurl recent` shows the daemon's recent links: JSON lines or a table.
extension RecentLink {
    /// One JSON object; empty strings become null so scripts can tell "none" from a name.
    var json: JSONValue {
        let optional = { (text: String) -> JSONValue in text.isEmpty ? .null : .string(text) }
        return .object([
            ("id", .number(Int(id))), ("time", .string(CalendarTime.utc(seconds: time).iso8601)), ("unix_time", .number(Int(time))),
            ("url", .string(url)), ("final_url", .string(finalURL)), ("decision", .string(decision)),
            ("target", optional(target)), ("rule", optional(rule)), ("opener", optional(opener)), ("outcome", .string(outcome)),
        ])
    }

    /// The columns of the human table: id, time, decision → target, rule, opener, outcome, URL.
    /// The time is local: "13:38:51" today (the day of `now`, seconds since the epoch), else
    /// "2026-11-30 09:12".
    func columns(now: Double) -> [String] {
        let local = CalendarTime.local(seconds: time)
        let when = local.isSameDay(as: CalendarTime.local(seconds: now)) ? local.timeText : local.dateText + " " + local.hourMinuteText
        return ["\(id)", when, Self.cut(target.isEmpty ? decision : "\(decision) → \(target)", to: 36), Self.cut(rule.isEmpty ? "(default)" : rule, to: 24),
                Self.cut(opener.isEmpty ? "-" : opener, to: 20), Self.cut(outcome, to: 40), finalURL]
    }

    /// `text` cut to `width` characters, ending in `…` when cut: a long outcome ("failed: could
    /// not open … with …") or rule name would push the URL far right. `--json` has every field whole.
    static func cut(_ text: String, to width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }

    /// Aligned columns under a header, newest first as the daemon sends them.
    static func table(_ links: [RecentLink], now: Double = WallClock.secondsSinceEpoch()) -> String {
        guard !links.isEmpty else { return "no links routed yet" }
        let rows = [["ID", "TIME", "DECISION", "RULE", "OPENER", "OUTCOME", "URL"]] + links.map { $0.columns(now: now) }
        var widths = [Int](repeating: 0, count: 7)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

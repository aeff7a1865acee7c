import DBus
import Foundation
import Routing
import JSON

/// One entry of the daemon's recent links, as `openurl recent` shows it.
struct RecentLink {
    let id: UInt32
    let time: Double
    let url: String
    let finalURL: String
    let decision: String
    let target: String
    let rule: String
    let opener: String
    let outcome: String

    init(_ item: [String: DBusValue]) {
        id = item["id"]?.uint32 ?? 0
        time = item["time"]?.double ?? 0
        url = item["url"]?.string ?? ""
        finalURL = item["final_url"]?.string ?? url
        decision = item["decision"]?.string ?? ""
        target = item["target"]?.string ?? ""
        rule = item["rule"]?.string ?? ""
        opener = item["opener"]?.string ?? ""
        outcome = item["outcome"]?.string ?? ""
    }

    /// One JSON object; empty strings become null so scripts can tell "none" from a name.
    var json: JSONValue {
        let optional = { (text: String) -> JSONValue in text.isEmpty ? .null : .string(text) }
        return .object([
            ("id", .number(Int(id))), ("time", .string(Self.isoFormatter.string(from: date))), ("unix_time", .number(Int(time))),
            ("url", .string(url)), ("final_url", .string(finalURL)), ("decision", .string(decision)),
            ("target", optional(target)), ("rule", optional(rule)), ("opener", optional(opener)), ("outcome", .string(outcome)),
        ])
    }

    var date: Date { Date(timeIntervalSince1970: time) }

    /// The columns of the human table: id, time, decision → target, rule, opener, outcome, URL.
    func columns(now: Date) -> [String] {
        let sameDay = Calendar.current.isDate(date, inSameDayAs: now)
        let when = (sameDay ? Self.timeFormatter : Self.dateTimeFormatter).string(from: date)
        return ["\(id)", when, target.isEmpty ? decision : "\(decision) → \(target)", rule.isEmpty ? "(default)" : rule,
                opener.isEmpty ? "-" : opener, outcome, finalURL]
    }

    /// Aligned columns under a header, newest first as the daemon sends them.
    static func table(_ links: [RecentLink], now: Date = Date()) -> String {
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

    private static let isoFormatter: ISO8601DateFormatter = ISO8601DateFormatter()
    private static let timeFormatter: DateFormatter = formatter("HH:mm:ss")
    private static let dateTimeFormatter: DateFormatter = formatter("yyyy-MM-dd HH:mm")

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = format
        return formatter
    }
}

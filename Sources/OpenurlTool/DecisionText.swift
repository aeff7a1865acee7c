import Routing

/// The human-readable explanation `openurl test` prints.
enum DecisionText {
    static func describe(_ decision: Decision) -> String {
        var lines: [String] = []
        lines.append("url:       \(decision.url)")
        if decision.finalURL != decision.url { lines.append("final url: \(decision.finalURL)") }
        var summary = "decision:  \(decision.kind.rawValue)"
        if let target = decision.target { summary += " → \(target)" }
        lines.append(summary)
        lines.append("rule:      \(decision.rule?.description ?? "none ([default])")")
        if let copyText = decision.copyText { lines.append("copy text: \(copyText)") }
        if decision.kind == .ask { lines.append("choices:   \(decision.choices.map(\.description).joined(separator: ", "))") }
        if let error = decision.error { lines.append("error:     \(error)") }
        lines.append("trace:")
        for step in decision.trace { lines.append("  \(step.text)") }
        return lines.joined(separator: "\n")
    }
}

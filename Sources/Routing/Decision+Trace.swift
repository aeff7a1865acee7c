import Hygiene
import RoutingCore

extension Array where Element == TraceStep {
    /// The URL of the last step that changed it.
    var lastURL: String? {
        for step in reversed() {
            switch step {
            case .changed(_, let url), .cleaned(_, let url): return url
            default: continue
            }
        }
        return nil
    }
}

extension HygieneStep {
    /// How `openurl test` names the step: `unwrapped (via google)`, `cleaned [utm_source]`.
    var summary: String {
        switch self {
        case .unwrapped(_, _, let via): return "unwrapped (via \(via))"
        case .cleaned(let removed): return TraceStep.cleanedSummary(removed)
        case .clearURLs(let provider, let removed): return "clearurls \(provider) [\(removed.joined(separator: ", "))]"
        case .blocked(let provider): return "blocked by \(provider)"
        }
    }

    /// The URL after the step, where the step says.
    package var url: String? {
        if case .unwrapped(_, let to, _) = self { return to }
        return nil
    }
}

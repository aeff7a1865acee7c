/// What became of a routed link.
public enum Outcome: Sendable, Equatable, CustomStringConvertible {
    /// Carried out.
    case done
    /// Only decided (`dry-run`).
    case decidedOnly
    /// The same URL was routed moments ago (`dedupe_ms`); nothing was done again.
    case duplicate
    /// Waiting for the user's choice.
    case asking
    /// The question was dismissed (Escape, window or notification closed, picker cancelled).
    case cancelled
    /// Nobody answered the question in time.
    case expired
    /// The daemon stopped (or was killed) while the question waited, and its time ran out
    /// before a daemon could ask again.
    case interrupted
    /// Could not be carried out, with why.
    case failed(String)
    /// A ClearURLs `completeProvider` blocked it (the user was told, with "Open anyway").
    case blocked(String)
    /// The safety policy held it, with what was found (the user was told, with "Open anyway").
    case held(String)
    /// The client gave up waiting before the daemon got to the call, and routed the link itself.
    case abandoned

    /// `done`, `dry-run`, `duplicate`, `asking`, `cancelled`, `expired`, `interrupted`,
    /// `failed: why`, `blocked by PROVIDER`, `held: why` or `abandoned`.
    public var description: String {
        switch self {
        case .done: return "done"
        case .decidedOnly: return "dry-run"
        case .duplicate: return "duplicate"
        case .asking: return "asking"
        case .cancelled: return "cancelled"
        case .expired: return "expired"
        case .interrupted: return "interrupted"
        case .failed(let why): return "failed: \(why)"
        case .blocked(let provider): return "blocked by \(provider)"
        case .held(let why): return "held: \(why)"
        case .abandoned: return "abandoned"
        }
    }
}

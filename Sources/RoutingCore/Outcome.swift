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
    /// An `openurl doctor` probe arrived (see `ProbeLink`): recorded, never launched.
    case probe
    /// A recorded outcome this version does not know (a line written by another version), kept
    /// as written so it reads back and is written again unchanged.
    case unknown(String)

    /// `done`, `dry-run`, `duplicate`, `asking`, `cancelled`, `expired`, `interrupted`,
    /// `failed: why`, `blocked by PROVIDER`, `held: why`, `abandoned` or `probe`.
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
        case .probe: return "probe"
        case .unknown(let text): return text
        }
    }

    /// The outcome `description` wrote (`recent.tsv`, `Recent`'s `outcome`): the one reader of
    /// that text, so `Outcome(recorded: o.description) == o` for every outcome, and any other
    /// text is `.unknown(text)`, written back byte for byte.
    public init(recorded text: String) {
        switch text {
        case "done": self = .done
        case "dry-run": self = .decidedOnly
        case "duplicate": self = .duplicate
        case "asking": self = .asking
        case "cancelled": self = .cancelled
        case "expired": self = .expired
        case "interrupted": self = .interrupted
        case "abandoned": self = .abandoned
        case "probe": self = .probe
        default:
            if let why = Self.rest(of: text, after: "failed: ") { self = .failed(why) }
            else if let provider = Self.rest(of: text, after: "blocked by ") { self = .blocked(provider) }
            else if let why = Self.rest(of: text, after: "held: ") { self = .held(why) }
            else { self = .unknown(text) }
        }
    }

    /// True while the question it records still waits for its answer.
    public var isAsking: Bool { self == .asking }

    private static func rest(of text: String, after prefix: String) -> String? {
        guard text.utf8.starts(with: prefix.utf8) else { return nil }
        return String(decoding: text.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
    }
}

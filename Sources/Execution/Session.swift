import DBus
import Platform
import Launching
import Routing

/// What the session running the executor has: the one value by which the daemon and embedded
/// mode differ. The daemon has a bus, a loop and stays to hear notification answers; embedded
/// mode (`openurl` without a daemon) may have a bus for notifications, has no loop, and exits
/// once the click is done.
public struct Session {
    /// The session bus, for notifications, D-Bus activation and Klipper; nil without one.
    public var bus: DBusConnection?
    /// The loop that answers arrive on; nil when nothing waits for them.
    public var loop: EventLoop?
    /// This process's environment: launched apps get it (plus a click's display variables).
    public var environment: [String: String]
    /// Where desktop entries, the takeover record and state files are.
    public var paths: XDGPaths
    /// True when this process stays to hear notification answers and to show a window (the daemon).
    public var staysForAnswers: Bool
    /// `-v`: tell the terminal what was done (embedded mode).
    public var verbose: Bool

    /// A session.
    public init(bus: DBusConnection?, loop: EventLoop?, environment: [String: String], paths: XDGPaths,
                staysForAnswers: Bool, verbose: Bool = false) {
        self.bus = bus
        self.loop = loop
        self.environment = environment
        self.paths = paths
        self.staysForAnswers = staysForAnswers
        self.verbose = verbose
    }
}

/// One click as it reached openurld: who sent it and with what.
public struct Click {
    /// The activation token, so the launched window is raised (only the first link of several has it).
    public var activationToken: String?
    /// The app the click came from, when known.
    public var opener: Opener?
    /// The click's display variables, for a process started without a display.
    public var environment: [String: String]
    /// `CLOCK_MONOTONIC` microseconds after which the client has routed the link itself.
    public var deadline: UInt64?
    /// Asked for again on purpose (`openurl reopen`): never a duplicate of the click it repeats.
    public var isRepeat: Bool
    /// When it reached openurld, in seconds since the epoch: `ask_timeout` counts from here.
    public var time: Double

    /// A click; `time` nil is now.
    public init(activationToken: String? = nil, opener: Opener? = nil, environment: [String: String] = [:], deadline: UInt64? = nil,
                isRepeat: Bool = false, time: Double? = nil) {
        self.activationToken = activationToken
        self.opener = opener
        self.environment = environment
        self.deadline = deadline
        self.isRepeat = isRepeat
        self.time = time ?? WallClock.secondsSinceEpoch()
    }
}

/// What became of a routed link.
public enum RouteOutcome: Sendable, Equatable, CustomStringConvertible {
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

/// A carried-out click: its id in the record (nil when nothing is recorded) and its outcome.
public struct CarriedOut: Equatable {
    /// The id `recent` and `reopen` know it by.
    public var id: UInt32?
    /// What became of it (for an ask, `asking` until answered).
    public var outcome: RouteOutcome
}

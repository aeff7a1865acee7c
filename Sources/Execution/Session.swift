import DBus
import Platform
import Launching
import RoutingCore

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
    /// The time clicks are judged at: duplicates, `ask_timeout`, a pending question's expiry.
    public var clock: Clock

    /// A session.
    public init(bus: DBusConnection?, loop: EventLoop?, environment: [String: String], paths: XDGPaths,
                staysForAnswers: Bool, verbose: Bool = false, clock: Clock = .system) {
        self.clock = clock
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
    /// When it reached openurld, in seconds since the epoch: what is recorded, and what a
    /// question's age is judged by across a restart (`ask_timeout` counts from here).
    public var time: Double
    /// When it reached openurld on the session's monotonic clock (`Clock.elapsed`), once the
    /// executor took it: every time limit while running counts from here, so a wall clock set
    /// back or forward moves none. Nil until then.
    public var arrived: Double?

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

    /// The click with `arrived` set, if it was not, from its wall time's age on `clock` (a wall
    /// time in the future, from before the clock was set back, is now): once, when it is taken.
    public func stamped(on clock: Clock) -> Click {
        guard arrived == nil else { return self }
        var click = self
        click.arrived = clock.elapsed() - clock.age(ofWallTime: time)
        return click
    }
}

/// A carried-out click: its id in the record (nil when nothing is recorded) and its outcome.
public struct CarriedOut: Equatable {
    /// The id `recent` and `reopen` know it by.
    public var id: UInt32?
    /// What became of it (for an ask, `asking` until answered).
    public var outcome: Outcome
}

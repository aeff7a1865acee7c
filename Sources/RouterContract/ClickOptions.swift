import CRouterContract
import DBus
import Platform

/// The time budget of one click handed to openurld: the client waits at most `clientTimeout`
/// for `Router1.Open` to answer and then routes the link itself; it tells the daemon, in the
/// `deadline` option, the moment after which it may already have done so. The daemon carries
/// out a call only before that moment, and the moment comes `margin` before the client gives up,
/// so a call the daemon accepts is answered while the client still waits: a link never opens
/// twice, and a stopped or deadlocked daemon costs a click at most `clientTimeout`.
public enum ClickDeadline {
    /// How long `openurl` waits for the daemon, in seconds (documented in README.md).
    public static let clientTimeout = Double(OPENURL_CLIENT_TIMEOUT_MS) / 1000
    /// How much earlier than the client's timeout the daemon stops accepting the call.
    public static let margin = Double(OPENURL_DEADLINE_MARGIN_MS) / 1000
    /// The `Open` option carrying the deadline: microseconds on `CLOCK_MONOTONIC` (type `t`).
    public static let optionKey = Router1.Option.deadline

    /// Now on `CLOCK_MONOTONIC`, in microseconds (shared by every process of the machine and
    /// unaffected by changes to the wall clock).
    public static func now() -> UInt64 {
        UInt64(MonotonicClock.nanoseconds()) / 1000
    }

    /// The deadline to send with a call made now.
    public static func forCallMadeNow() -> UInt64 {
        now() + UInt64((clientTimeout - margin) * 1_000_000)
    }

    /// True when `error` means the daemon did not answer in time (it may be stopped or hung).
    public static func isTimeout(_ error: DBusError) -> Bool {
        openurl_is_timeout(error.name) != 0
    }
}

/// The display variables of the session a click came from, sent in `Open`'s `environment`
/// option (`a{ss}`). A daemon started by D-Bus activation before the session exported its
/// display (startx, bare i3 or sway) has none; it uses these for that click instead.
public enum ClickEnvironment {
    /// The `Open` option key.
    public static let optionKey = Router1.Option.environment
    /// The variables sent, and the only ones the daemon takes from a caller.
    public static let names: [String] = (0..<OPENURL_DISPLAY_VARIABLE_COUNT).compactMap { openurl_display_variable($0).map { String(cString: $0) } }

    /// Those of `names` that are set and non-empty in `lookup`, as an `a{ss}` value.
    public static func option(_ lookup: (String) -> String?) -> DBusValue? {
        let entries = names.compactMap { name -> DBusDictEntry? in
            guard let value = lookup(name), !value.isEmpty else { return nil }
            return DBusDictEntry(key: .string(name), value: .string(value))
        }
        return entries.isEmpty ? nil : .dictionary(keySignature: "s", valueSignature: "s", entries)
    }

    /// This process's own display variables.
    public static func ofThisProcess() -> DBusValue? {
        option(Environment.value)
    }
}

extension DBusError {
    /// True when the call found no service to answer it: the name has no owner and could not be
    /// activated, or the service went away. Callers route the link themselves instead of reporting a refusal.
    public var meansServiceUnavailable: Bool { openurl_means_service_unavailable(name) != 0 }
}

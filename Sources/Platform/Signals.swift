/// A POSIX signal number, with the ones the daemon handles by name.
public struct Signal: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The signal number.
    public let rawValue: Int32
    /// The signal numbered `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// SIGTERM.
    public static let terminate = Signal(rawValue: Sys.signalNumbers.terminate)
    /// SIGINT.
    public static let interrupt = Signal(rawValue: Sys.signalNumbers.interrupt)
    /// SIGHUP.
    public static let hangUp = Signal(rawValue: Sys.signalNumbers.hangUp)
    /// SIGCHLD.
    public static let child = Signal(rawValue: Sys.signalNumbers.child)

    /// The number, as logs have always shown it ("15").
    public var description: String { "\(rawValue)" }
}

/// Signals as readable bytes on a pipe (the self-pipe trick), so their handlers run on an event
/// loop rather than in a signal context. (Glibc's module map does not export signalfd.)
public enum SignalPipe {
    /// Installs handlers (SA_RESTART) for `signals` that write to a new non-blocking pipe, and
    /// returns its read end, for an event loop to watch. One pipe per process: a second call
    /// takes the signals over.
    public static func install(_ signals: [Signal]) throws(SystemError) -> Int32 {
        try Sys.signalPipe(signals.map(\.rawValue))
    }

    /// The signals delivered since the last call, oldest first (never blocks).
    public static func pending(_ readEnd: Int32) -> [Signal] {
        Sys.pendingSignals(readEnd).map(Signal.init(rawValue:))
    }
}

/// Replaces this process with `program`, run with `arguments` (argv, its name first); returns only
/// when that failed, with why.
public func replaceProcess(with program: String, arguments: [String]) -> String { Sys.exec(program, arguments) }

/// Ends the process with `status`, flushing stdio first (exit(3)).
public func exitProcess(_ status: Int32) -> Never { Sys.exit(status) }

/// Detached POSIX threads, for blocking reads that must not hold up the event loop.
public enum BackgroundThread {
    /// Runs `body` on a new detached thread named `name` (at most 15 bytes show in `ps`); false
    /// (and `body` not run) when none can be created.
    @discardableResult
    public static func start(name: String? = nil, _ body: @escaping () -> Void) -> Bool { Sys.startThread(name: name, body) }
}

/// A mutual-exclusion lock (a pthread mutex), as NSLock was used.
public final class Lock: @unchecked Sendable {
    private let storage = Sys.MutexStorage()

    /// An unlocked lock.
    public init() {}

    /// Takes the lock, waiting for it.
    public func lock() { storage.lock() }

    /// Releases the lock.
    public func unlock() { storage.unlock() }

    /// Runs `body` holding the lock.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        storage.lock()
        defer { storage.unlock() }
        return try body()
    }
}

/// Detached POSIX threads, for blocking reads that must not hold up the event loop.
public enum BackgroundThread {
    /// Runs `body` on a new detached thread named `name` (at most 15 bytes show in `ps`); false
    /// (and `body` not run) when none can be created.
    @discardableResult
    public static func start(name: String? = nil, _ body: @escaping () -> Void) -> Bool { Sys.startThread(name: name, body) }
}

import Glibc

/// The package's one lock: a pthread mutex guarding a value, `Void` when it guards code or
/// fields kept beside it (`Lock()`). Copies share the one mutex and value.
///
/// Why this rather than `Synchronization.Mutex` (used in places before) or a class holding a
/// `pthread_mutex_t*` (the others): Mutex is `~Copyable` and gives no way to guard fields that
/// must also be read without it (PatternRegex's and a ClearURLs provider's published state, read
/// after an atomic load); the hand-made wrappers each took a separate allocation for the mutex
/// and repeated the init/destroy pairing. Here the value and the mutex share one allocation (a
/// `ManagedBuffer`), the calls are inlinable (the spare match block of every regex match takes
/// it), and the Glibc calls stay in Platform.
public struct Lock<Value> {
    @usableFromInline let storage: LockStorage<Value>

    /// A lock guarding `value`.
    public init(_ value: Value) { storage = LockStorage.make(value) }

    /// Runs `body` on the value, holding the lock, waiting for it.
    @inlinable
    public func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        storage.lock()
        defer { storage.unlock() }
        return try body(&storage.header)
    }

    /// Runs `body` on the value when the lock is free at once; nil (and `body` not run) when
    /// another thread holds it.
    @inlinable
    public func withLockIfAvailable<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T? {
        guard storage.tryLock() else { return nil }
        defer { storage.unlock() }
        return try body(&storage.header)
    }
}

/// Shared between threads exactly when what it guards may be: every access holds the lock.
extension Lock: @unchecked Sendable where Value: Sendable {}

extension Lock where Value == Void {
    /// A lock guarding no value: `withLock { … }` serialises the code it runs.
    public init() { self.init(()) }

    /// Runs `body` holding the lock, waiting for it.
    @inlinable
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        storage.lock()
        defer { storage.unlock() }
        return try body()
    }

    /// Runs `body` when the lock is free at once; nil (and `body` not run) when it is held.
    @inlinable
    public func withLockIfAvailable<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T? {
        guard storage.tryLock() else { return nil }
        defer { storage.unlock() }
        return try body()
    }
}

/// The value (the buffer's header) and its `pthread_mutex_t` (its one element) in one object;
/// the mutex's address is stable for the object's life, as pthreads requires.
@usableFromInline
final class LockStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    /// A new storage holding `value`, its mutex initialised.
    @usableFromInline
    static func make(_ value: Value) -> LockStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        let storage = unsafeDowncast(buffer, to: LockStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_init($0, nil) }
        return storage
    }

    /// Takes the mutex, waiting for it.
    @inlinable func lock() { withUnsafeMutablePointerToElements { _ = pthread_mutex_lock($0) } }

    /// Takes the mutex if it is free; false when another thread holds it.
    @inlinable func tryLock() -> Bool { withUnsafeMutablePointerToElements { pthread_mutex_trylock($0) == 0 } }

    /// Releases the mutex.
    @inlinable func unlock() { withUnsafeMutablePointerToElements { _ = pthread_mutex_unlock($0) } }

    deinit { withUnsafeMutablePointerToElements { _ = pthread_mutex_destroy($0) } }
}

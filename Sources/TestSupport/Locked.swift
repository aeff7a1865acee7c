import Foundation

/// A value shared between a test and the threads it starts (an event loop, client threads).
public final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T

    /// Holds `value`.
    public init(_ value: T) { stored = value }

    /// The value, read or replaced under the lock.
    public var value: T {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in place under the lock.
    public func update(_ change: (inout T) -> Void) { lock.withLock { change(&stored) } }
}

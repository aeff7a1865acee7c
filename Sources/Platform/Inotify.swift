/// An inotify instance (non-blocking, close-on-exec) whose descriptor an event loop watches;
/// closed when released.
public final class Inotify {
    /// What a watch reports, as inotify(7)'s `IN_*` bits.
    public struct Events: OptionSet, Sendable {
        /// The raw `IN_*` mask.
        public let rawValue: UInt32
        /// A mask of `rawValue`.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// A file opened for writing was closed (IN_CLOSE_WRITE).
        public static let closeWrite = Events(rawValue: Sys.inotifyMasks.closeWrite)
        /// A file was renamed into the directory (IN_MOVED_TO).
        public static let movedTo = Events(rawValue: Sys.inotifyMasks.movedTo)
        /// A file was created (IN_CREATE).
        public static let create = Events(rawValue: Sys.inotifyMasks.create)
        /// A file was deleted (IN_DELETE).
        public static let delete = Events(rawValue: Sys.inotifyMasks.delete)
        /// A file was renamed out of the directory (IN_MOVED_FROM).
        public static let movedFrom = Events(rawValue: Sys.inotifyMasks.movedFrom)
        /// The watched directory itself was deleted (IN_DELETE_SELF).
        public static let deleteSelf = Events(rawValue: Sys.inotifyMasks.deleteSelf)
        /// The watched directory itself was moved (IN_MOVE_SELF).
        public static let moveSelf = Events(rawValue: Sys.inotifyMasks.moveSelf)
        /// Metadata changed: permissions, times, links (IN_ATTRIB).
        public static let attrib = Events(rawValue: Sys.inotifyMasks.attrib)
        /// The watch was removed, explicitly or because its directory went (IN_IGNORED).
        public static let ignored = Events(rawValue: Sys.inotifyMasks.ignored)
    }

    /// One event: which watch, what happened, and the name in the directory ("" for the directory itself).
    public struct Event: Equatable, Sendable {
        /// The watch descriptor `watch(_:for:)` returned.
        public var watch: Int32
        /// What happened.
        public var events: Events
        /// The file's name within the watched directory.
        public var name: String
    }

    /// The descriptor to wait on for readability.
    public let descriptor: Int32

    /// A new instance; throws (inotify_init1) when the system has none to give.
    public init() throws(SystemError) { descriptor = try Sys.inotifyInit() }

    deinit { Sys.close(descriptor) }

    /// Watches `path` for `events`; the same path twice returns the same watch descriptor.
    public func watch(_ path: String, for events: Events) throws(SystemError) -> Int32 {
        try Sys.inotifyAddWatch(descriptor, path, mask: events.rawValue)
    }

    /// Stops a watch.
    public func removeWatch(_ watch: Int32) { Sys.inotifyRemoveWatch(descriptor, watch) }

    /// Every event waiting now, in order; empty when none is (it never blocks).
    public func pendingEvents() -> [Event] {
        Sys.inotifyEvents(descriptor).map { Event(watch: $0.watch, events: Events(rawValue: $0.mask), name: $0.name) }
    }
}

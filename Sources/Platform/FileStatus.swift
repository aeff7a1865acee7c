/// What `stat` tells about a file, in Swift types.
public struct FileStatus: Equatable, Sendable {
    /// The file types callers tell apart.
    public enum Kind: Equatable, Sendable {
        /// A regular file.
        case regular
        /// A directory.
        case directory
        /// A symbolic link (only from a status that does not follow links).
        case symbolicLink
        /// A device, socket or FIFO.
        case other
    }

    /// The file's type.
    public var kind: Kind
    /// The permission bits (mode & 0o7777).
    public var permissions: UInt32
    /// The size in bytes.
    public var size: Int
    /// The inode number.
    public var inode: UInt64
    /// The owner's user id.
    public var owner: UInt32
    /// The last modification of the contents.
    public var modified: Timestamp
    /// The last change of the contents or the metadata.
    public var changed: Timestamp
}

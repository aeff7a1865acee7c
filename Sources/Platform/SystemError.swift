/// A failed system call: which operation, on which path, and the `errno` it left.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The operation that failed, as a short verb ("open", "rename to /x", "mkdir").
    public var operation: String
    /// The path it was given, when there was one.
    public var path: String?
    /// The `errno` value.
    public var code: Int32

    /// A failure of `operation` on `path` with `code`.
    public init(operation: String, path: String?, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The system's text for `code` ("No such file or directory").
    public var message: String { Sys.message(code) }

    /// "open /x/y: No such file or directory".
    public var description: String { "\(operation)\(path.map { " " + $0 } ?? ""): \(message)" }

    /// Nothing is at the path (ENOENT).
    public var isNotFound: Bool { code == Sys.notFound }
    /// A component of the path is not a directory (ENOTDIR).
    public var isNotADirectory: Bool { code == Sys.notADirectory }
    /// Something is already at the path (EEXIST).
    public var isAlreadyExisting: Bool { code == Sys.exists }
    /// Too many levels of symbolic links (ELOOP).
    public var isSymlinkLoop: Bool { code == Sys.loop }
    /// Permission denied (EACCES).
    public var isPermissionDenied: Bool { code == Sys.permissionDenied }
}

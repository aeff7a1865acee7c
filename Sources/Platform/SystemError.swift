/// A failed system call: which operation, on which path, and the `errno` it left.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The operation that failed, as a short verb ("open", "rename to /x", "mkdir").
    public var operation: String
    /// The path it was given, when there was one.
    public var path: String?
    /// The `errno` value.
    public var code: Int32
    /// Why openurld refused the file itself (a link or another user's file in the place of its
    /// own), when it did; the call was then never made.
    public var refusal: String?

    /// A failure of `operation` on `path` with `code`.
    public init(operation: String, path: String?, code: Int32, refusal: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.refusal = refusal
    }

    /// An own file refused: "PATH is a symbolic link; ..." (ELOOP, as O_NOFOLLOW says it), or
    /// with `code` (EPERM: not a regular file of this user's with one link).
    public static func refused(_ path: String, _ why: String, code: Int32? = nil) -> SystemError {
        SystemError(operation: "open", path: path, code: code ?? Sys.loop, refusal: why)
    }

    /// The system's text for `code` ("No such file or directory"), or why the file was refused.
    public var message: String { refusal ?? Sys.message(code) }

    /// True when the file was refused as not openurld's own (see `refusal`).
    public var isRefused: Bool { refusal != nil }

    /// "open /x/y: No such file or directory".
    public var description: String {
        if let refusal { return "\(path ?? "the file") \(refusal)" }
        return "\(operation)\(path.map { " " + $0 } ?? ""): \(message)"
    }

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

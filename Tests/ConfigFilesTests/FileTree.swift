import Foundation

/// A scratch directory of files for one test, removed when the value goes away.
final class FileTree {
    /// The directory, without a trailing slash.
    let root: String

    init(_ name: String) throws {
        root = NSTemporaryDirectory() + "openurld-configfiles-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Writes `text` to `relative` (folders made as needed), its modification time `age` seconds ago.
    @discardableResult
    func write(_ relative: String, _ text: String, age: Double = 10) throws -> String {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        // An old file: a fresh empty one would be taken for an editor's save in progress.
        let then = Date().addingTimeInterval(-age)
        try FileManager.default.setAttributes([.modificationDate: then], ofItemAtPath: path)
        return path
    }
}

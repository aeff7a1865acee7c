import Foundation

/// The package's root directory, found from this file's place in it (Sources/TestSupport/), so
/// tests read corpora, man pages and Package.swift wherever the checkout is.
public enum PackageRoot {
    /// The root as a file URL.
    public static let url: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The root as a path, without a trailing slash.
    public static let path: String = url.path
}

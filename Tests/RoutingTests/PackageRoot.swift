import Foundation

/// The package root, found from this file's path (Tests/RoutingTests/<file>), for data beside the sources.
enum PackageRoot {
    /// The package root directory.
    static let url: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

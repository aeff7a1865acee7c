import Foundation
import TestSupport
import Testing
import Hygiene

/// Shared helpers for the hygiene tests: locating conformance data next to the package.
enum HygieneFixtures {
    /// The package root.
    static let packageRoot: URL = PackageRoot.url

    /// `../shared/conformance/clearurls/data.min.json`, relative to the package root.
    static let clearURLsPath: String = packageRoot
        .appendingPathComponent("../shared/conformance/clearurls/data.min.json").standardized.path

    /// The ClearURLs rule file's bytes; records an issue naming the path when it is missing.
    static func clearURLsBytes() throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: clearURLsPath) else {
            Issue.record("ClearURLs rule file missing at \(clearURLsPath): the tests read ../shared/conformance/clearurls/data.min.json beside the package root")
            throw CancellationError()
        }
        return [UInt8](data)
    }

    /// The full rule file, loaded once.
    static func fullRules() throws -> ClearURLsRules {
        try ClearURLsRules(json: clearURLsBytes())
    }
}

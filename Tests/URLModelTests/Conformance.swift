import Foundation
import TestSupport
import Testing

/// Test data from other projects in `../shared/conformance/`, read by relative path from the
/// package root (never copied into the repository).
enum Conformance {
    /// The package root.
    static let packageRoot: URL = PackageRoot.url

    /// The path of `name` under `../shared/conformance/`.
    static func path(_ name: String) -> String {
        packageRoot.appendingPathComponent("../shared/conformance/\(name)").standardized.path
    }

    /// The bytes of `name`; records an issue naming the path when it is missing.
    static func bytes(_ name: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path(name)) else {
            Issue.record("conformance data missing at \(path(name)): the tests read ../shared/conformance/\(name) beside the package root")
            throw CancellationError()
        }
        return data
    }

    /// The objects of a JSON array file (its strings are comments and are skipped).
    static func jsonObjects(_ name: String) throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: withoutLoneSurrogates(bytes(name)), options: [.fragmentsAllowed])
        guard let array = value as? [Any] else {
            Issue.record("\(name) is not a JSON array")
            throw CancellationError()
        }
        return array.compactMap { $0 as? [String: Any] }
    }

    /// `\uD900`-style escapes of a surrogate without its pair become `\uFFFD`, as a browser's
    /// USVString conversion makes them (Foundation refuses the whole file otherwise).
    static func withoutLoneSurrogates(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        func surrogate(at i: Int) -> (high: Bool, low: Bool)? {
            guard i + 5 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u"),
                  bytes[i + 2] | 0x20 == UInt8(ascii: "d") else { return nil }
            switch bytes[i + 3] | 0x20 {
            case UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b"): return (true, false)
            case UInt8(ascii: "c"), UInt8(ascii: "d"), UInt8(ascii: "e"), UInt8(ascii: "f"): return (false, true)
            default: return nil
            }
        }
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\") { i += 2; continue }
            guard let kind = surrogate(at: i) else { i += 1; continue }
            if kind.high, surrogate(at: i + 6)?.low == true { i += 12; continue }
            bytes.replaceSubrange(i..<(i + 6), with: Array("\\uFFFD".utf8))
            i += 6
        }
        return Data(bytes)
    }
}

import Foundation

/// Finds executables this package builds (`openurl`, `openurld`), next to the test bundle or in
/// `.build`, so integration tests run the real binaries.
public enum BuiltProduct {
    /// The path of the built `name`, or a thrown message saying how to build it.
    public static func path(_ name: String) throws -> String {
        var candidates: [String] = []
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(dir.appendingPathComponent(name).path)
            dir.deleteLastPathComponent()
        }
        let cwd = FileManager.default.currentDirectoryPath
        candidates += [cwd + "/.build/debug/" + name]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw HarnessError("\(name) is not built: run `swift build` (or `make test`) before the tests")
        }
        return found
    }
}

import Foundation

/// Finds executables this package builds (`openurl`, `openurld`, and the multi-call names
/// `openurl-tool` and `openurl-chooser`), in `OPENURL_TEST_PRODUCTS` when set, else next to the
/// test bundle or in `.build`, so integration tests run the real binaries.
public enum BuiltProduct {
    /// The names that are symlinks to the multi-call binary `openurld` (Sources/openurld).
    public static let multicallNames = ["openurl-tool", "openurl-chooser", "openurl-native-host", "openurl-settings"]

    /// The path of the built `name`, or a thrown message saying how to build it.
    ///
    /// SwiftPM builds the multi-call binary only as `openurld`; the first lookup links the other
    /// names to it in the build directory (as `make build` does), since `openurl` execs
    /// `openurl-tool` and openurld runs `openurl-chooser` from their own directory.
    public static func path(_ name: String) throws -> String {
        let lookup = multicallNames.contains(name) ? "openurld" : name
        var candidates: [String] = []
        // `make test-release` runs the suite against the release build (thin LTO, folded code).
        if let products = ProcessInfo.processInfo.environment["OPENURL_TEST_PRODUCTS"], !products.isEmpty {
            candidates.append(products + "/" + lookup)
        }
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(dir.appendingPathComponent(lookup).path)
            dir.deleteLastPathComponent()
        }
        let cwd = FileManager.default.currentDirectoryPath
        candidates += [cwd + "/.build/debug/" + lookup]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw HarnessError("\(lookup) is not built: run `swift build` (or `make test`) before the tests")
        }
        let directory = (found as NSString).deletingLastPathComponent
        let multicall = directory + "/openurld"
        if FileManager.default.isExecutableFile(atPath: multicall) { try linkMulticallNames(in: directory) }
        return lookup == name ? found : directory + "/" + name
    }

    /// Makes each of `multicallNames` in `directory` a relative symlink to `openurld`, replacing
    /// anything else there (a binary from before the multi-call build), atomically so that
    /// tests running in parallel never see the name missing.
    static func linkMulticallNames(in directory: String) throws {
        for name in multicallNames {
            let link = directory + "/" + name
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "openurld" { continue }
            let temporary = "\(link).link-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            guard symlink("openurld", temporary) == 0 else {
                throw HarnessError("cannot link \(link) to openurld: \(String(cString: strerror(errno)))")
            }
            guard rename(temporary, link) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw HarnessError("cannot link \(link) to openurld: \(reason)")
            }
        }
    }
}

import Foundation
import Testing
import TestSupport

/// Package.swift shows the design only if its edges are the imports: every target's declared
/// dependencies on other targets of the package are exactly the package modules its sources
/// import, so an edge nobody uses or an import nobody declared fails here.
@Suite struct PackageGraphTests {
    /// One target as `swift package dump-package` describes it.
    struct Target {
        var name: String
        var folder: String
        var dependencies: Set<String>
        var isSwift: Bool
        /// The upcoming features its Swift settings enable.
        var upcomingFeatures: Set<String>
    }

    static let packageRoot = PackageRoot.path

    static func targets() throws -> [Target] {
        // Its own scratch directory: `swift test` holds the lock on .build while this runs.
        let scratch = NSTemporaryDirectory() + "openurld-dump-package"
        let result = try Command.run(["swift", "package", "--package-path", packageRoot, "--scratch-path", scratch, "dump-package"], timeout: 120)
        guard result.status == 0 else { throw HarnessError("swift package dump-package failed: \(result.stderr)") }
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let targets = json?["targets"] as? [[String: Any]] ?? []
        return targets.compactMap { target in
            guard let name = target["name"] as? String, let type = target["type"] as? String, type != "system" else { return nil }
            let folder = target["path"] as? String ?? ((type == "test" ? "Tests/" : "Sources/") + name)
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                dependency.values.compactMap { ($0 as? [Any])?.first as? String }.first
            }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/" + folder)) ?? []
            let features = (target["settings"] as? [[String: Any]] ?? []).compactMap { setting in
                ((setting["kind"] as? [String: Any])?["enableUpcomingFeature"] as? [String: Any])?["_0"] as? String
            }
            return Target(name: name, folder: folder, dependencies: Set(dependencies), isSwift: files.contains { $0.hasSuffix(".swift") },
                          upcomingFeatures: Set(features))
        }
    }

    /// The package modules imported by the Swift files under `folder`.
    static func imports(in folder: String, among names: Set<String>) -> Set<String> {
        var found: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: packageRoot + "/" + folder)
        while let file = enumerator?.nextObject() as? String {
            guard file.hasSuffix(".swift"), let text = try? String(contentsOfFile: packageRoot + "/" + folder + "/" + file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index == words.startIndex || words[words.startIndex].hasPrefix("@"),
                      index + 1 < words.endIndex else { continue }
                let module = String(words[index + 1])
                if names.contains(module) { found.insert(module) }
            }
        }
        return found
    }

    @Test func everyEdgeIsAnImportAndEveryImportAnEdge() throws {
        let targets = try Self.targets()
        #expect(targets.count > 20, "dump-package listed only \(targets.count) targets")
        let names = Set(targets.map(\.name)).union(["CPCRE2", "CDBus", "CGIO", "CGtk", "COpenurl", "CRouterContract"])
        for target in targets where target.isSwift {
            let imported = Self.imports(in: target.folder, among: names)
            let unused = target.dependencies.subtracting(imported)
            let undeclared = imported.subtracting(target.dependencies).subtracting([target.name])
            #expect(unused.isEmpty, "\(target.name) declares \(unused.sorted()) but no file of \(target.folder) imports it")
            #expect(undeclared.isEmpty, "\(target.name) imports \(undeclared.sorted()) without declaring it in Package.swift")
        }
    }

    /// The package modules linked into an installed binary: everything `openurld` (the daemon,
    /// the tool, the chooser) depends on, directly or not. Derived, so a new module cannot slip
    /// the guards that read this list.
    static func installedModules(of targets: [Target]) -> [String] {
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var closure: Set<String> = []
        var queue = ["openurld"]
        while let name = queue.popLast() {
            for dependency in byName[name]?.dependencies ?? [] where !closure.contains(dependency) {
                closure.insert(dependency)
                queue.append(dependency)
            }
        }
        return closure.filter { byName[$0]?.isSwift == true }.sorted()
    }

    @Test func everySwiftTargetImportsWhatItUsesMembersIncluded() throws {
        // The Embedded handler has settings of its own (no upcoming features in Embedded mode).
        for target in try Self.targets() where target.isSwift && target.name != "openurl" {
            #expect(target.upcomingFeatures.contains("MemberImportVisibility"), "\(target.name) builds without MemberImportVisibility")
        }
    }

    @Test func everyFolderIsNamedForItsModule() throws {
        for target in try Self.targets() where !target.folder.hasPrefix("Benchmarks/") {
            #expect(target.folder.hasSuffix("/" + target.name), "\(target.name) lives in \(target.folder)")
        }
    }
}

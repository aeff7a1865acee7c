import Foundation
import Testing
import TestSupport

/// Desktop and every module it is built on must not reference Foundation (nor
/// FoundationEssentials): one reference links Foundation and its ICU data (~30 MB, most of the
/// daemon's idle memory) into everything installed. The check reads the compiled objects of this
/// very build, so it fails on the commit that brings a Foundation call back.
@Suite struct FoundationFreeTests {
    static let modules = ["Platform", "JSON", "URLModel", "Patterns", "Hygiene", "LinkExtraction", "Routing", "DBus", "Desktop"]

    /// The package root, from this file's path (Tests/DesktopTests/<file>).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The directory holding `<Module>.build/`: the test bundle's own build directory.
    static func buildDirectory() throws -> String {
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Desktop.build").path) { return dir.path }
            dir.deleteLastPathComponent()
        }
        let fallback = FileManager.default.currentDirectoryPath + "/.build/debug"
        guard FileManager.default.fileExists(atPath: fallback + "/Desktop.build") else {
            throw HarnessError("no Desktop.build beside the test bundle nor in .build/debug: run `swift build --build-tests` first")
        }
        return fallback
    }

    @Test(arguments: modules)
    func moduleReferencesNoFoundationSymbol(_ module: String) throws {
        let directory = try Self.buildDirectory() + "/" + module + ".build"
        // Only the objects of today's sources: a file moved to another module leaves its old
        // object behind in an incremental build directory.
        let sources = Set(try FileManager.default.contentsOfDirectory(atPath: Self.packageRoot + "/Sources/" + module))
        let objects = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".o") && sources.contains(String($0.dropLast(2))) }.sorted().map { directory + "/" + $0 }
        try #require(!objects.isEmpty, "no object files in \(directory)")
        let result = try Command.run(["nm", "--undefined-only", "--no-sort"] + objects, timeout: 60)
        try #require(result.status == 0, "nm failed (install binutils): \(result.stderr)")
        // Swift mangles a module name with its length: $s10Foundation…, $s20FoundationEssentials….
        let foundation = result.stdout.split(separator: "\n").filter {
            $0.contains("10Foundation") || $0.contains("20FoundationEssentials") || $0.contains("13FoundationICU")
        }
        #expect(foundation.isEmpty, "\(module) references Foundation: \(foundation.prefix(5).joined(separator: "\n"))")
    }
}

import Foundation
import Testing
import TestSupport

/// The daemon, openurl-tool and the chooser (the modules of the multi-call binary) must not
/// reference Foundation nor FoundationEssentials: one reference links Foundation and its ICU data
/// (~30 MB, most of the daemon's idle memory) into the installed binary. The check reads the
/// compiled objects of this very build, so it fails on the commit that brings a Foundation call
/// back, including one that only an extension lookup finds (`String.contains(String)` was one).
@Suite struct FoundationFreeExecutablesTests {
    /// Each module with its folder under Sources/.
    static let modules = ["OpenurlDaemon": "openurld", "OpenurlTool": "OpenurlTool", "OpenurlChooser": "Chooser", "OpenurlCommands": "OpenurlCommands"]

    /// The package root, from this file's path (Tests/IntegrationTests/<file>).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The directory holding `<Module>.build/`: the test bundle's own build directory.
    static func buildDirectory() throws -> String {
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        for _ in 0..<4 {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("OpenurlDaemon.build").path) { return dir.path }
            dir.deleteLastPathComponent()
        }
        let fallback = FileManager.default.currentDirectoryPath + "/.build/debug"
        guard FileManager.default.fileExists(atPath: fallback + "/OpenurlDaemon.build") else {
            throw HarnessError("no OpenurlDaemon.build beside the test bundle nor in .build/debug: run `swift build --build-tests` first")
        }
        return fallback
    }

    @Test(arguments: modules.keys.sorted())
    func moduleReferencesNoFoundationSymbol(_ module: String) throws {
        let directory = try Self.buildDirectory() + "/" + module + ".build"
        // Only the objects of today's sources: a file moved or renamed leaves its old object
        // behind in an incremental build directory.
        let sources = Set(try FileManager.default.contentsOfDirectory(atPath: Self.packageRoot + "/Sources/" + (Self.modules[module] ?? module)))
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

    /// The linked multi-call binary itself (the installed openurld, openurl-tool and
    /// openurl-chooser): no Foundation, FoundationEssentials or FoundationICU symbol at all, so
    /// nothing C or Swift below the modules above brought it back either.
    @Test func multicallBinaryLinksNoFoundation() throws {
        let binary = try BuiltProduct.path("openurld")
        let result = try Command.run(["nm", "--no-sort", binary], timeout: 120)
        try #require(result.status == 0, "nm failed (install binutils): \(result.stderr)")
        let foundation = result.stdout.split(separator: "\n").filter {
            $0.contains("10Foundation") || $0.contains("20FoundationEssentials") || $0.contains("13FoundationICU")
                || $0.contains("icudt")
        }
        #expect(foundation.isEmpty, "\(binary) links Foundation: \(foundation.prefix(5).joined(separator: "\n"))")
    }
}

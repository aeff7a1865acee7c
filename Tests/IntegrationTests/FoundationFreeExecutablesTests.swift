import Foundation
import Testing
import TestSupport

/// The daemon, openurl-tool and the chooser (the modules of the multi-call binary) must not
/// reference Foundation nor FoundationEssentials: one reference links Foundation and its ICU data
/// (~30 MB, most of the daemon's idle memory) into the installed binary. The check reads the
/// compiled objects of this very build, so it fails on the commit that brings a Foundation call
/// back, including one that only an extension lookup finds (`String.contains(String)` was one).
@Suite struct FoundationFreeExecutablesTests {
    static let modules = ["OpenurlDaemon", "OpenurlTool", "OpenurlChooser", "OpenurlCommands"]

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

    @Test(arguments: modules)
    func moduleReferencesNoFoundationSymbol(_ module: String) throws {
        let directory = try Self.buildDirectory() + "/" + module + ".build"
        let objects = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".o") }.sorted().map { directory + "/" + $0 }
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

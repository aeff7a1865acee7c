import Foundation
import Testing
import TestSupport

/// Every module that goes into an installed binary must not reference Foundation (nor
/// FoundationEssentials): one reference links Foundation and its ICU data (~30 MB, most of the
/// daemon's idle memory) into everything installed. The check reads the compiled objects of this
/// very build, so it fails on the commit that brings a Foundation call back, including one that
/// only an extension lookup finds (`String.contains(String)` was one). The linked binaries
/// themselves are `FoundationGuardTests`'.
@Suite struct FoundationFreeModulesTests {
    /// The package root, from this file's path (Tests/FootprintTests/<file>).
    static let packageRoot = PackageRoot.path

    @Test func everyModuleOfAnInstalledBinaryReferencesNoFoundationSymbol() throws {
        let modules = PackageGraphTests.installedModules(of: try PackageGraphTests.targets())
        // The daemon, the tool, the chooser and what they import: far more than the pure modules.
        #expect(modules.count >= 24, "only \(modules.count) installed modules found: \(modules)")
        for module in modules {
            let foundation = try BinaryInspection.foundationReferences(
                ofModule: module, sourceFolder: module, packageRoot: Self.packageRoot)
            #expect(foundation.isEmpty, "\(module) references Foundation: \(foundation.prefix(5).joined(separator: "\n"))")
        }
    }
}

import Foundation
@testable import TestSupport
import Testing

/// Issue 15: nothing installed links Foundation, and above all not Foundation's own ICU (a whole
/// ICU plus its ~30 MB data blob, most of the daemon's idle memory). The system ICU that CIDNA
/// (UTS 46) and CSpoof (UTS 39) load on first use is not linked at all (issue 32).
@Suite("Foundation guard")
struct FoundationGuardTests {
    /// Every installed executable (a multi-call binary's names resolve to the one file).
    @Test(arguments: ["openurld", "openurl-tool", "openurl-chooser", "openurl"])
    func installedBinaryLinksNoFoundation(_ name: String) throws {
        let report = try BinaryInspection.inspect(try BuiltProduct.path(name))
        #expect(report.foundationICU.isEmpty,
                "\(name) links Foundation's ICU (FoundationICU): \(report.foundationICU.joined(separator: "; ")) [\(report.path)]")
        #expect(report.foundation.isEmpty,
                "\(name) links Foundation: \(report.foundation.joined(separator: "; ")) [\(report.path)]; use the Platform and JSON modules instead")
    }

    /// The inspector sees Foundation where it is: the test bundle itself links it.
    @Test func inspectorFindsFoundationInTheTestBundle() throws {
        let bundle = try #require(CommandLine.arguments.first.map { URL(fileURLWithPath: $0).path })
        let report = try BinaryInspection.inspect(bundle)
        #expect(report.linksFoundation, "the test bundle links Foundation, but the inspector found none in \(bundle)")
    }

    /// The daemon links no ICU at all (CIDNA and CSpoof load the system's on first use, so the
    /// inspector sees none), and a binary that imports only Platform is clean too.
    @Test func theDaemonLinksNoICUAndAPlainBinaryIsClean() throws {
        let fakeBrowser = try #require(RecordingBrowser.locate(), "build openurl-fake-browser (swift build --build-tests)")
        let plain = try BinaryInspection.inspect(fakeBrowser)
        #expect(!plain.linksFoundation, "openurl-fake-browser imports only Platform, yet: \(plain.summary)")
        let daemon = try BinaryInspection.inspect(try BuiltProduct.path("openurld"))
        #expect(daemon.systemICU.isEmpty, "openurld links ICU: \(daemon.systemICU) (CIDNA and CSpoof load it with dlopen)")
        #expect(daemon.foundationICU.isEmpty, "\(daemon.foundationICU)")
    }

    /// A release build takes libstdc++ from GCC's static archive (Build/static-libstdc++): the
    /// shared library cost ~0.9 MB of the daemon's Rss. The debug build maps the shared one, so
    /// under `make test` this checks that it is seen; `make test-release` checks the
    /// release daemon is free of it.
    @Test func aReleaseBuildMapsNoSharedLibstdcxx() throws {
        let path = try BuiltProduct.path("openurld")
        let daemon = try BinaryInspection.inspect(path)
        let shared = daemon.needed.filter { $0.hasPrefix("libstdc++") }
        if daemon.path.contains("/release/") {
            #expect(shared.isEmpty, "\(daemon.path) needs \(shared): is Build/static-libstdc++ in the release link's -L?")
        } else {
            // Through libswiftCore.so: what the loader maps, as the release build's own check would see it.
            let loaded = try Command.run(["ldd", daemon.path], timeout: 30)
            #expect(loaded.stdout.contains("libstdc++.so"), "\(daemon.path) (a debug build) maps no libstdc++.so: \(loaded.stdout)")
        }
    }

    /// What a stripped binary still shows: ICU's data package name and Swift's reflection names.
    @Test(arguments: [
        ("padding icudt76l/coll/root.res padding", "icudt76l" as String?),
        ("icudt76_dat only a symbol name", nil),
        ("no ICU here, icudt but no version", nil),
    ])
    func dataPackageNames(_ text: String, _ expected: String?) {
        #expect(BinaryInspection.icuDataPackage(in: Data(text.utf8)) == expected)
    }

    @Test func byteSearch() {
        #expect(BinaryInspection.contains(Data("..s20FoundationEssentials12DataProtocolP..".utf8), "s20FoundationEssentials"))
        #expect(!BinaryInspection.contains(Data("s20FoundationEssential".utf8), "s20FoundationEssentials"))
        #expect(BinaryInspection.contains(Data("ss10Foundation".utf8), "s10Foundation"))
    }
}

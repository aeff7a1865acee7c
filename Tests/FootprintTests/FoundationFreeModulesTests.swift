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

/// Issue 30: the C library and locks live in Platform only. Every other module reaches the
/// system through Platform's named calls, and there is one lock type (`Platform.Lock`), so a
/// second way to lock or a raw syscall outside Platform fails here, naming the file.
@Suite struct PlatformBoundaryTests {
    /// Folders under Sources/ exempt from the Glibc rule: test-only code that is never
    /// installed. TestSupport (harnesses that spawn buses, displays and tools) is the only one;
    /// the benchmarks and the fuzz targets live outside Sources/ and are not scanned.
    static let exemptFromGlibcRule = ["Sources/TestSupport/"]

    /// Every Swift file under Sources/, relative to the package root, with its text.
    static func sourceFiles() throws -> [(path: String, text: String)] {
        let root = PackageRoot.path
        let enumerator = FileManager.default.enumerator(atPath: root + "/Sources")
        var files: [(String, String)] = []
        while let file = enumerator?.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            files.append(("Sources/" + file, try String(contentsOfFile: root + "/Sources/" + file, encoding: .utf8)))
        }
        #expect(files.count > 100, "only \(files.count) Swift files found under \(root)/Sources")
        return files.sorted { $0.0 < $1.0 }
    }

    /// The C library modules a line imports (`import Glibc`, `@preconcurrency import Musl`,
    /// `import func Darwin.exit`), as the compiler reads the line.
    static func libcImports(in text: String) -> [String] {
        let libraries: Set<String> = ["Glibc", "Musl", "Darwin"]
        var found: [String] = []
        for line in text.split(separator: "\n") {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
            while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
            guard words.first == "import" else { continue }
            words = words.dropFirst()
            if let kind = words.first, ["func", "var", "let", "struct", "class", "enum", "typealias", "protocol"].contains(kind) {
                words = words.dropFirst()
            }
            guard let module = words.first?.split(separator: ".").first.map(String.init), libraries.contains(module) else { continue }
            found.append(module)
        }
        return found
    }

    @Test func glibcIsImportedOnlyInPlatform() throws {
        var offenders: [String] = []
        for (path, text) in try Self.sourceFiles() where !path.hasPrefix("Sources/Platform/") {
            guard !Self.exemptFromGlibcRule.contains(where: { path.hasPrefix($0) }) else { continue }
            let modules = Self.libcImports(in: text)
            if !modules.isEmpty { offenders.append("\(path) imports \(modules.joined(separator: ", "))") }
        }
        #expect(offenders.isEmpty, "the C library is Platform's alone; move these calls into Sources/Platform:\n\(offenders.joined(separator: "\n"))")
    }

    @Test func platformLockIsTheOnlyLock() throws {
        let otherLocks = ["pthread_mutex", "Mutex<", "pthread_rwlock", "pthread_spin", "os_unfair_lock"]
        var offenders: [String] = []
        for (path, text) in try Self.sourceFiles() where !path.hasPrefix("Sources/Platform/") {
            for lock in otherLocks where text.contains(lock) { offenders.append("\(path) uses \(lock)") }
        }
        #expect(offenders.isEmpty, "use Platform's Lock, the one lock type:\n\(offenders.joined(separator: "\n"))")
    }

    /// The scanner itself: it sees the import forms the compiler takes and ignores mentions.
    @Test func theScannerSeesEveryImportForm() {
        #expect(Self.libcImports(in: "import Glibc\n") == ["Glibc"])
        #expect(Self.libcImports(in: "  @preconcurrency import Musl") == ["Musl"])
        #expect(Self.libcImports(in: "import func Darwin.exit") == ["Darwin"])
        #expect(Self.libcImports(in: "#if canImport(Glibc)\n// import Glibc is Platform's\nimport Platform").isEmpty)
        #expect(Self.libcImports(in: "import GlibcLike").isEmpty)
    }
}

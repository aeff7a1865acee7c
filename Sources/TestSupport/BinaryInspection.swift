import Foundation
import Glibc

/// What a built binary links, as far as Foundation and ICU go: found from its dynamic section
/// (`readelf -d`), its symbols (`nm`, both the full table and the dynamic one) and, for stripped
/// binaries, the names Swift's reflection metadata and ICU's data blob leave in its bytes.
///
/// Foundation's ICU (`FoundationICU`, a whole ICU with its ~30 MB data blob `icudt…`) is told
/// apart from the system's `libicuuc`, which `CIDNA` links dynamically for UTS 46 host mapping:
/// the first is code and data inside the binary (or `lib_FoundationICU.so`), the second is a
/// `NEEDED` entry and undefined symbols only.
public struct LinkReport: Sendable {
    /// The file inspected (symlinks resolved).
    public var path: String
    /// Evidence of Foundation itself (any of Foundation, FoundationEssentials,
    /// FoundationInternationalization, FoundationNetworking, FoundationXML).
    public var foundation: [String] = []
    /// Evidence of Foundation's own ICU: `lib_FoundationICU.so`, ICU code defined in the binary,
    /// or the ICU data blob.
    public var foundationICU: [String] = []
    /// The system ICU linked dynamically (allowed: it is UTS 46 for hosts).
    public var systemICU: [String] = []
    /// Every `NEEDED` shared library, in order.
    public var needed: [String] = []

    /// True when anything of Foundation or its ICU is in the binary.
    public var linksFoundation: Bool { !foundation.isEmpty || !foundationICU.isEmpty }

    /// One line: "no", or "yes (evidence; evidence)".
    public var summary: String {
        guard linksFoundation else { return "no" + (systemICU.isEmpty ? "" : " (system libicuuc only, allowed)") }
        return "yes (" + (foundation + foundationICU).prefix(4).joined(separator: "; ") + ")"
    }
}

/// Inspects built binaries for Foundation and ICU (see `LinkReport`).
public enum BinaryInspection {
    /// Shared objects that are Foundation (matched as prefixes of `NEEDED` entries).
    static let foundationLibraries = ["libFoundation.so", "libFoundationEssentials.so", "libFoundationInternationalization.so",
                                      "libFoundationNetworking.so", "libFoundationXML.so"]
    /// Swift module prefixes of mangled symbols, and the reflection names they leave in stripped files.
    static let foundationModules = ["10Foundation", "20FoundationEssentials", "30FoundationInternationalization",
                                    "20FoundationNetworking", "13FoundationXML"]

    /// Inspects `path`; throws when it is missing or `readelf`/`nm` are not installed.
    public static func inspect(_ path: String) throws -> LinkReport {
        let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map {
            $0.hasPrefix("/") ? $0 : (path as NSString).deletingLastPathComponent + "/" + $0
        } ?? path
        guard FileManager.default.isReadableFile(atPath: resolved) else { throw HarnessError("\(path): no such binary; build it first") }
        for tool in ["readelf", "nm"] where ChildProcess.findExecutable(tool) == nil {
            throw HarnessError("\(tool) not found: install binutils (apt-get install binutils)")
        }
        var report = LinkReport(path: resolved)

        let dynamic = try Command.run(["readelf", "-d", "-W", resolved], timeout: 60)
        for line in dynamic.stdout.split(separator: "\n") where line.contains("(NEEDED)") {
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { continue }
            let library = String(line[line.index(after: open)..<close])
            report.needed.append(library)
            if library.hasPrefix("lib_FoundationICU") {
                report.foundationICU.append("NEEDED \(library)")
            } else if foundationLibraries.contains(where: { library.hasPrefix($0) }) {
                report.foundation.append("NEEDED \(library)")
            } else if library.hasPrefix("libicu") {
                report.systemICU.append("NEEDED \(library)")
            }
        }

        // A dynamically linked build (debug) reaches Foundation's ICU through libFoundation*.so:
        // the loader's view (ldd) shows it.
        if !report.foundation.isEmpty, ChildProcess.findExecutable("ldd") != nil {
            let loaded = try Command.run(["ldd", resolved], timeout: 30)
            for line in loaded.stdout.split(separator: "\n") where line.contains("lib_FoundationICU") {
                let library = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? "lib_FoundationICU.so"
                if !report.foundationICU.contains("NEEDED \(library)") { report.foundationICU.append("loads \(library) through Foundation") }
            }
        }

        var foundationSymbols = 0, icuDefined = 0, icuUndefined = 0
        var firstFoundationSymbol: String?, firstICUSymbol: String?, dataBlob: String?
        for arguments in [["nm", "--defined-only", "-D"], ["nm", "--defined-only"], ["nm", "-u", "-D"]] {
            let listing = try Command.run(arguments + [resolved], timeout: 120)
            let defined = arguments.contains("--defined-only")
            for line in listing.stdout.split(separator: "\n") {
                guard let name = line.split(separator: " ").last.map(String.init) else { continue }
                if name.hasPrefix("$s"), foundationModules.contains(where: { name.dropFirst(2).hasPrefix($0) }) {
                    foundationSymbols += 1
                    if firstFoundationSymbol == nil { firstFoundationSymbol = name }
                } else if isICUSymbol(name) {
                    if defined {
                        icuDefined += 1
                        if firstICUSymbol == nil { firstICUSymbol = name }
                        if name.hasPrefix("icudt") { dataBlob = name }
                    } else {
                        icuUndefined += 1
                    }
                }
            }
        }
        if foundationSymbols > 0 { report.foundation.append("\(foundationSymbols) Foundation symbols, e.g. \(firstFoundationSymbol ?? "")") }
        if let dataBlob { report.foundationICU.append("ICU data blob \(dataBlob)") }
        if icuDefined > 0 { report.foundationICU.append("\(icuDefined) ICU symbols defined inside, e.g. \(firstICUSymbol ?? "")") }
        if icuUndefined > 0 { report.systemICU.append("\(icuUndefined) ICU symbols from a shared library") }

        // A stripped binary has no symbol table, but Swift's reflection metadata still names
        // Foundation's types, and ICU's data blob its package ("icudt74l").
        let bytes = try mappedContents(resolved)
        if report.foundation.isEmpty, let module = foundationModules.first(where: { contains(bytes, "s" + $0) }) {
            report.foundation.append("mangled names of \(module.drop { $0.isNumber }) in its metadata")
        }
        if dataBlob == nil, let blob = icuDataPackage(in: bytes) { report.foundationICU.append("ICU data package \(blob)") }
        return report
    }

    /// The llvm-nm beside `swiftc` (the bitcode is the toolchain's LLVM's; Debian's older
    /// llvm-nm cannot read it).
    static func toolchainLLVMNM() -> String? {
        guard let swiftc = ChildProcess.findExecutable("swiftc") else { return nil }
        let resolved = (swiftc as NSString).resolvingSymlinksInPath
        let candidate = (resolved as NSString).deletingLastPathComponent + "/llvm-nm"
        return access(candidate, X_OK) == 0 ? candidate : nil
    }

    /// The Foundation symbols (see `foundationModules`, and FoundationICU's) that `module`'s
    /// compiled objects in this build reference, one `nm` line each. Only the objects of today's
    /// sources in `Sources/<sourceFolder>` count: a file moved to another module leaves its old
    /// object behind in an incremental build directory.
    public static func foundationReferences(ofModule module: String, sourceFolder: String, packageRoot: String) throws -> [String] {
        let products = (try BuiltProduct.path("openurld") as NSString).deletingLastPathComponent
        let directory = products + "/" + module + ".build"
        let sources = Set(try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Sources/" + sourceFolder))
        // A release build with thin LTO leaves LLVM bitcode (`File.swift.bc`), which binutils'
        // nm cannot read: the toolchain's llvm-nm reads both.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        let bitcode = names.contains { $0.hasSuffix(".swift.bc") }
        let suffix = bitcode ? ".bc" : ".o"
        let objects = names.filter { $0.hasSuffix(suffix) && sources.contains(String($0.dropLast(suffix.count))) }.sorted().map { directory + "/" + $0 }
        guard !objects.isEmpty else { throw HarnessError("no object files of Sources/\(sourceFolder) in \(directory): run `swift build --build-tests`") }
        let nm = bitcode ? toolchainLLVMNM() : "nm"
        guard let nm else { throw HarnessError("\(directory) holds LLVM bitcode (thin LTO): the Swift toolchain's llvm-nm is needed, beside swiftc") }
        let result = try Command.run([nm, "--undefined-only", "--no-sort"] + objects, timeout: 60)
        guard result.status == 0 else { throw HarnessError("nm failed (install binutils): \(result.stderr)") }
        // Swift mangles a module name with its length: $s10Foundation…, $s20FoundationEssentials….
        return result.stdout.split(separator: "\n").map(String.init).filter { line in
            (foundationModules + ["13FoundationICU"]).contains { line.contains($0) }
        }
    }

    /// ICU's C API (`u_…`, `ucal_…`, `uidna_…`, versioned `_74` or not), its C++ namespace, and its data blob.
    static func isICUSymbol(_ name: String) -> Bool {
        if name.hasPrefix("icudt") || name.hasPrefix("_ZN6icu_") || name.hasPrefix("_ZNK6icu_") { return true }
        let prefixes = ["u_", "ucal_", "ubrk_", "ucnv_", "ucol_", "udat_", "uidna_", "uloc_", "unum_", "ures_", "usearch_", "utrans_", "unorm2_", "uset_"]
        return prefixes.contains { name.hasPrefix($0) }
    }

    static func mappedContents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    }

    static func contains(_ bytes: Data, _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        return bytes.withUnsafeBytes { find(pattern, in: $0, from: 0) != nil }
    }

    /// The offset of the first `pattern` in `raw` at or after `start` (memchr for the first
    /// byte, then memcmp: memmem is a GNU extension Glibc does not export to Swift).
    static func find(_ pattern: [UInt8], in raw: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = raw.baseAddress, let first = pattern.first else { return nil }
        var offset = start
        while offset + pattern.count <= raw.count {
            guard let hit = memchr(base + offset, Int32(first), raw.count - offset - pattern.count + 1) else { return nil }
            let at = base.distance(to: UnsafeRawPointer(hit))
            if pattern.withUnsafeBytes({ $0.baseAddress.map { memcmp(base + at, $0, pattern.count) } }) == 0 { return at }
            offset = at + 1
        }
        return nil
    }

    /// "icudt" followed by a version and an endianness letter ("icudt74l"): the name ICU's data
    /// package carries in its table of contents.
    static func icuDataPackage(in bytes: Data) -> String? {
        let pattern = Array("icudt".utf8)
        return bytes.withUnsafeBytes { raw -> String? in
            var offset = 0
            while let start = find(pattern, in: raw, from: offset) {
                var end = start + pattern.count
                while end < raw.count, end - start < 12, (48...57).contains(raw[end]) { end += 1 }
                if end > start + pattern.count, end < raw.count, raw[end] == UInt8(ascii: "l") || raw[end] == UInt8(ascii: "b") {
                    return String(decoding: raw[start...end], as: UTF8.self)
                }
                offset = start + 1
            }
            return nil
        }
    }
}

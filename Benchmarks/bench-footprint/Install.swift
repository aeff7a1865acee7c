// What `make install` puts into BINDIR: staged with the Makefile's own install-files rule (from
// the release build) into a temporary DESTDIR, then summed. A symlink counts 0 and a file linked
// twice (hard links) counts once, so a multi-call binary is counted as what it costs on disk.
import Foundation
import TestSupport

struct InstalledBinaries {
    /// Each name in BINDIR with its size in bytes (0 for a symlink) and what it points to.
    var files: [(name: String, bytes: Int, symlinkTo: String?)] = []
    /// The staged BINDIR, kept until the end of the run for the link inspection.
    var directory: String
    var totalBytes: Int { files.reduce(0) { $0 + $1.bytes } }

    /// Runs `make install-files DESTDIR=stage PREFIX=/usr BUILDDIR=products` in `root`.
    static func stage(root: String, products: String, into stage: String) throws -> InstalledBinaries {
        let result = try Command.run(["make", "-s", "-C", root, "install-files", "DESTDIR=\(stage)", "PREFIX=/usr", "BUILDDIR=\(products)"],
                                     timeout: 300)
        guard result.status == 0 else { throw BenchError("make install-files failed: \(result.stderr.suffix(2000))") }
        let bindir = stage + "/usr/bin"
        var installed = InstalledBinaries(directory: bindir)
        var seen = Set<UInt64>()
        for name in try FileManager.default.contentsOfDirectory(atPath: bindir).sorted() {
            var info = stat()
            guard lstat(bindir + "/" + name, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                installed.files.append((name, 0, try? FileManager.default.destinationOfSymbolicLink(atPath: bindir + "/" + name)))
            } else {
                let counted = seen.insert(UInt64(info.st_ino)).inserted
                installed.files.append((name, counted ? Int(info.st_size) : 0, nil))
            }
        }
        return installed
    }
}

import ConfigFiles
import Testing

/// Which system files are read, in which order: the first `config.toml` of the config
/// directories, then the `config.d` drop-ins by name, an earlier directory's hiding a later's.
@Suite struct SystemConfigFilesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// Files to create, relative to the tree (directories `a` and `b`, `a` first in the search path).
        var files: [String]
        /// The files read, relative to the tree.
        var read: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "no files", files: [], read: []),
        Case(name: "the first directory with a config.toml gives it", files: ["b/openurld/config.toml"], read: ["b/openurld/config.toml"]),
        Case(name: "an earlier config.toml hides a later one", files: ["a/openurld/config.toml", "b/openurld/config.toml"],
             read: ["a/openurld/config.toml"]),
        Case(name: "drop-ins after the main file, by name across directories",
             files: ["a/openurld/config.d/20-b.toml", "b/openurld/config.d/10-a.toml", "b/openurld/config.toml"],
             read: ["b/openurld/config.toml", "b/openurld/config.d/10-a.toml", "a/openurld/config.d/20-b.toml"]),
        Case(name: "a drop-in hides the same name in a later directory",
             files: ["a/openurld/config.d/10.toml", "b/openurld/config.d/10.toml"], read: ["a/openurld/config.d/10.toml"]),
        Case(name: "hidden and non-TOML files are not drop-ins",
             files: ["a/openurld/config.d/.10.toml", "a/openurld/config.d/README", "a/openurld/config.d/10.toml~"], read: []),
    ]

    @Test(arguments: cases)
    func systemFilesAreReadInDropInOrder(_ test: Case) throws {
        let tree = try FileTree("system")
        for file in test.files { try tree.write(file, "") }
        let read = SystemConfig.files(configDirs: [tree.root + "/a", tree.root + "/b"])
        #expect(read == test.read.map { tree.root + "/" + $0 })
    }
}

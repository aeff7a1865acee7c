import Foundation
import OpenurlCommands
import TestSupport

/// Paths and tools for the toolbox tests: the source tree, the built tools, generated files.
enum Toolbox {
    /// The package's root directory (this file is Tests/IntegrationTests/ToolboxSupport.swift).
    static let root = PackageRoot.path

    /// The Debian package that provides each tool the tests run.
    static let packages = ["man": "man-db", "scdoc": "scdoc", "fish": "fish", "zsh": "zsh", "bash": "bash", "python3": "python3",
                           "make": "make", "dbus-send": "dbus", "desktop-file-validate": "desktop-file-utils", "readelf": "binutils"]

    /// The path of `tool`, or a thrown message saying what to install.
    static func require(_ tool: String) throws -> String {
        guard let path = ChildProcess.findExecutable(tool) else {
            throw HarnessError("\(tool) is not installed: apt-get install \(packages[tool] ?? tool)")
        }
        return path
    }

    /// The visible commands' names, as typed (routing URLs has none).
    static var commandNames: [String] { CommandTable.visible.map(\.name).filter { !$0.isEmpty } }

    /// Runs `openurl-tool __generate what` and writes the output to `directory/name`.
    static func generate(_ what: String, into directory: String, as name: String) throws -> String {
        let tool = try BuiltProduct.path("openurl-tool")
        let result = try Command.run([tool, "__generate", what])
        guard result.status == 0 else { throw HarnessError("openurl-tool __generate \(what) failed: \(result)") }
        let path = directory + "/" + name
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A fresh temporary directory.
    static func temporaryDirectory(_ name: String) throws -> String {
        var buffer = Array((NSTemporaryDirectory() + "openurld-\(name)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&buffer) else { throw HarnessError("mkdtemp failed") }
        return String(cString: made)
    }

    /// An environment whose PATH starts with the directory of the built `openurl`, so the
    /// completion scripts' `openurl __complete` calls run the binaries under test.
    static func environment(_ base: [String: String]) throws -> [String: String] {
        var environment = base
        let directory = (try BuiltProduct.path("openurl") as NSString).deletingLastPathComponent
        environment["PATH"] = directory + ":" + (base["PATH"] ?? "/usr/bin:/bin")
        return environment
    }
}

import Foundation
@testable import ConfigFiles
import ConfigLanguage
import RoutingCore
import Testing

/// How the layers load together: system files, then the user's file, each over the ones before,
/// a broken file keeping its last good version, and an empty file just written left to settle.
@Suite struct ConfigLayersTests {
    static let good = "[default]\nopen = \"browser.desktop\"\n[[rules]]\nname = \"zoom\"\nmatch.domain = \"zoom.us\"\nopen = \"work.desktop\"\n"
    static let broken = "[default]\nopne = \"browser.desktop\"\n"

    struct LayerCase: Sendable, CustomTestStringConvertible {
        var name: String
        var system: String?
        var user: String?
        /// The layers of the config files read, in order.
        var layers: [ConfigLayer]
        /// Rules in force (the user's and the system's).
        var rules: Int
        /// `FILE:LINE:COLUMN` of the user's failure (FILE relative to the tree), or nil.
        var userFailureAt: String?
        /// The system file's problem starts with its `FILE:LINE:COLUMN`, or nil.
        var systemProblemAt: String?
        var testDescription: String { name }
    }

    static let layerCases: [LayerCase] = [
        LayerCase(name: "no files at all: the built-in defaults", system: nil, user: nil, layers: [], rules: 0),
        LayerCase(name: "the user's file alone", system: nil, user: good, layers: [.user], rules: 1),
        LayerCase(name: "system then user, rules from both", system: good, user: good.replacingOccurrences(of: "zoom", with: "meet"),
                  layers: [.system, .user], rules: 2),
        LayerCase(name: "a broken system file is left out, the user's still loads", system: broken, user: good,
                  layers: [.system, .user], rules: 1, systemProblemAt: "etc/openurld/config.toml:2:1"),
        LayerCase(name: "a broken user file fails the load at its line", system: good, user: broken,
                  layers: [.system, .user], rules: 1, userFailureAt: "home/openurld/config.toml:2:1"),
    ]

    @Test(arguments: layerCases)
    func layersLoadInOrder(_ test: LayerCase) throws {
        let tree = try FileTree("layers")
        if let system = test.system { try tree.write("etc/openurld/config.toml", system) }
        if let user = test.user { try tree.write("home/openurld/config.toml", user) }
        let layered = ConfigFile.loadLayers(path: tree.root + "/home/openurld/config.toml", required: false, systemDirs: [tree.root + "/etc"])
        #expect(layered.sources.map(\.layer) == test.layers)
        #expect(layered.config.rules.count == test.rules)
        if let at = test.userFailureAt {
            #expect(layered.userFailure?.description.hasPrefix(tree.root + "/" + at + ":") == true, "\(layered.userFailure?.description ?? "no failure")")
        } else {
            #expect(layered.userFailure == nil, "\(layered.userFailure?.description ?? "")")
        }
        if let at = test.systemProblemAt {
            #expect(layered.systemError.hasPrefix(tree.root + "/" + at + ":"), "\(layered.systemError)")
        } else {
            #expect(layered.systemError.isEmpty, "\(layered.systemError)")
        }
    }

    struct LastGoodCase: Sendable, CustomTestStringConvertible {
        var name: String
        /// The file that breaks, relative to the tree.
        var file: String
        var layer: ConfigLayer
        var testDescription: String { name }
    }

    static let lastGoodCases: [LastGoodCase] = [
        LastGoodCase(name: "a system file", file: "etc/openurld/config.toml", layer: .system),
        LastGoodCase(name: "a system drop-in", file: "etc/openurld/config.d/10-zoom.toml", layer: .system),
        LastGoodCase(name: "the user's file", file: "home/openurld/config.toml", layer: .user),
    ]

    /// A file that breaks after a good load keeps that load's rules in force, and says so.
    @Test(arguments: lastGoodCases)
    func aBrokenFileKeepsItsLastGoodVersion(_ test: LastGoodCase) throws {
        let tree = try FileTree("lastgood")
        let path = try tree.write(test.file, Self.good)
        let memory = ConfigMemory()
        func load() -> LayeredConfig {
            ConfigFile.loadLayers(path: tree.root + "/home/openurld/config.toml", required: false, systemDirs: [tree.root + "/etc"], memory: memory)
        }
        let first = load()
        #expect(first.config.rules.count == 1)
        #expect(first.sources.first { $0.path == path }?.usingLastGood == false)

        try tree.write(test.file, Self.broken)
        let second = load()
        let status = try #require(second.sources.first { $0.path == path })
        #expect(status.layer == test.layer)
        #expect(status.usingLastGood, "\(status)")
        #expect(status.problem?.hasPrefix(path + ":2:1:") == true, "\(status.problem ?? "no problem")")
        #expect(second.config.rules.count == 1, "the last good rules are not in force")

        // Without the memory of the good load there is nothing to keep.
        let fresh = ConfigFile.loadLayers(path: tree.root + "/home/openurld/config.toml", required: false, systemDirs: [tree.root + "/etc"])
        #expect(fresh.sources.first { $0.path == path }?.usingLastGood == false)
        #expect(fresh.config.rules.isEmpty)
    }

    struct SettlingCase: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        /// Seconds since the file was written.
        var age: Double
        var settling: Bool
        var testDescription: String { name }
    }

    static let settlingCases: [SettlingCase] = [
        SettlingCase(name: "empty and just written: an editor mid-save", text: "", age: 0, settling: true),
        SettlingCase(name: "empty for a while: an empty config", text: "", age: 5, settling: false),
        SettlingCase(name: "just written with text", text: good, age: 0, settling: false),
    ]

    /// An empty file that changed under `settlingSeconds` ago is not loaded yet: most likely an
    /// editor between truncating and writing it.
    @Test(arguments: settlingCases)
    func anEmptyFileJustWrittenIsLeftToSettle(_ test: SettlingCase) throws {
        let tree = try FileTree("settle")
        let path = try tree.write("home/openurld/config.toml", test.text, age: test.age)
        let layered = ConfigFile.loadLayers(path: path, required: false, systemDirs: [])
        #expect((layered.settling != nil) == test.settling, "\(layered.settling ?? "not settling")")
        #expect(layered.userFailure?.isSettling == (test.settling ? true : nil))
        if test.settling {
            #expect(layered.settling?.hasPrefix(path + ": the file is empty and changed") == true, "\(layered.settling ?? "")")
            guard case .failure(let error) = ConfigFile.readStable(path: path) else { Issue.record("read as settled"); return }
            #expect(error.isSettling)
        }
    }
}

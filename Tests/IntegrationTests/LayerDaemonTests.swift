import DBus
import Foundation
import TestSupport
import Testing

/// The Router1 side of the layers, on one private bus: what DescribeRules, ConfigSources and
/// SystemConfigError say, and the error a locked rule answers with.
@Suite(.serialized) struct LayerDaemonTests {
    static let system = """
        [[rules]]
        name = "Intranet"
        match.domain = "intranet.example"
        open = "work.desktop"
        locked = true

        [[sitelist]]
        path = "sites.txt"
        format = "lines"
        open = "work.desktop"
        """

    static func harness() throws -> DaemonHarness {
        let harness = try DaemonHarness(config: "[default]\nopen = \"browser.desktop\"\n[[rules]]\nname = \"Mine\"\nmatch.domain = \"intranet.example\"\nopen = \"browser.desktop\"\n",
                                        name: "layers")
        let folder = harness.desktop.root + "/etc-xdg/openurld"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try system.write(toFile: folder + "/config.toml", atomically: true, encoding: .utf8)
        try "legacy.example\n".write(toFile: folder + "/sites.txt", atomically: true, encoding: .utf8)
        return harness
    }

    @Test func describeRulesAndConfigSourcesNameLayersFilesAndLists() throws {
        let harness = try Self.harness()
        let folder = harness.desktop.root + "/etc-xdg/openurld"
        let rules = try #require(try harness.call("DescribeRules").first?.array?.compactMap(\.dictionary))
        #expect(rules.map { $0["name"]?.string } == ["Intranet", "", "Mine"])
        #expect(rules.map { $0["layer"]?.string } == ["system", "system", "user"])
        #expect(rules.map { $0["index"]?.int32 } == [1, 2, 3])
        #expect(rules[0]["locked"]?.bool == true && rules[0]["file"]?.string == folder + "/config.toml" && rules[0]["line"]?.uint32 == 1)
        #expect(rules[1]["action"]?.string == "open work.desktop" && rules[1]["line"]?.uint32 == 7)
        let sources = try #require(try harness.call("ConfigSources").first?.array?.compactMap(\.dictionary))
        #expect(sources.map { $0["path"]?.string } == [folder + "/config.toml", folder + "/sites.txt", harness.configPath])
        #expect(sources[1]["kind"]?.string == "sitelist" && sources[1]["entries"]?.uint32 == 1 && sources[1]["format"]?.string == "lines")
        #expect(sources.allSatisfy { $0["problem"]?.string == "" })
        let routed = try harness.call("Explain", [.string("https://www.legacy.example/"), .vardict([:])]).first?.dictionary
        #expect(routed?["target"]?.string == "work.desktop")
        #expect(routed?["trace"]?.stringArray?.contains("  site list \(folder)/sites.txt:1: legacy.example: switches") == true, "\(String(describing: routed))")
    }

    @Test func aLockedRuleCannotBeDisabledNorItsLinksReopenedElsewhere() throws {
        let harness = try Self.harness()
        do {
            _ = try harness.call("SetRuleEnabled", [.string("Intranet"), .bool(false)])
            Issue.record("SetRuleEnabled disabled a locked rule")
        } catch let error as DBusError {
            #expect(error.name == "io.github.openurld.Error.RuleLocked")
            #expect(error.message.contains("is locked by the system configuration"), "\(error.message)")
        }
        // Enabling what is already on is no change, and allowed.
        _ = try harness.call("SetRuleEnabled", [.string("Intranet"), .bool(true)])
        _ = try harness.call("Open", [.string("https://intranet.example/x"), .vardict([:])])
        let id = try #require(try harness.call("Recent", [.uint32(1)]).first?.array?.first?.dictionary?["id"]?.uint32)
        #expect(throws: DBusError.self) { try harness.call("Reopen", [.uint32(id), .string("browser.desktop")]) }
        #expect(harness.browser.waitForRecords(1) == [["--work", "https://intranet.example/x"]])
    }

    @Test func aBrokenSystemFileIsTheSystemsErrorNotTheUsers() throws {
        let harness = try Self.harness()
        let folder = harness.desktop.root + "/etc-xdg/openurld"
        try FileManager.default.createDirectory(atPath: folder + "/config.d", withIntermediateDirectories: true)
        try "[settings]\nclen = true\n".write(toFile: folder + "/config.d/50-site.toml", atomically: true, encoding: .utf8)
        _ = try harness.call("Reload")
        let get = { (name: String) in
            try harness.call("Get", [.string(DaemonHarness.interface), .string(name)], interface: "org.freedesktop.DBus.Properties").first?.string
        }
        #expect(try get("ConfigError") == "")
        #expect(try get("SystemConfigError") == "\(folder)/config.d/50-site.toml:2:1: unknown key \"clen\" in [settings]; did you mean \"clean\"?")
        try FileManager.default.removeItem(atPath: folder + "/config.d/50-site.toml")
        _ = try harness.call("Reload")
        #expect(try get("SystemConfigError") == "")
    }
}

import Foundation
import TestSupport
import Testing
import Templates
import ConfigLanguage

/// The scdoc man pages build, render without warnings, and cover every command and config key.
@Suite(.serialized) struct ManPageTests {
    /// Builds the pages with man/generate.sh (as `make install` does) into a temporary directory.
    static func buildPages() throws -> String {
        _ = try Toolbox.require("scdoc")
        let directory = try Toolbox.temporaryDirectory("man")
        let tool = try BuiltProduct.path("openurl-tool")
        let result = try Command.run([Toolbox.root + "/man/generate.sh", tool, directory])
        guard result.status == 0 else { throw HarnessError("man/generate.sh failed: \(result)") }
        return directory
    }

    static func render(_ page: String) throws -> ToolResult {
        let man = try Toolbox.require("man")
        return try Command.run([man, "--warnings", "-l", page], extraEnvironment: ["MANWIDTH": "80", "MAN_KEEP_FORMATTING": "", "LANG": "C.UTF-8"])
    }

    @Test(arguments: ["openurl.1", "openurld.1", "openurl-chooser.1", "openurl-native-host.1", "openurl-settings.1", "openurld.toml.5"])
    func eachPageRendersWithoutWarnings(page: String) throws {
        let directory = try Self.buildPages()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Self.render(directory + "/" + page)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "man --warnings: \(result.stderr)")
        #expect(result.stdout.contains("NAME") && result.stdout.contains("SEE ALSO"), "\(result.stdout.prefix(400))")
    }

    @Test func openurlPageHasEveryCommandInItsSynopsis() throws {
        let directory = try Self.buildPages()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try Self.render(directory + "/openurl.1").stdout
        let synopsis = text.components(separatedBy: "DESCRIPTION").first ?? ""
        for command in Toolbox.commandNames { #expect(synopsis.contains("openurl \(command)"), "\(command) missing from SYNOPSIS") }
        let commands = text.components(separatedBy: "COMMANDS").dropFirst().joined()
        for command in Toolbox.commandNames { #expect(commands.contains("openurl \(command)"), "\(command) missing from COMMANDS") }
    }

    @Test func configPageCoversEveryKeyMatcherActionAndTemplateField() throws {
        let directory = try Self.buildPages()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try Self.render(directory + "/openurld.toml.5").stdout
        let keys = ConfigSchema.settings + ConfigSchema.matchers + ConfigSchema.actions + ConfigSchema.rule + ConfigSchema.app
            + ConfigSchema.webmail + ConfigSchema.rewrite + ConfigSchema.replace + ConfigSchema.redirector
        for key in keys { #expect(text.contains("Example: \(key.name) = "), "\(key.name) has no entry in openurld.toml(5)") }
        for field in Template.placeholders { #expect(text.contains("{\(field)}"), "template field {\(field)} missing") }
        for section in ["[settings]", "[default]", "[apps.NAME]", "[webmail.NAME]", "[[rewrite]]", "[[rules]]", "[[redirector]]", "EXAMPLES"] {
            #expect(text.contains(section), "\(section) missing")
        }
    }

    /// The example config in openurld.toml(5), as a reader would copy it, loads.
    @Test func theConfigPageExampleLoads() throws {
        let directory = try Self.buildPages()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try Self.render(directory + "/openurld.toml.5").stdout
        let example = try #require(text.components(separatedBy: "\nEXAMPLES\n").last?.components(separatedBy: "\nSEE ALSO").first)
        let toml = example.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("       ") ? String($0.dropFirst(7)) : String($0) }.joined(separator: "\n")
        #expect(toml.contains("[[rules]]"))
        do {
            let config = try ConfigLoader.load(text: toml, path: "openurld.toml.5")
            #expect(config.rules.count == 4 && config.rewrites.count == 1 && config.apps["work"] != nil)
        } catch {
            Issue.record("the man page's example does not load: \(error.description)\n\(toml)")
        }
    }

    @Test func openurldHelpAndPageAgree() throws {
        let openurld = try BuiltProduct.path("openurld")
        let help = try Command.run([openurld, "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: openurld"), "\(help)")
        let directory = try Self.buildPages()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let page = try Self.render(directory + "/openurld.1").stdout
        for option in ["--replace", "--log", "--version", "--help"] {
            #expect(help.stdout.contains(option) && page.contains(option), "\(option)")
        }
        let bad = try Command.run([openurld, "--bogus"])
        #expect(bad.status == 2 && bad.stderr.contains("unknown argument --bogus"), "\(bad)")
    }
}

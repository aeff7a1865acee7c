import Foundation
import OpenurlCommands
import TestSupport
import Testing

/// `openurl`'s command table drives parsing and help, and the `openurl` handler agrees with it.
@Suite struct CommandTableTests {
    static let config = TestConfig.browserWithZoomRule

    /// Every command's help, run through the tiny `openurl` handler (which must hand it over).
    @Test(arguments: Toolbox.commandNames)
    func everyCommandHasHelpThatExitsZero(command: String) throws {
        let harness = try DaemonHarness(config: Self.config, name: "help")
        for flag in ["--help", "-h"] {
            let result = try harness.run([harness.openurl, command, flag])
            #expect(result.status == 0, "\(command) \(flag): \(result)")
            #expect(result.stdout.hasPrefix("usage: openurl \(command)"), "\(result)")
        }
        let viaHelp = try harness.run([harness.openurl, "help", command])
        #expect(viaHelp.status == 0 && viaHelp.stdout.hasPrefix("usage: openurl \(command)"), "\(viaHelp)")
    }

    @Test func theUsageSummaryListsEveryCommand() throws {
        let harness = try DaemonHarness(name: "usage")
        let help = try harness.run([harness.openurl, "--help"])
        #expect(help.status == 0)
        for command in Toolbox.commandNames { #expect(help.stdout.contains("openurl \(command) "), "\(command) missing: \(help.stdout)") }
        #expect(!help.stdout.contains("__"), "internal commands are not advertised")
        let bare = try harness.run([harness.openurl])
        #expect(bare.status == 2 && bare.stderr.contains("usage:"), "\(bare)")
    }

    /// Mistyped commands get a suggestion and exit 2, and never reach the daemon as a link.
    @Test(arguments: [("stauts", "status"), ("reloda", "reload"), ("recnet", "recent"), ("exract", "extract"), ("tset", "test")])
    func aMistypedCommandGetsDidYouMean(typed: String, meant: String) throws {
        let harness = try DaemonHarness(config: Self.config, name: "typo")
        let result = try harness.run([harness.openurl, typed])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("unknown command \"\(typed)\"; did you mean \"\(meant)\"?"), "\(result)")
        #expect(!result.stderr.contains("Open"), "no D-Bus method names: \(result)")
        #expect(harness.browser.records().isEmpty)
    }

    @Test(arguments: [
        (["copy", "--bogus"], "copy: unknown option --bogus"),
        (["copy"], "copy: missing URL"),
        (["copy", "https://a.org/", "https://b.org/"], "copy takes at most 1 argument"),
        (["status", "extra"], "status takes no arguments"),
        (["recent", "many"], "recent: N must be a number"),
        (["reopen"], "reopen: missing N"),
        (["reopen", "x"], "reopen: N must be the id"),
        (["reopen", "1", "--with"], "reopen: --with needs a value"),
        (["rules", "frob", "x"], "usage: openurl rules [enable|disable|forget NAME]"),
        (["test", "--jsn", "https://a.org/"], "did you mean --json?"),
        (["help", "stauts"], "did you mean \"status\"?"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) throws {
        let harness = try DaemonHarness(config: Self.config, name: "usage2")
        let result = try harness.run([harness.openurl] + arguments)
        #expect(result.status == 2, "\(arguments): \(result)")
        #expect(result.stderr.contains(message), "\(arguments): \(result)")
    }

    /// The handler's decision of what goes to the tool follows the table: commands and words do,
    /// URLs and route flags stay on the fast path.
    @Test func theHandlerAndTheTableAgree() {
        for command in CommandTable.all where !command.name.isEmpty { #expect(CommandTable.isForTool([command.name])) }
        // Every name has exactly one spec, so the names the handler checks are the table's.
        #expect(CommandTable.all.map(\.command) == CommandName.allCases)
        for flag in CommandTable.globalFlags { #expect(CommandTable.isForTool([flag])) }
        #expect(CommandTable.isForTool([]))
        #expect(CommandTable.isForTool(["stauts"]))
        for url in ["https://example.org/", "mailto:a@b.org", "http://x"] { #expect(!CommandTable.isForTool([url])) }
        #expect(!CommandTable.isForTool(["-v", "https://example.org/"]))
        #expect(!CommandTable.isForTool(["--ask", "https://example.org/"]))
        // The handler (Embedded Swift, which cannot import this table) hands over by shape: a first
        // word without a colon that is not an option, or any option but its own. That covers every
        // command and global flag only while they keep that shape.
        let handlerFlags = ["-v", "--verbose", "--ask", "--"]
        for command in CommandTable.all where !command.name.isEmpty {
            #expect(!command.name.contains(":") && !command.name.hasPrefix("-"), "openurl would route \(command.name) as a URL")
        }
        for flag in CommandTable.globalFlags {
            #expect(flag.hasPrefix("-") && flag.count > 1 && !handlerFlags.contains(flag), "openurl would not hand \(flag) to openurl-tool")
        }
        let source = (try? String(contentsOfFile: Toolbox.root + "/Sources/openurl/Client.swift", encoding: .utf8)) ?? ""
        #expect(source.contains("func parse("), "the handler's hand-over rule moved: update this test")
        #expect(!source.contains("\"reopen\""), "the handler must not keep its own list of commands")
    }

    @Test func daemonErrorsDoNotNameDBusMethods() throws {
        let harness = try DaemonHarness(config: Self.config, name: "nomethods")
        let reopen = try harness.run([harness.openurl, "reopen", "999"])
        #expect(reopen.status == 2, "\(reopen)")
        #expect(reopen.stderr.contains("no recent link with id 999"), "\(reopen)")
        let rule = try harness.run([harness.openurl, "rules", "disable", "nope"])
        #expect(rule.stderr.contains("no rule named \"nope\""), "\(rule)")
        let notURL = try harness.run([harness.openurl, "copy", "not a url"])
        for result in [reopen, rule, notURL] {
            for method in ["Reopen:", "SetRuleEnabled:", "Copy:", "Open:"] { #expect(!result.stderr.contains(method), "\(result)") }
        }
    }
}

import Foundation
import OpenurlCommands
import TestSupport
import Testing

/// The bash, zsh and fish completions, generated from the command table, run in the real shells.
@Suite struct CompletionTests {
    static let config = """
        [apps.work]
        desktop = "work.desktop"
        [[rules]]
        name = "Zoom meetings"
        match.domain = "zoom.us"
        open = "work"
        [[rules]]
        name = "mail"
        match.scheme = "mailto"
        copy = "{to}"
        """

    /// Runs bash with the completion loaded, completing `words` (the last one being typed).
    static func bashComplete(_ words: [String], script: String, environment: [String: String]) throws -> [String] {
        let bash = try Toolbox.require("bash")
        let array = words.map { "'\($0)'" }.joined(separator: " ")
        let program = "source '\(script)'; COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _openurl; printf '%s\\n' \"${COMPREPLY[@]}\""
        let result = try Command.run([bash, "--norc", "-c", program], environment: environment)
        guard result.status == 0 else { throw HarnessError("bash completion failed: \(result)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// `fish -c 'complete -C LINE'`: the candidates without their descriptions.
    static func fishComplete(_ line: String, script: String, environment: [String: String]) throws -> [String] {
        let fish = try Toolbox.require("fish")
        let result = try Command.run([fish, "--no-config", "-c", "source '\(script)'; complete -C '\(line)'"], environment: environment)
        guard result.status == 0, result.stderr.isEmpty else { throw HarnessError("fish completion failed: \(result)") }
        return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    /// Types `line` and Tab Tab into an interactive zsh (under zpty, with compinit and the
    /// completion on fpath) and returns what it lists. It waits for `first`, the first candidate
    /// expected: a broken completion never lists it and the run ends at the command's timeout.
    static func zshComplete(_ line: String, first: String, directory: String, environment: [String: String]) throws -> String {
        let zsh = try Toolbox.require("zsh")
        let rc = directory + "/rc.zsh"
        try """
            PS1='%% '
            fpath=('\(directory)' $fpath)
            autoload -U compinit; compinit -u -d '\(directory)/zcompdump'
            zstyle ':completion:*' list-prompt ''
            LISTMAX=0
            """.write(toFile: rc, atomically: true, encoding: .utf8)
        let driver = directory + "/drive.zsh"
        try """
            zmodload zsh/zpty
            zpty z 'TERM=dumb zsh -f -i'
            zpty -w z "source '\(rc)'; print -r -- SETUP''-READY"
            zpty -r -m z out $'*\\nSETUP-READY*'
            zpty -r -m z out '*% *'
            zpty -w -n z "$1"$'\\t\\t'
            zpty -r -m z out "*$2*"
            zpty -w z $'\\x15print -r -- LISTING''-DONE'
            zpty -r -m z rest $'*\\nLISTING-DONE*'
            print -r -- "$out$rest"
            zpty -d z
            """.write(toFile: driver, atomically: true, encoding: .utf8)
        let result = try Command.run([zsh, "-f", driver, line, first], environment: environment, timeout: 15)
        guard result.status == 0, !result.timedOut else { throw HarnessError("zsh never listed \(first) for \"\(line)\": \(result)") }
        return result.stdout.replacingOccurrences(of: "\r", with: "")
    }

    @Test func zshListsTheSubcommandsOptionsAndRuleNames() throws {
        let harness = try DaemonHarness(config: Self.config, name: "zshcomplete")
        let directory = harness.desktop.root + "/zsh"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = try Toolbox.generate("zsh", into: directory, as: "_openurl")
        let environment = try Toolbox.environment(harness.environment)
        let commands = try Self.zshComplete("openurl ", first: "check", directory: directory, environment: environment)
        for command in Toolbox.commandNames { #expect(commands.contains("\(command) "), "\(command) missing: \(commands)") }
        #expect(commands.contains("explain the decision for URL without acting"), "descriptions: \(commands)")
        let options = try Self.zshComplete("openurl test --", first: "--config", directory: directory, environment: environment)
        for option in ["--json", "--config", "--opener", "--help"] { #expect(options.contains(option), "\(options)") }
        let rules = try Self.zshComplete("openurl rules disable ", first: "Zoom", directory: directory, environment: environment)
        #expect(rules.contains("Zoom meetings") && rules.contains("mail"), "\(rules)")
    }

    @Test func bashCompletesTheSubcommandsAndOptions() throws {
        let directory = try Toolbox.temporaryDirectory("bash")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = try Toolbox.generate("bash", into: directory, as: "openurl")
        let bash = try Toolbox.require("bash")
        let registered = try Command.run([bash, "--norc", "-c", "source '\(script)'; complete -p openurl"])
        #expect(registered.stdout.contains("complete -F _openurl openurl"), "\(registered)")
        let environment = try Toolbox.environment(ProcessInfo.processInfo.environment)
        #expect(try Self.bashComplete(["openurl", ""], script: script, environment: environment) == Toolbox.commandNames)
        #expect(try Self.bashComplete(["openurl", "st"], script: script, environment: environment) == ["status"])
        #expect(try Self.bashComplete(["openurl", "test", "--"], script: script, environment: environment) == ["--json", "--config", "--opener", "--link-text", "--origin-url", "--network", "--vpn", "--vpn-name", "--at", "--modifiers", "--window", "--help"])
        #expect(try Self.bashComplete(["openurl", "rules", ""], script: script, environment: environment) == ["enable", "disable", "forget"])
        // Issue 24: the keys --modifiers takes.
        #expect(try Self.bashComplete(["openurl", "test", "--modifiers", "s"], script: script, environment: environment) == ["shift", "super"])
    }

    @Test func fishCompletesTheSubcommandsAndOptions() throws {
        let directory = try Toolbox.temporaryDirectory("fish")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = try Toolbox.generate("fish", into: directory, as: "openurl.fish")
        let environment = try Toolbox.environment(ProcessInfo.processInfo.environment)
        #expect(Set(try Self.fishComplete("openurl ", script: script, environment: environment)) == Set(Toolbox.commandNames))
        #expect(Set(try Self.fishComplete("openurl extract --", script: script, environment: environment))
                == ["--open", "--all", "--json", "--selection", "--help"])
        #expect(Set(try Self.fishComplete("openurl rules ", script: script, environment: environment)) == ["enable", "disable", "forget"])
    }

    @Test func zshCompletionParsesAndNamesEveryCommand() throws {
        let directory = try Toolbox.temporaryDirectory("zsh")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = try Toolbox.generate("zsh", into: directory, as: "_openurl")
        let zsh = try Toolbox.require("zsh")
        let syntax = try Command.run([zsh, "-n", script])
        #expect(syntax.status == 0 && syntax.stderr.isEmpty, "\(syntax)")
        let text = try String(contentsOfFile: script, encoding: .utf8)
        #expect(text.hasPrefix("#compdef openurl"))
        for command in Toolbox.commandNames { #expect(text.contains("'\(command):"), "\(command) missing from _openurl") }
        // The completion system loads it from fpath and binds it to openurl.
        let load = try Command.run([zsh, "-f", "-c", "fpath=('\(directory)' $fpath); autoload -U compinit; compinit -u -d '\(directory)/dump'; print -r -- $_comps[openurl]"])
        #expect(load.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "_openurl", "\(load)")
    }

    /// `rules disable <Tab>` asks the daemon; `reopen N --with <Tab>` offers targets; `reopen <Tab>` recent ids.
    @Test func dynamicCandidatesComeFromTheDaemonAndTheConfig() throws {
        let harness = try DaemonHarness(config: Self.config, name: "dyncomplete")
        let open = try harness.run([harness.openurl, "https://zoom.us/j/1"])
        #expect(open.status == 0, "\(open)")
        let environment = try Toolbox.environment(harness.environment)
        let bashScript = try Toolbox.generate("bash", into: harness.desktop.root, as: "openurl.bash")
        let fishScript = try Toolbox.generate("fish", into: harness.desktop.root, as: "openurl.fish")

        #expect(try Self.bashComplete(["openurl", "rules", "disable", ""], script: bashScript, environment: environment) == ["Zoom\\ meetings", "mail"])
        #expect(Set(try Self.fishComplete("openurl rules disable ", script: fishScript, environment: environment)) == ["Zoom meetings", "mail"])

        let targets = try Self.fishComplete("openurl reopen 1 --with ", script: fishScript, environment: environment)
        for expected in ["work", "gmail", "system", "copy", "browser.desktop"] {
            #expect(targets.contains(expected), "\(expected) missing from \(targets)")
        }
        #expect(try Self.bashComplete(["openurl", "reopen", "1", "--with", "wo"], script: bashScript, environment: environment).contains("work"))
        #expect(try Self.bashComplete(["openurl", "reopen", ""], script: bashScript, environment: environment) == ["1"])
        #expect(try Self.fishComplete("openurl reopen ", script: fishScript, environment: environment) == ["1"])
    }

    @Test func withoutADaemonDynamicCompletionIsQuietlyEmpty() throws {
        let harness = try DaemonHarness(name: "nodaemon")
        var environment = try Toolbox.environment(harness.environment)
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent"
        let result = try Command.run([harness.openurl, "__complete", "rules"], environment: environment)
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    }
}

import Desktop
import Foundation
import Routing

/// Exit codes shared by every command.
enum ExitCode {
    static let success: Int32 = 0
    static let usage: Int32 = 2
    static let config: Int32 = 3
    static let notCarriedOut: Int32 = 4
}

/// Parses the command line and runs one command.
struct Client {
    let arguments: [String]
    let environment: [String: String]

    static let usage = """
        usage: openurl [-v] URL...             route each URL (through openurld, else in-process)
               openurl test [--json] [--config FILE] [--opener ID] URL
               openurl check [--config FILE]
               openurl copy URL                copy (the address of a mailto) and notify
               openurl extract [--open] [--all] [--json] [--selection] [FILE]
               openurl apps [--json] [SCHEME]  browsers, profiles, webmail and desktop actions, as targets
               openurl install | uninstall     become / stop being the default for http, https, mailto
               openurl status | reload | rules [enable|disable NAME] | recent [N|--clear] | reopen N [--with TARGET]
        """

    var paths: XDGPaths { XDGPaths(environment: environment) }

    func run() -> Int32 {
        guard let command = arguments.first else {
            Output.error(Self.usage)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "test": return runTest(rest)
        case "check": return runCheck(rest)
        case "copy": return runCopy(rest)
        case "extract": return runExtract(rest)
        case "apps": return runApps(rest)
        case "install": return runInstall(rest)
        case "uninstall": return runUninstall(rest)
        case "status": return runStatus(rest)
        case "reload": return runReload(rest)
        case "rules": return runRules(rest)
        case "recent": return runRecent(rest)
        case "reopen": return runReopen(rest)
        case "-h", "--help", "help":
            Output.print(Self.usage)
            return ExitCode.success
        case "--version":
            Output.print("openurl 0.1.0")
            return ExitCode.success
        default:
            return runRoute(arguments)
        }
    }

    /// Loads the config at `path` (or the default path); a missing default file means defaults.
    func loadConfig(path explicit: String?) -> Result<Config, ConfigFile.LoadError> {
        ConfigFile.load(path: explicit ?? paths.configFile, required: explicit != nil,
                        discover: AppDiscovery(paths: paths, environment: environment).catalog)
    }

    /// Reports an error on stderr and, when stderr is not a terminal (a desktop started us),
    /// as a notification too: a handler has no visible stderr.
    func fail(_ message: String, code: Int32, summary: String = "openurl") -> Int32 {
        Output.error("openurl: \(message)")
        if isatty(2) == 0 { Notifier.show(summary: summary, body: message, urgent: true) }
        return code
    }
}

/// A small option parser: `--flag`, `--name VALUE`, `--name=VALUE`, and positionals.
struct OptionParser {
    private var remaining: [String]
    private(set) var positional: [String] = []
    private var failed = false

    init(_ arguments: [String]) { remaining = arguments }

    mutating func flag(_ names: String...) -> Bool {
        guard let index = remaining.firstIndex(where: { names.contains($0) }) else { return false }
        remaining.remove(at: index)
        return true
    }

    mutating func value(_ name: String) -> String? {
        if let index = remaining.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let value = String(remaining[index].dropFirst(name.count + 1))
            remaining.remove(at: index)
            return value
        }
        guard let index = remaining.firstIndex(of: name) else { return nil }
        guard index + 1 < remaining.count else {
            Output.error("openurl: \(name) needs a value")
            failed = true
            remaining.remove(at: index)
            return nil
        }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...(index + 1))
        return value
    }

    /// Checks that at most `count` positionals are left and no unknown options.
    mutating func finish(allowingPositional count: Int) -> Bool {
        var sawDoubleDash = false
        for argument in remaining {
            if !sawDoubleDash, argument == "--" { sawDoubleDash = true; continue }
            if !sawDoubleDash, argument.hasPrefix("-"), argument.count > 1 {
                Output.error("openurl: unknown option \(argument)")
                return false
            }
            positional.append(argument)
        }
        if positional.count > count {
            Output.error("openurl: expected at most \(count) argument\(count == 1 ? "" : "s"), got \(positional.count)")
            return false
        }
        return !failed
    }
}

/// Writes to standard output and standard error.
enum Output {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

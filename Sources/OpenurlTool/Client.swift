import ConfigFiles
import Launching
import OpenurlCommands
import Platform
import Hygiene
import ConfigLanguage

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

    var paths: XDGPaths { XDGPaths(environment: environment) }

    func run() -> Int32 {
        guard let first = arguments.first else {
            Output.error(CommandTable.usageText)
            return ExitCode.usage
        }
        switch first {
        case "-h", "--help":
            Output.print(CommandTable.usageText)
            return ExitCode.success
        case "--version":
            Output.print("openurl 0.1.0")
            return ExitCode.success
        default: break
        }
        let named = CommandTable.spec(named: first)
        if named == nil, !first.hasPrefix("-"), !first.contains(Character(":")), !first.contains(Character(".")), let guess = CommandTable.nearest(to: first) {
            return fail("unknown command \"\(first)\"; did you mean \"\(guess)\"? (see openurl --help)", code: ExitCode.usage)
        }
        let spec = named ?? CommandTable.spec(.route)
        let parsed: ParsedCommand
        do {
            parsed = try spec.parse(named == nil ? arguments : Array(arguments.dropFirst()))
        } catch {
            return fail(error.message, code: ExitCode.usage)
        }
        if parsed.wantsHelp {
            Output.print(spec.helpText)
            return ExitCode.success
        }
        switch spec.command {
        case .route: return runRoute(parsed.positionals, verbose: parsed.flag("--verbose"), ask: parsed.flag("--ask"), noDaemon: parsed.flag("--no-daemon"))
        case .test: return runTest(parsed)
        case .check: return runCheck(parsed)
        case .copy: return runCopy(parsed.positionals[0])
        case .extract: return runExtract(parsed)
        case .apps: return runApps(parsed)
        case .install: return parsed.flag("--system") ? runInstallSystem(parsed) : runInstall(parsed)
        case .uninstall: return parsed.flag("--system") ? runUninstallSystem() : runUninstall()
        case .status: return runStatus(parsed)
        case .doctor: return runDoctor(parsed)
        case .reload: return runReload()
        case .rules: return runRules(parsed.positionals)
        case .recent: return runRecent(parsed)
        case .reopen: return runReopen(parsed)
        case .settings: return runSettings(Array(arguments.dropFirst()))
        case .help: return runHelp(parsed.positionals.first)
        case .complete: return runComplete(parsed.positionals[0])
        case .generate: return runGenerate(parsed.positionals[0])
        }
    }

    func runHelp(_ command: String?) -> Int32 {
        guard let command else {
            Output.print(CommandTable.usageText)
            return ExitCode.success
        }
        guard let spec = CommandTable.spec(named: command), !spec.hidden else {
            let hint = CommandTable.nearest(to: command).map { "; did you mean \"\($0)\"?" } ?? ""
            return fail("help: unknown command \"\(command)\"\(hint)", code: ExitCode.usage)
        }
        Output.print(spec.helpText)
        return ExitCode.success
    }

    /// Loads the system configuration, then the config at `path` (or the default path); a
    /// missing default file means defaults.
    func loadConfig(path explicit: String?) -> Result<Config, ConfigFile.LoadError> {
        let layers = loadLayers(path: explicit)
        if let failure = layers.userFailure { return .failure(failure) }
        return .success(layers.config)
    }

    /// Every layer, with how each file fared.
    func loadLayers(path explicit: String?) -> LayeredConfig {
        let discovery = AppDiscovery(paths: paths, environment: environment)
        return ConfigFile.loadLayers(path: explicit ?? paths.configFile, required: explicit != nil, systemDirs: paths.configDirs,
                                     discover: { [paths, environment] in ConfigFile.installedApps(paths: paths, environment: environment) },
                                     describe: discovery.entries)
    }

    /// Reports an error on stderr and, when stderr is not a terminal (a desktop started us),
    /// as a notification too: a handler has no visible stderr.
    func fail(_ message: String, code: Int32, summary: String = "openurl") -> Int32 {
        Output.error("openurl: \(message)")
        if !StandardStream.error.isTerminal { Notifier.show(summary: summary, body: message, urgent: true) }
        return code
    }
}

/// Writes to standard output and standard error.
enum Output {
    static func print(_ text: String) {
        StandardStream.output.writeLine(text)
    }

    static func error(_ text: String) {
        StandardStream.error.writeLine(text)
    }
}

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
    let environment: Environment

    static let usage = """
        usage: openurl URL...                 route each URL
               openurl test [--json] [--config FILE] [--opener ID] URL
               openurl check [--config FILE]
        """

    func run() -> Int32 {
        guard let command = arguments.first else {
            Output.error(Self.usage)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "test": return runTest(rest)
        case "check": return runCheck(rest)
        case "-h", "--help", "help":
            Output.print(Self.usage)
            return ExitCode.success
        default:
            return runRoute(arguments)
        }
    }

    /// Loads the config at `path` (or the default path); a missing default file means defaults.
    func loadConfig(path explicit: String?) -> Result<Config, ClientError> {
        let path = explicit ?? environment.configPath
        switch Environment.read(path) {
        case .missing:
            if explicit != nil { return .failure(ClientError("\(path): no such file")) }
            return .success(Config())
        case .failed(let reason):
            return .failure(ClientError("\(path): \(reason)"))
        case .contents(let bytes):
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return .failure(ClientError("\(path):1:1: the file is not valid UTF-8 text"))
            }
            do {
                return .success(try ConfigLoader.load(text: text, path: path))
            } catch {
                return .failure(ClientError(error.description))
            }
        }
    }

    private func runCheck(_ arguments: [String]) -> Int32 {
        var options = OptionParser(arguments)
        let path = options.value("--config")
        guard options.finish(allowingPositional: 0) else { return ExitCode.usage }
        switch loadConfig(path: path) {
        case .success(let config):
            let source = config.path ?? "built-in defaults (no file at \(environment.configPath))"
            Output.print("\(source): OK, \(config.rules.count) rules, \(config.rewrites.count) rewrites, \(config.apps.count) apps")
            return ExitCode.success
        case .failure(let message):
            Output.error(message.message)
            return ExitCode.config
        }
    }

    private func runTest(_ arguments: [String]) -> Int32 {
        var options = OptionParser(arguments)
        let json = options.flag("--json")
        let path = options.value("--config")
        let openerID = options.value("--opener")
        guard options.finish(allowingPositional: 1), let url = options.positional.first else {
            Output.error("usage: openurl test [--json] [--config FILE] [--opener ID] URL")
            return ExitCode.usage
        }
        let config: Config
        switch loadConfig(path: path) {
        case .success(let loaded): config = loaded
        case .failure(let message):
            Output.error(message.message)
            return ExitCode.config
        }
        let opener = openerID.map { Opener(desktopID: $0.hasSuffix(".desktop") ? $0 : nil, flatpakID: $0.contains(".") && !$0.hasSuffix(".desktop") ? $0 : nil, processName: $0) }
        let decision: Decision
        do {
            decision = try RuleEngine(config: config).decide(url, opener: opener, explain: true)
        } catch {
            Output.error("openurl: \(error.message)")
            return ExitCode.usage
        }
        if json {
            Output.print(decision.json.text)
        } else {
            Output.print(DecisionText.describe(decision))
        }
        return ExitCode.success
    }

    private func runRoute(_ urls: [String]) -> Int32 {
        Output.error("openurl: routing is not wired yet; use `openurl test URL`")
        return ExitCode.notCarriedOut
    }
}

/// A small option parser: `--flag`, `--name VALUE`, `--name=VALUE`, and positionals.
struct OptionParser {
    private var remaining: [String]
    private(set) var positional: [String] = []
    private var failed = false

    init(_ arguments: [String]) { remaining = arguments }

    mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
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

    /// Checks that only up to `count` positionals are left and no unknown options.
    mutating func finish(allowingPositional count: Int) -> Bool {
        var sawDoubleDash = false
        for argument in remaining {
            if !sawDoubleDash, argument == "--" { sawDoubleDash = true; continue }
            if !sawDoubleDash, argument.hasPrefix("--") {
                Output.error("openurl: unknown option \(argument)")
                return false
            }
            positional.append(argument)
        }
        if positional.count > count {
            Output.error("openurl: expected \(count == 1 ? "one argument" : "\(count) arguments"), got \(positional.count)")
            return false
        }
        return !failed
    }
}

/// A message for the user, already formatted.
struct ClientError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

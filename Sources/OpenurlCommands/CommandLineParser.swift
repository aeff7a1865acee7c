/// The arguments of one command, parsed by its `CommandSpec`.
public struct ParsedCommand: Sendable {
    /// The command's spec.
    public let spec: CommandSpec
    /// Flags given, by long name (`--json`).
    public var flags: Set<String> = []
    /// Option values given, by long name (`--config` → path); the last one wins.
    public var values: [String: String] = [:]
    /// The positional arguments, in order.
    public var positionals: [String] = []
    /// Whether `--help` (or `-h`) was given: print the command's help instead of running it.
    public var wantsHelp = false

    /// Whether `name` (a long name) was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }
    /// The value of `name` (a long name), if given.
    public func value(_ name: String) -> String? { values[name] }
}

/// A usage error: the message to print (without the `openurl:` prefix); the exit status is 2.
public struct UsageError: Error, Equatable, Sendable {
    /// What was wrong, and what would be right.
    public let message: String
    /// Wraps `message`.
    public init(_ message: String) { self.message = message }
}

extension CommandSpec {
    /// Parses `arguments` (the words after the command's name) by this spec: options anywhere,
    /// `--name=VALUE` or `--name VALUE`, `--` ends the options, the number of positionals checked.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        var parsed = ParsedCommand(spec: self)
        var index = 0
        var optionsEnded = false
        let label = name.isEmpty ? "" : name + ": "
        let seeHelp = name.isEmpty ? "openurl --help" : "openurl \(name) --help"
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" { optionsEnded = true; continue }
            if word == "--help" || word == "-h" { parsed.wantsHelp = true; continue }
            var key = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "="), word.hasPrefix("--") {
                key = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = option(key) else {
                let known = options.map(\.name) + ["--help"]
                let hint = known.map { ($0, CommandTable.editDistance(key, $0)) }.min { $0.1 < $1.1 }
                    .flatMap { $0.1 <= 2 ? "; did you mean \($0.0)?" : nil } ?? ""
                throw UsageError("\(label)unknown option \(key)\(hint) (see \(seeHelp))")
            }
            if let placeholder = option.value {
                if let inlineValue { parsed.values[option.name] = inlineValue; continue }
                guard index < arguments.count else { throw UsageError("\(label)\(option.name) needs a value (\(placeholder))") }
                parsed.values[option.name] = arguments[index]
                index += 1
            } else {
                if inlineValue != nil { throw UsageError("\(label)\(option.name) takes no value") }
                parsed.flags.insert(option.name)
            }
        }
        if parsed.wantsHelp { return parsed }
        if parsed.positionals.count > maximumArguments {
            let extra = parsed.positionals[maximumArguments...].joined(separator: " ")
            let expected = maximumArguments == 0 ? "takes no arguments" : "takes at most \(maximumArguments) argument\(maximumArguments == 1 ? "" : "s")"
            throw UsageError("\(name) \(expected); unexpected: \(extra) (usage: \(synopsis))")
        }
        if parsed.positionals.count < minimumArguments {
            let missing = self.arguments.dropFirst(parsed.positionals.count).filter { !$0.optional }.map(\.name).joined(separator: " ")
            throw UsageError("\(label)missing \(missing) (usage: \(synopsis))")
        }
        return parsed
    }

    /// The text `openurl COMMAND --help` prints.
    public var helpText: String {
        var lines = ["usage: \(synopsis)", ""] + wrap(details, width: 78)
        let shown = options + [OptionSpec("--help", short: "-h", "show this help")]
        lines += ["", "options:"]
        let left = shown.map { ($0.short.map { "\($0), " } ?? "    ") + $0.synopsis }
        let width = (left.map(\.count).max() ?? 0) + 2
        for (text, option) in zip(left, shown) {
            lines.append("  " + text + String(repeating: " ", count: width - text.count) + option.summary)
        }
        return lines.joined(separator: "\n")
    }
}

/// `text` broken into lines of at most `width` characters at spaces.
func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
        if !line.isEmpty, line.count + 1 + word.count > width {
            lines.append(line)
            line = ""
        }
        line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines
}

extension CommandTable {
    /// The text `openurl --help` prints: one line per command.
    public static var usageText: String {
        let shown = visible
        let left = shown.map { spec in spec.name.isEmpty ? "openurl [-v] [--ask] URL..." : "openurl \(spec.name)" }
        let width = (left.map(\.count).max() ?? 0) + 2
        var lines = ["usage:"]
        for (text, spec) in zip(left, shown) {
            lines.append("  " + text + String(repeating: " ", count: width - text.count) + spec.summary)
        }
        lines += ["", "`openurl COMMAND --help` shows a command's options; `man openurl` tells the whole story.",
                  "Exit status: 0 done, 2 usage, 3 config error, 4 the decision could not be carried out."]
        return lines.joined(separator: "\n")
    }
}

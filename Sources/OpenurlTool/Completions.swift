import OpenurlCommands
import Platform

/// Shell completion scripts generated from the command table (`openurl __generate bash|zsh|fish`),
/// installed by `make install`; dynamic candidates come from `openurl __complete`.
enum Completions {
    static var commands: [CommandSpec] { CommandTable.visible.filter { !$0.name.isEmpty } }
    static var route: CommandSpec { CommandTable.spec(.route) }

    /// The global options (on the route "command") plus --help and --version.
    static var globalOptions: [String] {
        route.options.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) } + ["--help", "--version"]
    }

    /// `command:--option` for every option taking a value, so positions skip the value.
    static var valuedOptions: [String] {
        commands.flatMap { spec in spec.options.filter { $0.value != nil }.map { "\(spec.name):\($0.name)" } }
    }

    static func optionWords(_ spec: CommandSpec) -> String {
        (spec.options.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) } + ["--help"]).joined(separator: " ")
    }

    /// The `__complete` topic or word list for a kind, as the shell helpers take it.
    static func source(_ kind: ArgumentKind) -> String? {
        switch kind {
        case .free: return nil
        case .file: return "file"
        case .words(let words): return "words:" + words.joined(separator: " ")
        case .ruleName: return "rules"
        case .recentID: return "recent"
        case .target: return "targets"
        case .command: return "words:" + commands.map(\.name).joined(separator: " ")
        }
    }

    /// Single-quoted for sh, zsh and fish.
    static func quoted(_ text: String) -> String { "'" + text.replacingEvery("'", with: "'\\''") + "'" }

    static let header = "# Generated from openurl's command table by `openurl __generate`; do not edit."

    static var bash: String {
        var out = [header, "# bash completion for openurl", ""]
        out += [
            "_openurl_candidates() {",
            "    local kind=$1 cur=$2 line",
            "    case $kind in",
            "        file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;",
            "        words:*) mapfile -t COMPREPLY < <(compgen -W \"${kind#words:}\" -- \"$cur\") ;;",
            "        *) while IFS= read -r line; do",
            "               line=${line%%$'\\t'*}",
            "               [[ $line == \"$cur\"* ]] && COMPREPLY+=(\"$(printf '%q' \"$line\")\")",
            "           done < <(openurl __complete \"$kind\" 2>/dev/null) ;;",
            "    esac",
            "}",
            "",
            "_openurl() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    local command='' word position=0 skip=0 i",
            "    COMPREPLY=()",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        word=${COMP_WORDS[i]}",
            "        if ((skip)); then skip=0; continue; fi",
            "        if [[ -z $command ]]; then [[ $word == -* ]] || command=$word; continue; fi",
            "        case \"$command:$word\" in \(valuedOptions.joined(separator: "|"))) skip=1; continue ;; esac",
            "        [[ $word == -* ]] || ((position++))",
            "    done",
            "    if [[ -z $command ]]; then",
            "        if [[ $cur == -* ]]; then _openurl_candidates \(quoted("words:" + globalOptions.joined(separator: " "))) \"$cur\"",
            "        else _openurl_candidates \(quoted("words:" + commands.map(\.name).joined(separator: " "))) \"$cur\"; fi",
            "        return",
            "    fi",
            "    case \"$command:$prev\" in",
        ]
        for spec in commands {
            for option in spec.options where option.value != nil {
                out.append("        \(spec.name):\(option.name)) \(source(option.valueKind).map { "_openurl_candidates \(quoted($0)) \"$cur\"" } ?? ":"); return ;;")
            }
        }
        out += ["    esac", "    if [[ $cur == -* ]]; then", "        case $command in"]
        for spec in commands { out.append("            \(spec.name)) _openurl_candidates \(quoted("words:" + optionWords(spec))) \"$cur\" ;;") }
        out += ["        esac", "        return", "    fi", "    case \"$command:$position\" in"]
        for spec in commands {
            for (index, argument) in spec.arguments.enumerated() {
                guard let source = source(argument.kind) else { continue }
                out.append("        \(spec.name):\(index)) _openurl_candidates \(quoted(source)) \"$cur\" ;;")
            }
        }
        out += ["    esac", "}", "", "complete -F _openurl openurl", ""]
        return out.joined(separator: "\n")
    }

    static var zsh: String {
        var out = ["#compdef openurl", header, ""]
        out += [
            "_openurl_candidates() {",
            "    local kind=$1 line",
            "    local -a items",
            "    case $kind in",
            "        file) _files ;;",
            "        words:*) compadd -- ${=${kind#words:}} ;;",
            "        *) for line in ${(f)\"$(openurl __complete $kind 2>/dev/null)\"}; do",
            "               items+=(\"${${line%%$'\\t'*}//:/\\\\:}:${line#*$'\\t'}\")",
            "           done",
            "           _describe -t $kind $kind items ;;",
            "    esac",
            "}",
            "",
            "_openurl() {",
            "    local cur=${words[CURRENT]} prev=${words[CURRENT-1]}",
            "    local command='' word position=0 skip=0 i",
            "    for ((i = 2; i < CURRENT; i++)); do",
            "        word=${words[i]}",
            "        if ((skip)); then skip=0; continue; fi",
            "        if [[ -z $command ]]; then [[ $word == -* ]] || command=$word; continue; fi",
            "        case \"$command:$word\" in (\(valuedOptions.joined(separator: "|"))) skip=1; continue ;; esac",
            "        [[ $word == -* ]] || ((position++))",
            "    done",
            "    if [[ -z $command ]]; then",
            "        if [[ $cur == -* ]]; then compadd -- \(globalOptions.joined(separator: " "))",
            "        else",
            "            local -a commands",
            "            commands=(",
        ]
        for spec in commands { out.append("                \(quoted(spec.name + ":" + spec.summary.replacingEvery(":", with: "\\:")))") }
        out += [
            "            )",
            "            _describe -t commands 'openurl command' commands",
            "        fi",
            "        return",
            "    fi",
            "    case \"$command:$prev\" in",
        ]
        for spec in commands {
            for option in spec.options where option.value != nil {
                out.append("        (\(spec.name):\(option.name)) \(source(option.valueKind).map { "_openurl_candidates \(quoted($0))" } ?? ":"); return ;;")
            }
        }
        out += ["    esac", "    if [[ $cur == -* ]]; then", "        case $command in"]
        for spec in commands { out.append("            (\(spec.name)) compadd -- \(optionWords(spec)) ;;") }
        out += ["        esac", "        return", "    fi", "    case \"$command:$position\" in"]
        for spec in commands {
            for (index, argument) in spec.arguments.enumerated() {
                guard let source = source(argument.kind) else { continue }
                out.append("        (\(spec.name):\(index)) _openurl_candidates \(quoted(source)) ;;")
            }
        }
        out += ["    esac", "}", "", "_openurl \"$@\"", ""]
        return out.joined(separator: "\n")
    }

    static var fish: String {
        var out = [header, "# fish completion for openurl", ""]
        out += [
            "# The first word after openurl that is not an option: the command.",
            "function __openurl_command",
            "    for word in (commandline -opc)[2..-1]",
            "        string match -q -- '-*' $word; and continue",
            "        echo $word",
            "        return 0",
            "    end",
            "    return 1",
            "end",
            "",
            "function __openurl_is --argument-names name",
            "    set -l command (__openurl_command); or return 1",
            "    test \"$command\" = \"$name\"",
            "end",
            "",
            "# Whether the word being completed is positional argument INDEX (from 0) of COMMAND.",
            "function __openurl_position --argument-names command index",
            "    set -l words (commandline -opc)",
            "    set -l found 0",
            "    set -l position 0",
            "    set -l skip 0",
            "    for word in $words[2..-1]",
            "        if test $found = 0",
            "            string match -q -- '-*' $word; and continue",
            "            test \"$word\" = \"$command\"; or return 1",
            "            set found 1",
            "            continue",
            "        end",
            "        if test $skip = 1",
            "            set skip 0",
            "            continue",
            "        end",
            "        if contains -- \"$command:$word\" \(valuedOptions.joined(separator: " "))",
            "            set skip 1",
            "            continue",
            "        end",
            "        string match -q -- '-*' $word; or set position (math $position + 1)",
            "    end",
            "    test $found = 1 -a $skip = 0 -a $position = $index",
            "end",
            "",
            "complete -c openurl -f",
        ]
        for option in route.options {
            out.append("complete -c openurl -n 'not __openurl_command' \(option.short.map { "-s \($0.dropFirst()) " } ?? "")-l \(option.name.dropFirst(2)) -d \(quoted(option.summary))")
        }
        out.append("complete -c openurl -n 'not __openurl_command' -l version -d 'print the version'")
        for spec in commands {
            out.append("complete -c openurl -n 'not __openurl_command' -a \(spec.name) -d \(quoted(spec.summary))")
        }
        for spec in commands {
            let condition = quoted("__openurl_is \(spec.name)")
            for option in spec.options {
                var line = "complete -c openurl -n \(condition) \(option.short.map { "-s \($0.dropFirst()) " } ?? "")-l \(option.name.dropFirst(2))"
                if option.value != nil {
                    switch option.valueKind {
                    case .file: line += " -r -F"
                    case let kind: line += " -x" + (fishArguments(kind).map { " -a \($0)" } ?? "")
                    }
                }
                out.append(line + " -d \(quoted(option.summary))")
            }
            out.append("complete -c openurl -n \(condition) -s h -l help -d 'show this help'")
            for (index, argument) in spec.arguments.enumerated() {
                let position = quoted("__openurl_position \(spec.name) \(index)")
                if argument.kind == .file { out.append("complete -c openurl -n \(position) -F"); continue }
                guard let arguments = fishArguments(argument.kind) else { continue }
                out.append("complete -c openurl -n \(position) -a \(arguments)")
            }
        }
        out.append("")
        return out.joined(separator: "\n")
    }

    static func fishArguments(_ kind: ArgumentKind) -> String? {
        switch kind {
        case .free, .file: return nil
        case .words(let words): return quoted(words.joined(separator: " "))
        case .command: return quoted(commands.map(\.name).joined(separator: " "))
        case .ruleName: return quoted("(openurl __complete rules 2>/dev/null)")
        case .recentID: return quoted("(openurl __complete recent 2>/dev/null)")
        case .target: return quoted("(openurl __complete targets 2>/dev/null)")
        }
    }
}

import JSON
import OpenurlCommands
import Platform
import ConfigLanguage

/// The generated parts of the scdoc man pages (`openurl __generate man-…`): the synopsis and
/// command reference of openurl(1) from the command table, and the key reference of
/// openurld.toml(5) from the config's schema table. `make man` splices them into man/*.scd.
enum ManPages {
    /// Escapes scdoc's formatting characters in plain text.
    static func escape(_ text: String) -> String {
        text.replacingEvery("\\", with: "\\\\").replacingEvery("*", with: "\\*").replacingEvery("_", with: "\\_")
    }

    /// `*openurl test* [*--json*] [*--config* _FILE_] _URL_`.
    static func synopsis(_ spec: CommandSpec) -> String {
        var words = ["*openurl" + (spec.name.isEmpty ? "" : " " + escape(spec.name)) + "*"]
        words += spec.options.map { option in
            let short = option.short.map { "*\($0)*|" } ?? ""
            return "[" + short + "*\(escape(option.name))*" + (option.value.map { " _\($0)_" } ?? "") + "]"
        }
        if let literal = spec.argumentSynopsis {
            words.append(styled(literal))
        } else {
            words += spec.arguments.map { argument in
                let text = "_\(argument.name)_" + (argument.repeats ? "..." : "")
                return argument.optional ? "[\(text)]" : text
            }
        }
        return words.joined(separator: " ")
    }

    /// Literal lowercase words bold, uppercase placeholders underlined: `[*enable*|*disable* _NAME_]`.
    static func styled(_ synopsis: String) -> String {
        var out = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            out += word.allSatisfy(\.isUppercase) ? "_\(word)_" : "*\(escape(word))*"
            word = ""
        }
        for character in synopsis {
            if character.isLetter || character == "-" { word.append(character) } else { flush(); out.append(character) }
        }
        flush()
        return out
    }

    /// The SYNOPSIS section's body.
    static var synopsisSection: String {
        CommandTable.visible.map { synopsis($0) }.joined(separator: "\n\n")
    }

    /// The COMMANDS section's body: each command's synopsis, details and options.
    static var commandsSection: String {
        var out: [String] = []
        for spec in CommandTable.visible {
            out.append(synopsis(spec))
            out.append("\t" + escape(spec.details))
            for option in spec.options {
                out += ["", "\t*" + (option.short.map { "\($0)*, *" } ?? "") + escape(option.name) + "*" + (option.value.map { " _\($0)_" } ?? ""),
                        "\t\t" + escape(option.summary)]
            }
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    /// The key reference of openurld.toml(5): one subsection per table, every key with its type,
    /// meaning and an example.
    static var configSection: String {
        let sections: [(String, [ConfigKey])] = [
            ("[settings]", ConfigSchema.settings), ("[default]", ConfigSchema.defaults), ("[apps.NAME]", ConfigSchema.app),
            ("[webmail.NAME]", ConfigSchema.webmail), ("[[rewrite]]", ConfigSchema.rewrite), ("replace (in [[rewrite]])", ConfigSchema.replace),
            ("[[rules]]", ConfigSchema.rule), ("match (in [[rules]] and [[rewrite]])", ConfigSchema.matchers), ("[[redirector]]", ConfigSchema.redirector),
            ("[[sitelist]]", ConfigSchema.sitelist),
        ]
        var out: [String] = []
        for (title, keys) in sections {
            out += ["## " + escape(title), ""]
            for key in keys {
                out += ["*\(escape(key.name))* (\(escape(typeName(key.type))))", "\t" + escape(key.doc), "",
                        "\tExample: *\(escape(key.name)) = \(escape(key.example))*", ""]
            }
        }
        return out.joined(separator: "\n")
    }

    static func typeName(_ type: ConfigType) -> String {
        switch type {
        case .string: return "string"
        case .boolean: return "boolean"
        case .strings: return "list of strings"
        case .list(let item): return "list of " + typeName(item)
        case .stringOrStrings: return "string or list of strings"
        case .integer(let range): return "integer, \(range.lowerBound) to \(range.upperBound)"
        case .oneOf(let words): return words.map { "\"\($0)\"" }.joined(separator: " | ")
        case .trueOnly: return "true"
        case .either(let types): return types.map(typeName).joined(separator: ", or ")
        case .table: return "table"
        case .named(let value): return "table of NAME = \(typeName(value))"
        case .tables: return "array of tables"
        case .matchTable: return "table of matchers"
        }
    }
}

extension Client {
    /// `openurl __generate WHAT`: what the build installs, printed from the tables.
    func runGenerate(_ what: String) -> Int32 {
        switch what {
        case "bash": Output.print(Completions.bash)
        case "zsh": Output.print(Completions.zsh)
        case "fish": Output.print(Completions.fish)
        case "man-synopsis": Output.print(ManPages.synopsisSection)
        case "man-commands": Output.print(ManPages.commandsSection)
        case "man-config": Output.print(ManPages.configSection)
        case "schema": Output.print(ConfigSchema.jsonSchema.text)
        default: return fail("__generate: expected bash, zsh, fish, man-synopsis, man-commands, man-config or schema", code: ExitCode.usage)
        }
        return ExitCode.success
    }
}

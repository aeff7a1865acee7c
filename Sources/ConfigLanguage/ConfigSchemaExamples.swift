/// One small config per key of the schema table, built from the key's example: the tests load
/// each with the loader and validate it against the JSON Schema, so the two cannot drift apart.
/// `browser` and `profile` name Google Chrome with a profile called Work: the loader checks them
/// against discovered browsers, so the tests load them with a catalogue that has it.
extension ConfigSchema {
    /// A key's dotted path (`rules.match.domain`) and a whole config that uses it.
    public struct KeyExample: Sendable {
        /// Where the key is, as `settings.clipboard` or `rules.match.domain`.
        public let path: String
        /// A complete config text setting the key to its example value.
        public let toml: String
    }

    /// A table of the config, the header that opens it, and the keys it needs besides the one
    /// under test (a rule needs an action, a redirector a host and params).
    private struct TableExample {
        let path: String
        let header: String
        let keys: [ConfigKey]
        let required: [(String, String)]
        /// Keys that exclude each other: giving one removes the others from `required`.
        let exclusive: [String]
    }

    private static var tableExamples: [TableExample] {
        let actionNames = actions.map(\.name)
        return [
            TableExample(path: "settings", header: "[settings]", keys: settings, required: [], exclusive: []),
            TableExample(path: "default", header: "[default]", keys: defaults, required: [], exclusive: []),
            TableExample(path: "apps.NAME", header: "[apps.example]", keys: app, required: [("desktop", "\"a.desktop\"")],
                         exclusive: ["desktop", "exec", "browser"]),
            TableExample(path: "webmail.NAME", header: "[webmail.example]", keys: webmail, required: [], exclusive: []),
            TableExample(path: "rewrite", header: "[[rewrite]]", keys: rewrite, required: [("template", "\"{url}\"")], exclusive: ["replace", "template"]),
            TableExample(path: "rewrite.replace", header: "[[rewrite]]\n[rewrite.replace]", keys: replace,
                         required: [("from", "\"x\""), ("to", "\"y\"")], exclusive: []),
            TableExample(path: "rules", header: "[[rules]]", keys: rule, required: [("open", "\"system\"")], exclusive: actionNames),
            TableExample(path: "rules.match", header: "[[rules]]\nopen = \"system\"\n[rules.match]", keys: matchers, required: [], exclusive: []),
            TableExample(path: "sitelist", header: "[[sitelist]]", keys: sitelist,
                         required: [("path", "\"/etc/openurld/sites.xml\""), ("format", "\"emie-v2\""), ("open", "\"system\"")], exclusive: ["open", "greylist"]),
            TableExample(path: "redirector", header: "[[redirector]]", keys: redirector,
                         required: [("host", "\"go.example.com\""), ("params", "[\"url\"]")], exclusive: []),
        ]
    }

    /// Every key of every table (and each top-level key alone), each in a config of its own.
    public static var keyExamples: [KeyExample] {
        var examples = top.map { KeyExample(path: $0.name, toml: "\($0.name) = \($0.example)\n") }
        for table in tableExamples {
            for key in table.keys {
                // Exclusive keys leave room for the one under test; an exec app drops the args it would need.
                var lines = table.required.filter { required in
                    required.0 != key.name && !(table.exclusive.contains(key.name) && table.exclusive.contains(required.0))
                }
                if key.name == "exec" || key.name == "browser" { lines.removeAll { $0.0 == "desktop" } }
                if key.name == "profile" { lines = [("browser", "\"google-chrome\"")] }
                lines.append((key.name, key.example))
                examples.append(KeyExample(path: "\(table.path).\(key.name)",
                                           toml: table.header + "\n" + lines.map { "\($0.0) = \($0.1)" }.joined(separator: "\n") + "\n"))
            }
        }
        return examples
    }
}

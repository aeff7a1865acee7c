import Testing
import ConfigLanguage
import JSON
import RoutingCore

/// The schema table and the loader agree: every key the table lists loads from its example,
/// a misspelt key is rejected with the nearest name, and the JSON Schema covers each table.
@Suite struct ConfigSchemaTests {
    /// Loaded as a file of the system configuration, which takes every key (`locked` and
    /// `recommended` too, which a user's file refuses).
    @Test(arguments: ConfigSchema.keyExamples.map { ($0.path, $0.toml) })
    func everyKeyLoadsFromItsExample(path: String, toml: String) throws {
        var base = Config(path: "example.toml")
        base.catalog = testCatalog
        do {
            _ = try ConfigLoader.load(text: toml, path: "example.toml", layer: .system, over: base).finishingLayers()
        } catch {
            Issue.record("\(path): the loader rejects the schema's example:\n\(toml)\n\(error.description)")
        }
    }

    @Test(arguments: [
        ("[settings]\ncleen = true\n", "unknown key \"cleen\" in [settings]; did you mean \"clean\"?"),
        ("[[rules]]\nopen = \"system\"\nmatch.domian = \"x.org\"\n", "did you mean \"domain\"?"),
        ("[apps.work]\ndesktp = \"a.desktop\"\n", "did you mean \"desktop\"?"),
        ("[[redirector]]\nhost = \"a\"\nparams = [\"u\"]\nparam = [\"x\"]\n", "did you mean \"params\"?"),
    ])
    func misspeltKeysAreRejectedWithTheNearestName(toml: String, message: String) {
        #expect(throws: ConfigError.self) { try ConfigLoader.load(text: toml, path: "c.toml") }
        do { _ = try ConfigLoader.load(text: toml, path: "c.toml") } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func theJSONSchemaNamesEveryKeyWithItsDoc() {
        let text = ConfigSchema.jsonSchema.text
        #expect(text.hasPrefix("{\"$schema\":\"http://json-schema.org/draft-07/schema#\""))
        for table in [ConfigSchema.settings, ConfigSchema.rule, ConfigSchema.matchers, ConfigSchema.app, ConfigSchema.webmail,
                      ConfigSchema.rewrite, ConfigSchema.replace, ConfigSchema.redirector, ConfigSchema.sitelist, ConfigSchema.top] {
            for key in table {
                #expect(text.contains("\"\(key.name)\":{\"description\":"), "\(key.name) is missing from the JSON Schema")
            }
        }
        #expect(!text.contains("\"additionalProperties\":true"))
    }
}

import JSON

/// The JSON Schema (draft 7) of `config.toml`, generated from the schema table, for TOML editors
/// (taplo, Even Better TOML) and `check-jsonschema`. Installed as `share/openurld/config.schema.json`.
extension ConfigSchema {
    /// The whole schema document.
    public static var jsonSchema: JSONValue {
        guard case .object(let members) = schema(for: .table(top), doc: "") else { return .null }
        return .object([
            ("$schema", .string("http://json-schema.org/draft-07/schema#")),
            ("title", .string("openurld config.toml")),
            ("description", .string("The rules of openurld, the link router (see openurld.toml(5)).")),
        ] + members.filter { $0.0 != "description" } + [
            ("definitions", .object([("match", .object(object(matchers)))])),
        ])
    }

    static func schema(for type: ConfigType, doc: String) -> JSONValue {
        var members: [(String, JSONValue)] = doc.isEmpty ? [] : [("description", .string(doc))]
        switch type {
        case .string: members.append(("type", .string("string")))
        case .boolean: members.append(("type", .string("boolean")))
        case .strings: members += stringArray
        case .list(let item): members += [("type", .string("array")), ("items", schema(for: item, doc: ""))]
        case .stringOrStrings: members.append(("anyOf", .array([.object([("type", .string("string"))]), .object(stringArray)])))
        case .integer(let range):
            members += [("type", .string("integer")), ("minimum", .number(range.lowerBound)), ("maximum", .number(range.upperBound))]
        case .oneOf(let words): members += [("type", .string("string")), ("enum", .array(words.map { .string($0) }))]
        case .trueOnly: members.append(("const", .bool(true)))
        case .either(let types): members.append(("anyOf", .array(types.map { schema(for: $0, doc: "") })))
        case .table(let keys): members += object(keys)
        case .matchTable: members.append(("$ref", .string("#/definitions/match")))
        case .named(let value): members += [("type", .string("object")), ("additionalProperties", schema(for: value, doc: ""))]
        case .tables(let keys):
            var item = object(keys)
            // A rule gives exactly one action, as the loader demands.
            if keys.contains(where: { $0.name == "match" }), keys.contains(where: { $0.name == "open" }) {
                item.append(("oneOf", .array(actions.map { .object([("required", .array([.string($0.name)]))]) })))
            }
            // A site list names its file and format, and either a target or that it is a greylist.
            if keys.contains(where: { $0.name == "format" }), keys.contains(where: { $0.name == "greylist" }) {
                item.append(("required", .array([.string("path"), .string("format")])))
                item.append(("oneOf", .array([
                    .object([("required", .array([.string("open")]))]),
                    .object([("required", .array([.string("greylist")])), ("properties", .object([("greylist", .object([("const", .bool(true))]))]))]),
                ])))
            }
            members += [("type", .string("array")), ("items", .object(item))]
        }
        return .object(members)
    }

    private static let stringArray: [(String, JSONValue)] = [("type", .string("array")), ("items", .object([("type", .string("string"))]))]

    private static func object(_ keys: [ConfigKey]) -> [(String, JSONValue)] {
        [("type", .string("object")),
         ("properties", .object(keys.map { ($0.name, schema(for: $0.type, doc: $0.doc)) })),
         ("additionalProperties", .bool(false))]
    }
}

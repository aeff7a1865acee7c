import DBus
import RouterContract
import Testing

/// `ConfigSources`' entries: what the daemon encodes, `openurl status` decodes back, and a
/// missing or mistyped field is nil for that field only (status shows `?`), a bad entry is
/// left out without losing the others.
@Suite struct ConfigSourceDescriptionTests {
    static let config = ConfigSourceDescription(layer: "system", path: "/etc/xdg/openurld/config.toml", kind: "config", problem: "",
                                                lastGood: false, rules: 3)
    static let siteList = ConfigSourceDescription(layer: "system", path: "/etc/sites.xml", kind: "sitelist", problem: "bad line 2",
                                                  lastGood: true, rules: 1, name: "legacy", format: "emie-v2", version: "",
                                                  entries: 12, greylist: true, namedAt: "/etc/xdg/openurld/config.toml:4")

    @Test(arguments: [config, siteList])
    func roundTrips(source: ConfigSourceDescription) throws {
        #expect(try ConfigSourceDescription(dbusValue: source.dbusValue) == source)
        #expect(ConfigSourceDescription.list(.array(elementSignature: "a{sv}", [source.dbusValue, source.dbusValue])) == [source, source])
    }

    @Test func theKeysAndTheirOrderAreTheWireFormat() {
        #expect(Self.config.dbusValue.dictionaryEntries?.compactMap(\.key.string) == ["layer", "path", "kind", "problem", "last_good", "rules"])
        #expect(Self.siteList.dbusValue.dictionaryEntries?.compactMap(\.key.string)
                == ["layer", "path", "kind", "problem", "last_good", "rules", "name", "format", "version", "entries", "greylist", "named_at"])
    }

    @Test(arguments: [
        ("layer", nil, { $0.layer == nil }),
        ("path", DBusValue.uint32(1), { $0.path == nil }),
        ("entries", DBusValue.string("12"), { $0.entries == nil }),
        ("greylist", DBusValue.string("yes"), { $0.greylist == nil }),
        ("named_at", nil, { $0.namedAt == nil }),
    ] as [(String, DBusValue?, @Sendable (ConfigSourceDescription) -> Bool)])
    func aMissingOrMistypedFieldIsNilAndTheRestIsKept(key: String, replacement: DBusValue?, isUnset: @Sendable (ConfigSourceDescription) -> Bool) throws {
        var entries = Self.siteList.dbusValue.dictionary ?? [:]
        entries[key] = replacement
        let decoded = try ConfigSourceDescription(dbusValue: .vardict(entries))
        #expect(isUnset(decoded))
        #expect(decoded.kind == "sitelist" && decoded.rules == 1 && decoded.format == "emie-v2")
    }

    @Test func aBadEntryIsLeftOutAndTheOthersKept() {
        let reply = DBusValue.array(elementSignature: "v", [Self.config.dbusValue, .string("junk"), Self.siteList.dbusValue])
        #expect(ConfigSourceDescription.list(reply) == [Self.config, Self.siteList])
        #expect(ConfigSourceDescription.list(.string("x")) == [])
        #expect(ConfigSourceDescription.list(nil) == [])
        #expect(throws: ContractError("ConfigSources entry", "must be a{sv}")) { try ConfigSourceDescription(dbusValue: .uint32(1)) }
    }
}

import DBus
import Foundation
import TestSupport
import Testing

/// A value typed as GVariant text for `gdbus call`, and how gdbus prints our reply.
struct GVariantCase: CustomTestStringConvertible, Sendable {
    let label: String
    let input: String
    let output: String
    var testDescription: String { label }
}

@Suite struct ToolInteropTests {
    static let gdbusCases: [GVariantCase] = [
        GVariantCase(label: "byte", input: "0xff", output: "(byte 0xff,)"),
        GVariantCase(label: "bool true", input: "true", output: "(true,)"),
        GVariantCase(label: "int16", input: "-5", output: "(int16 -5,)"),
        GVariantCase(label: "uint16", input: "65535", output: "(uint16 65535,)"),
        GVariantCase(label: "int32 min", input: "-2147483648", output: "(-2147483648,)"),
        GVariantCase(label: "uint32 max", input: "4294967295", output: "(uint32 4294967295,)"),
        GVariantCase(label: "int64 min", input: "-9223372036854775808", output: "(int64 -9223372036854775808,)"),
        GVariantCase(label: "uint64 max", input: "18446744073709551615", output: "(uint64 18446744073709551615,)"),
        GVariantCase(label: "double", input: "-3.25", output: "(-3.25,)"),
        GVariantCase(label: "string unicode", input: "'héllo ✓'", output: "('héllo ✓',)"),
        GVariantCase(label: "object path", input: "'/a/b'", output: "(objectpath '/a/b',)"),
        GVariantCase(label: "signature", input: "'a{sv}'", output: "(signature 'a{sv}',)"),
        GVariantCase(label: "variant", input: "<int32 7>", output: "(<7>,)"),
        GVariantCase(label: "as", input: "['a', 'b']", output: "(['a', 'b'],)"),
        GVariantCase(label: "as empty", input: "[]", output: "(@as [],)"),
        GVariantCase(label: "a{sv}", input: "{'k': <'v'>, 'n': <uint32 3>}", output: "({'k': <'v'>, 'n': <uint32 3>},)"),
        GVariantCase(label: "a(sisb)", input: "[('r', 1, 'open', true)]", output: "([('r', 1, 'open', true)],)"),
        GVariantCase(label: "a(ss)", input: "[('a', 'b')]", output: "([('a', 'b')],)"),
        GVariantCase(label: "aa{sv}", input: "[{'id': <uint32 3>}]", output: "([{'id': <uint32 3>}],)"),
    ]

    @Test(arguments: gdbusCases)
    func gdbusRoundTrip(_ item: GVariantCase) throws {
        let fixture = try ServiceFixture(interfaces: [echoInterface()])
        let index = try #require(valueCases.firstIndex { $0.label == item.label })
        let result = try fixture.run([
            "gdbus", "call", "--session", "--dest", TestService.name, "--object-path", TestService.path,
            "--method", "\(TestService.interface).Echo\(index)", "--", item.input,
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == item.output, "\(result)")
    }

    @Test func dbusSendRoundTrip() throws {
        let fixture = try ServiceFixture(interfaces: [echoInterface()])
        let stringIndex = try #require(valueCases.firstIndex { $0.signature == "s" })
        let result = try fixture.run([
            "dbus-send", "--session", "--print-reply", "--dest=\(TestService.name)", TestService.path,
            "\(TestService.interface).Echo\(stringIndex)", "string:hello world",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("string \"hello world\""), "\(result)")

        let dictIndex = try #require(valueCases.firstIndex { $0.signature == "a{sv}" })
        let dict = try fixture.run([
            "dbus-send", "--session", "--print-reply", "--dest=\(TestService.name)", TestService.path,
            "\(TestService.interface).Echo\(dictIndex)", "dict:string:string:k,hello",
        ])
        // dbus-send cannot express a{sv} values; it sends a{ss}, which must be refused cleanly.
        #expect(dict.status != 0)
        #expect(dict.stderr.contains("InvalidArgs"), "\(dict)")
        #expect(dict.stderr.contains("expects (a{sv}), got (a{ss})"), "\(dict)")
    }

    @Test func dbusSendSeesInvalidArgsWithAPreciseMessage() throws {
        let fixture = try makeRouterFixture()
        let result = try fixture.run([
            "dbus-send", "--session", "--print-reply", "--dest=\(TestService.name)", TestService.path,
            "\(TestService.interface).Open", "int32:1",
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(result)")
        #expect(result.stderr.contains("Open expects (sa{sv}), got (i)"), "\(result)")
    }

    @Test func gdbusIntrospectShowsSignatures() throws {
        let fixture = try makeRouterFixture()
        let result = try fixture.run(["gdbus", "introspect", "--session", "--dest", TestService.name, "--object-path", TestService.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Open(in  s url,"), "\(result.stdout)")
        #expect(result.stdout.contains("in  a{sv} options,"))
        #expect(result.stdout.contains("out a{sv} result);"))
        #expect(result.stdout.contains("readwrite u Counter"))
        #expect(result.stdout.contains("Routed(s url,"))
    }

    @Test func gdbusPropertiesAndPing() throws {
        let counter = Locked<UInt32>(1)
        let fixture = try makeRouterFixture(counter: counter)
        func gdbus(_ method: String, _ args: [String]) throws -> ToolResult {
            try fixture.run(["gdbus", "call", "--session", "--dest", TestService.name, "--object-path", TestService.path,
                             "--method", method] + args)
        }
        let set = try gdbus("org.freedesktop.DBus.Properties.Set", [TestService.interface, "Counter", "<uint32 42>"])
        #expect(set.status == 0, "\(set)")
        #expect(counter.value == 42)
        let get = try gdbus("org.freedesktop.DBus.Properties.Get", [TestService.interface, "Version"])
        #expect(get.stdout.contains("<'1.2.3'>"), "\(get)")
        let ping = try gdbus("org.freedesktop.DBus.Peer.Ping", [])
        #expect(ping.status == 0, "\(ping)")
    }

    @Test func invalidUTF8FromAnotherClientDoesNotHurtTheService() throws {
        let fixture = try makeRouterFixture()
        // Swift strings cannot hold invalid UTF-8, so the raw bytes come from printf in a fixed shell line.
        let script = "exec dbus-send --session --print-reply --dest=\(TestService.name) \(TestService.path) "
            + "\(TestService.interface).Open \"string:$(printf 'a\\377b')\" dict:string:string:a,b"
        let bad = try fixture.run(["/bin/sh", "-c", script])
        // dbus-send refuses the string (its libdbus validates); the service never sees it.
        #expect(bad.status != 0, "\(bad)")
        #expect(try fixture.call("Ping", interface: "org.freedesktop.DBus.Peer") == [])
    }

    @Test func serviceDirectoryIsUsedForActivation() throws {
        let bus = try PrivateBus()
        try bus.addService(name: "io.github.openurld.Missing", exec: ["/nonexistent/openurld-test-binary"])
        let client = try bus.connect()
        let error = try #require(throws: DBusError.self) {
            try client.call(destination: "io.github.openurld.Missing", path: "/", interface: "org.freedesktop.DBus.Peer",
                            method: "Ping", timeout: 10)
        }
        // The bus found the .service file and tried to exec it (not ServiceUnknown).
        #expect(error.name.hasPrefix("org.freedesktop.DBus.Error.Spawn"), "\(error)")
    }
}

import DBus
import RouterContract
import Testing
import RoutingCore
import ConfigLanguage
import Routing
import JSON

/// The Router1 contract: its names (defined once, in `CRouterContract/router1.h`, which the
/// Embedded handler reads too), the decision's two encodings, and the options' reader.
@Suite struct RouterContractTests {
    static let engine: RuleEngine = {
        let text = """
            [apps.work]
            exec = ["work-browser", "{url}"]

            [[rules]]
            name = "ask"
            match.domain = "ask.example"
            ask = ["firefox.desktop", "work", "copy"]
            """
        do { return RuleEngine(config: try ConfigLoader.load(text: text, path: "config.toml")) } catch {
            fatalError("config failed: \(error)")
        }
    }()

    @Test func theNamesAreTheDocumentedOnes() {
        #expect(Router1.busName == "io.github.openurld")
        #expect(Router1.objectPath == "/io/github/openurld")
        #expect(Router1.interface == "io.github.openurld.Router1")
        #expect(Router1.desktopID == "io.github.openurld.desktop")
        #expect(ClickEnvironment.names == ["DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "XAUTHORITY"])
        #expect(ClickDeadline.clientTimeout == 2 && ClickDeadline.margin == 0.5)
    }

    @Test func jsonHasExactlyTheDesignKeys() throws {
        let decision = try Self.engine.decide("https://ask.example/", explain: true)
        guard case .object(let members) = decision.json else { Issue.record("not an object"); return }
        #expect(members.map(\.0) == ["url", "final_url", "decision", "target", "rule", "copy_text", "choices", "safety", "trace"])
        #expect(decision.json.text.contains("\"choices\":[\"firefox.desktop\",\"work\",\"copy\"]"))
        #expect(decision.json.text.contains("\"rule\":\"ask\""))
    }

    @Test func theDBusResultHasTheJSONKeysThatHoldAValue() throws {
        let decision = try Self.engine.decide("https://ask.example/")
        let result = decision.dbusResult(extra: [(Router1.Result.outcome, .string("asking"))]).dictionary ?? [:]
        #expect(Set(result.keys) == ["url", "final_url", "decision", "rule", "choices", "safety", "trace", "outcome"])
        #expect(result["choices"]?.stringArray == ["firefox.desktop", "work", "copy"])
    }

    @Test(arguments: [
        ("org.freedesktop.DBus.Error.ServiceUnknown", true), ("org.freedesktop.DBus.Error.Spawn.ChildExited", true),
        ("org.freedesktop.systemd1.NoSuchUnit", true), ("org.freedesktop.DBus.Error.NoReply", true),
        ("org.freedesktop.DBus.Error.InvalidArgs", false), ("io.github.openurld.Error.Failed", false),
    ])
    func serviceUnavailableErrors(name: String, unavailable: Bool) {
        #expect(DBusError(name: name, message: "").meansServiceUnavailable == unavailable)
    }

    @Test(arguments: [
        ([("ask", DBusValue.string("yes"))], "Open: option ask must be a boolean (b)"),
        ([("deadline", .uint32(1))], "Open: option deadline must be a uint64 (t)"),
        ([("activation-token", .bool(true))], "Open: option activation-token must be a string (s)"),
        ([("context", .string("paypal.com"))], "Open: option context must be a{sv}"),
        ([("context", .vardict(pairs: [("link-text", .uint32(1))]))], "Open: context link-text must be a string (s)"),
        ([("context", .vardict(pairs: [("origin-url", .string(String(repeating: "x", count: 70_000)))]))], "Open: context origin-url is over 64 KiB"),
    ] as [([(String, DBusValue)], String)])
    func optionsOfTheWrongTypeAreRefused(pairs: [(String, DBusValue)], message: String) {
        #expect(throws: DBusError.invalidArgs(message)) { try OpenOptions(.vardict(pairs: pairs), method: "Open") }
    }

    @Test func optionsAreRead() throws {
        let options = try OpenOptions(.vardict(pairs: [
            ("desktop-startup-id", .string("t1")), ("ask", .bool(true)), ("deadline", .uint64(42)), ("future-option", .string("x")),
            ("environment", .dictionary(keySignature: "s", valueSignature: "s", [
                DBusDictEntry(key: .string("DISPLAY"), value: .string(":1")), DBusDictEntry(key: .string("PATH"), value: .string("/evil")),
            ])),
        ]), method: "Open")
        #expect(options.activationToken == "t1" && options.ask && options.deadline == 42)
        #expect(options.environment == ["DISPLAY": ":1"])
    }

    @Test func theContextOptionCarriesLinkTextAndOrigin() throws {
        #expect(Router1.Option.context == "context" && Router1.Context.linkText == "link-text" && Router1.Context.originURL == "origin-url")
        let options = try OpenOptions(.vardict(pairs: [
            ("context", .vardict(pairs: [("link-text", .string("paypal.com")), ("origin-url", .string("https://mail.example/")), ("later", .bool(true))])),
        ]), method: "Open")
        #expect(options.context == LinkContext(linkText: "paypal.com", originURL: "https://mail.example/"))
        #expect(try OpenOptions(.vardict(pairs: []), method: "Open").context == nil)
    }

    /// The `safety` result key: the JSON object as `a{sv}`, reasons as `aa{sv}`.
    @Test func theSafetyResultIsAnObjectInBothEncodings() throws {
        let decision = try Self.engine.decide("https://evil.example/", context: LinkContext(linkText: "paypal.com"))
        #expect(Router1.Result.safety == "safety")
        let safety = try #require(decision.dbusResult().dictionary?["safety"]?.dictionary)
        #expect(safety["verdict"]?.string == "warn")
        #expect(safety["action"]?.string == "notify")
        #expect(safety["shown_host"]?.string == "evil.example")
        #expect(safety["shows_unicode"]?.bool == false)
        let reasons = try #require(safety["reasons"]?.array)
        #expect(reasons.first?.dictionary?["kind"]?.string == "link-text-mismatch")
        #expect(decision.json["safety"]?["verdict"]?.string == "warn")
        let safe = try Self.engine.decide("https://example.org/").dbusResult().dictionary?["safety"]?.dictionary
        #expect(safe?["verdict"]?.string == "safe")
        #expect(safe?["reasons"] == nil)
    }
}

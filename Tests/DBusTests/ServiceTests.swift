import DBus
import Foundation
import FoundationXML
import TestSupport
import Testing

struct Oops: Error, CustomStringConvertible {
    var description: String { "something broke" }
}

/// A Router1-like interface exercising every dispatch path.
func routerInterface(counter: Locked<UInt32>, object: @escaping () -> DBusObject?) -> DBusInterface {
    DBusInterface(
        name: TestService.interface,
        methods: [
            DBusMethod(
                "Open", inputs: [DBusArgument("url", "s"), DBusArgument("options", "a{sv}")],
                outputs: [DBusArgument("result", "a{sv}")]
            ) { args, _ in
                let opener = args[1].dictionary?["opener"]?.string ?? ""
                return [.vardict(["url": args[0], "opener": .string(opener)])]
            },
            DBusMethod("Fail", inputs: [DBusArgument("name", "s"), DBusArgument("message", "s")]) { args, _ in
                throw DBusError(name: args[0].string ?? "", message: args[1].string ?? "")
            },
            DBusMethod("Crash") { _, _ in throw Oops() },
            DBusMethod("BadReturn", outputs: [DBusArgument("text", "s")]) { _, _ in [.int32(1)] },
            DBusMethod("CallerPID", outputs: [DBusArgument("pid", "u")]) { _, context in
                [.uint32(try context.callerProcessID())]
            },
            DBusMethod("Later", inputs: [DBusArgument("ms", "u")], outputs: [DBusArgument("text", "s")]) { args, context in
                let reply = context.deferReply()
                let ms = args[0].uint32 ?? 0
                Thread.detachNewThread {
                    usleep(ms * 1000)
                    reply.send([.string("after \(ms) ms")])
                }
                return []
            },
            DBusMethod("Drop") { _, context in
                _ = context.deferReply()
                return []
            },
            DBusMethod("EmitRouted", inputs: [DBusArgument("url", "s")]) { args, context in
                try object()?.emit(
                    "Routed", interface: TestService.interface,
                    arguments: [args[0], .string("open"), .string("firefox.desktop"), .string("rule 1")],
                    on: context.connection)
                return []
            },
        ],
        properties: [
            DBusProperty("Version", signature: "s") { .string("1.2.3") },
            DBusProperty("Counter", signature: "u", get: { .uint32(counter.value) }, set: { value in
                counter.value = value.uint32 ?? 0
            }),
        ],
        signals: [
            DBusSignalDeclaration("Routed", arguments: [
                DBusArgument("url", "s"), DBusArgument("decision", "s"), DBusArgument("target", "s"),
                DBusArgument("rule", "s"),
            ])
        ])
}

func makeRouterFixture(counter: Locked<UInt32> = Locked(0)) throws -> ServiceFixture {
    let holder = Locked<DBusObject?>(nil)
    let fixture = try ServiceFixture(interfaces: [routerInterface(counter: counter) { holder.value }])
    holder.value = fixture.object
    return fixture
}

struct ErrorCase: CustomTestStringConvertible, Sendable {
    let method: String
    let arguments: [DBusValue]
    let interface: String?
    let errorName: String
    let messageContains: String
    var testDescription: String { "\(method) → \(errorName)" }
}

@Suite struct ServiceDispatchTests {
    static let errorCases: [ErrorCase] = [
        ErrorCase(method: "Open", arguments: [.int32(1)], interface: TestService.interface,
                  errorName: DBusError.Name.invalidArgs, messageContains: "Open expects (sa{sv}), got (i)"),
        ErrorCase(method: "Open", arguments: [], interface: TestService.interface,
                  errorName: DBusError.Name.invalidArgs, messageContains: "Open expects (sa{sv}), got ()"),
        ErrorCase(method: "Nope", arguments: [], interface: TestService.interface,
                  errorName: DBusError.Name.unknownMethod, messageContains: "Nope"),
        ErrorCase(method: "Open", arguments: [], interface: "io.github.Missing",
                  errorName: DBusError.Name.unknownInterface, messageContains: "io.github.Missing"),
        ErrorCase(method: "Fail", arguments: [.string("io.github.openurld.Error.Config"), .string("config.toml:3:1: bad")],
                  interface: TestService.interface,
                  errorName: "io.github.openurld.Error.Config", messageContains: "config.toml:3:1: bad"),
        ErrorCase(method: "Fail", arguments: [.string("not an error name"), .string("m")], interface: TestService.interface,
                  errorName: DBusError.Name.failed, messageContains: "m"),
        ErrorCase(method: "Crash", arguments: [], interface: TestService.interface,
                  errorName: DBusError.Name.failed, messageContains: "something broke"),
        ErrorCase(method: "BadReturn", arguments: [], interface: TestService.interface,
                  errorName: DBusError.Name.failed, messageContains: "returned (i), declared (s)"),
        ErrorCase(method: "Drop", arguments: [], interface: TestService.interface,
                  errorName: DBusError.Name.failed, messageContains: "unanswered"),
    ]

    @Test(arguments: errorCases)
    func errorsBecomeProperReplies(_ item: ErrorCase) throws {
        let fixture = try makeRouterFixture()
        let error = try #require(throws: DBusError.self) { try fixture.call(item.method, item.arguments, interface: item.interface) }
        #expect(error.name == item.errorName)
        #expect(error.message.contains(item.messageContains), "\(error)")
    }

    @Test func callWithoutInterfaceFindsTheMethod() throws {
        let fixture = try makeRouterFixture()
        let reply = try fixture.call("Open", [.string("https://a"), .vardict(["opener": .string("slack")])], interface: nil)
        #expect(reply.first?.dictionary?["opener"]?.string == "slack")
        #expect(reply.first?.dictionary?["url"]?.string == "https://a")
    }

    @Test func callerProcessIDIsOurs() throws {
        let fixture = try makeRouterFixture()
        #expect(try fixture.call("CallerPID") == [.uint32(UInt32(getpid()))])
        #expect(try fixture.client.processID(of: fixture.service.uniqueName) == UInt32(getpid()))
    }

    @Test func deferredReplyArrivesLater() throws {
        let fixture = try makeRouterFixture()
        let start = Date()
        #expect(try fixture.call("Later", [.uint32(50)]) == [.string("after 50 ms")])
        #expect(Date().timeIntervalSince(start) >= 0.045)
    }

    @Test func tenThousandCallsInARow() throws {
        let fixture = try makeRouterFixture()
        for index in 0..<10_000 {
            let url = "https://example.org/\(index)"
            let reply = try fixture.call("Open", [.string(url), .vardict([:])])
            guard reply.first?.dictionary?["url"]?.string == url else {
                Issue.record("call \(index) returned \(reply)")
                return
            }
        }
        #expect(try fixture.call("Open", [.string("last"), .vardict([:])]).count == 1)
    }

    @Test func peerPingAndMachineId() throws {
        let fixture = try makeRouterFixture()
        #expect(try fixture.call("Ping", interface: "org.freedesktop.DBus.Peer") == [])
        let id = try fixture.call("GetMachineId", interface: "org.freedesktop.DBus.Peer").first?.string ?? ""
        #expect(id.count == 32)
    }

    @Test func propertiesGetGetAllSet() throws {
        let counter = Locked<UInt32>(4)
        let fixture = try makeRouterFixture(counter: counter)
        let props = "org.freedesktop.DBus.Properties"
        #expect(try fixture.call("Get", [.string(TestService.interface), .string("Version")], interface: props)
            == [.variant(.string("1.2.3"))])
        let all = try fixture.call("GetAll", [.string(TestService.interface)], interface: props).first?.dictionary
        #expect(all == ["Version": .string("1.2.3"), "Counter": .uint32(4)])

        var changed: [DBusSignal] = []
        try fixture.client.onSignal(interface: props, member: "PropertiesChanged", path: TestService.path) { changed.append($0) }
        #expect(try fixture.call("Set", [.string(TestService.interface), .string("Counter"), .variant(.uint32(9))], interface: props) == [])
        #expect(counter.value == 9)
        #expect(fixture.pumpClient { !changed.isEmpty })
        #expect(changed.first?.arguments.first == .string(TestService.interface))
        #expect(changed.first?.arguments.dropFirst().first?.dictionary == ["Counter": .uint32(9)])

        let readOnly = try #require(throws: DBusError.self) {
            try fixture.call("Set", [.string(TestService.interface), .string("Version"), .variant(.string("x"))], interface: props)
        }
        #expect(readOnly.name == DBusError.Name.propertyReadOnly)
        let wrongType = try #require(throws: DBusError.self) {
            try fixture.call("Set", [.string(TestService.interface), .string("Counter"), .variant(.string("x"))], interface: props)
        }
        #expect(wrongType.name == DBusError.Name.invalidArgs)
        #expect(counter.value == 9)
        let unknown = try #require(throws: DBusError.self) {
            try fixture.call("Get", [.string(TestService.interface), .string("Nope")], interface: props)
        }
        #expect(unknown.name == DBusError.Name.unknownProperty)
    }

    @Test func introspectionListsTheDispatchTable() throws {
        let fixture = try makeRouterFixture()
        let xml = try #require(try fixture.call("Introspect", interface: "org.freedesktop.DBus.Introspectable").first?.string)
        let document = try XMLDocument(xmlString: xml)
        func nodes(_ query: String) throws -> [XMLElement] { try document.nodes(forXPath: query).compactMap { $0 as? XMLElement } }
        let base = "/node/interface[@name='\(TestService.interface)']"
        let openArgs = try nodes("\(base)/method[@name='Open']/arg")
        #expect(openArgs.map { $0.attribute(forName: "type")?.stringValue } == ["s", "a{sv}", "a{sv}"])
        #expect(openArgs.map { $0.attribute(forName: "direction")?.stringValue } == ["in", "in", "out"])
        #expect(try nodes("\(base)/method").count == routerInterface(counter: Locked(0)) { nil }.methods.count)
        #expect(try nodes("\(base)/signal[@name='Routed']/arg").count == 4)
        #expect(try nodes("\(base)/property[@name='Counter']").first?.attribute(forName: "access")?.stringValue == "readwrite")
        #expect(try nodes("/node/interface[@name='org.freedesktop.DBus.Properties']/method").count == 3)
        #expect(try nodes("/node/interface[@name='org.freedesktop.DBus.Peer']/method").count == 2)

        // Parent paths introspect to their children so tools can walk down to the object.
        let parent = try fixture.client.call(
            destination: TestService.name, path: "/io/github", interface: "org.freedesktop.DBus.Introspectable",
            method: "Introspect").first?.string ?? ""
        #expect(parent.contains("<node name=\"openurld\"/>"))
    }

    @Test func declaredSignalsReachAMatchRule() throws {
        let fixture = try makeRouterFixture()
        var received: [DBusSignal] = []
        let subscription = try fixture.client.onSignal(interface: TestService.interface, member: "Routed") { received.append($0) }
        _ = try fixture.call("EmitRouted", [.string("https://zoom.us/j/1")])
        #expect(fixture.pumpClient { !received.isEmpty })
        #expect(received.first?.arguments == [
            .string("https://zoom.us/j/1"), .string("open"), .string("firefox.desktop"), .string("rule 1"),
        ])
        #expect(received.first?.sender == fixture.service.uniqueName)
        #expect(received.first?.path == TestService.path)
        // Undeclared signals or wrong argument types are refused.
        #expect(throws: DBusError.self) {
            try fixture.object.emit("Routed", interface: TestService.interface, arguments: [.int32(1)], on: fixture.service)
        }
        fixture.client.cancel(subscription)
        _ = try fixture.call("EmitRouted", [.string("second")])
        _ = fixture.pumpClient(timeout: 0.3) { false }
        #expect(received.count == 1)
    }

    @Test func serviceReceivesSignalsThroughItsLoop() throws {
        // The daemon's case: ActionInvoked from a notification server arrives on the loop thread.
        let fixture = try makeRouterFixture()
        let got = Locked<[DBusValue]>([])
        let arrived = DispatchSemaphore(value: 0)
        try fixture.service.onSignal(interface: "org.freedesktop.Notifications", member: "ActionInvoked") { signal in
            got.value = signal.arguments
            arrived.signal()
        }
        try fixture.client.emitSignal(
            path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications", name: "ActionInvoked",
            arguments: [.uint32(7), .string("open")])
        fixture.client.flush()
        #expect(arrived.wait(timeout: .now() + 5) == .success)
        #expect(got.value == [.uint32(7), .string("open")])
    }

    @Test func secondOwnerGetsExists() throws {
        let fixture = try makeRouterFixture()
        #expect(try fixture.client.requestName(TestService.name) == .exists)
        #expect(try fixture.client.requestName(TestService.name, flags: []) == .inQueue)
        #expect(try fixture.service.requestName(TestService.name) == .alreadyOwner)
        #expect(try fixture.client.nameHasOwner(TestService.name))
        #expect(try fixture.service.releaseName(TestService.name) == .released)
        // The queued client takes over.
        #expect(try fixture.client.requestName(TestService.name) == .alreadyOwner)
        #expect(try fixture.service.releaseName("io.github.openurld.Nobody") == .nonExistent)
    }

    @Test func disconnectIsReported() throws {
        let fixture = try makeRouterFixture()
        let gone = DispatchSemaphore(value: 0)
        fixture.service.onDisconnect { gone.signal() }
        fixture.bus.stop()
        #expect(gone.wait(timeout: .now() + 5) == .success)
        #expect(!fixture.service.isConnected)
    }
}

@Suite struct AsyncCallTests {
    @Test func asyncCallsCompleteOnTheLoopAndTimeOut() throws {
        let fixture = try makeRouterFixture()
        let loop = try EventLoop()
        try loop.add(fixture.client)
        var results: [Result<[DBusValue], DBusError>] = []
        try fixture.client.callAsync(
            destination: TestService.name, path: TestService.path, interface: TestService.interface, method: "Later",
            arguments: [.uint32(20)]
        ) { results.append($0); if results.count == 2 { loop.stop() } }
        // A deferred call the service never answers in time: libdbus's timeout fires through the loop.
        try fixture.client.callAsync(
            destination: TestService.name, path: TestService.path, interface: TestService.interface, method: "Later",
            arguments: [.uint32(2000)], timeout: 0.2
        ) { results.append($0); if results.count == 2 { loop.stop() } }
        #expect(loop.run(timeout: 10))
        #expect(results.count == 2)
        #expect((try? results.first?.get()) == [.string("after 20 ms")])
        if case .failure(let error)? = results.last {
            #expect(error.name == DBusError.Name.noReply)
        } else {
            Issue.record("expected a timeout, got \(String(describing: results.last))")
        }
    }
}

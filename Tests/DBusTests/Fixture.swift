import DBus
import Foundation
import TestSupport
import Testing

/// Bus name, path and interface of the service every test exports.
enum TestService {
    static let name = "io.github.openurld.Test"
    static let path = "/io/github/openurld/Test"
    static let interface = "io.github.openurld.Test1"
}

/// A private bus, a service connection run by an `EventLoop` on its own thread, and a client connection.
final class ServiceFixture {
    let bus: PrivateBus
    let service: DBusConnection
    let client: DBusConnection
    let loop: EventLoop
    let object: DBusObject
    private let finished = DispatchSemaphore(value: 0)

    init(interfaces: [DBusInterface]) throws {
        bus = try PrivateBus()
        service = try bus.connect()
        client = try bus.connect()
        object = DBusObject(path: TestService.path, interfaces: interfaces)
        try service.export(object)
        let owned = try service.requestName(TestService.name)
        guard owned == .primaryOwner else { throw HarnessError("could not own \(TestService.name): \(owned)") }
        loop = try EventLoop()
        try loop.add(service)
        let loop = self.loop, finished = self.finished
        let thread = Thread {
            // Bounded so a broken test can never hang the suite.
            loop.run(timeout: 120)
            finished.signal()
        }
        thread.start()
    }

    /// Calls a method on the test service from the client connection.
    func call(_ method: String, _ arguments: [DBusValue] = [], interface: String? = TestService.interface) throws -> [DBusValue] {
        try client.call(
            destination: TestService.name, path: TestService.path, interface: interface, method: method,
            arguments: arguments, timeout: 10)
    }

    /// Runs a command with this bus as the session bus.
    func run(_ argv: [String], timeout: Double = 20) throws -> ToolResult {
        try Command.run(argv, environment: bus.environment(), timeout: timeout)
    }

    /// Pumps the client connection until `condition` holds or `timeout` passes.
    func pumpClient(timeout: Double = 5, until condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() >= end { return false }
            _ = client.readWriteDispatch(timeout: 0.05)
        }
        return true
    }

    deinit {
        loop.stop()
        _ = finished.wait(timeout: .now() + 10)
        bus.stop()
    }
}


import Foundation
import TestSupport
import Testing

/// The `openurl` handler speaks the bus's wire format itself (no libdbus): the addresses it
/// reads, messages larger than one read, a bus that refuses it, and what it links.
@Suite struct HandlerWireTests {
    static let config = """
        [default]
        open = "browser.desktop"
        """

    /// The bus's socket path, from the harness's `unix:path=…` address.
    static func socketPath(_ harness: DaemonHarness) throws -> String {
        let address = try #require(harness.environment["DBUS_SESSION_BUS_ADDRESS"])
        let path = try #require(address.split(separator: ",").first { $0.hasPrefix("unix:path=") })
        return String(path.dropFirst("unix:path=".count))
    }

    /// An address list is read as libdbus reads it: a transport we do not speak (tcp) is passed
    /// over, and `%xx` escapes in a value are decoded.
    @Test func anAddressListWithEscapesReachesTheDaemon() throws {
        let harness = try DaemonHarness(config: Self.config, name: "wireaddress")
        let path = try Self.socketPath(harness)
        let escaped = path.utf8.map { $0 == UInt8(ascii: "/") ? "%2f" : String(UnicodeScalar($0)) }.joined()
        let address = "tcp:host=127.0.0.1,port=9;unix:guid=0123,path=\(escaped)"
        let result = try harness.run([harness.openurl, "-v", "https://example.org/escaped"], extra: ["DBUS_SESSION_BUS_ADDRESS": address])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("by openurld"), "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/escaped"]])
    }

    /// A bus in the abstract namespace (as some sessions start it), reached through a forwarder
    /// that listens there and passes the bytes to the private bus.
    @Test func anAbstractSocketReachesTheDaemon() throws {
        let harness = try DaemonHarness(config: Self.config, name: "wireabstract")
        let path = try Self.socketPath(harness)
        let name = "openurl-wire-test-\(getpid())"
        let forwarder = """
            import socket, sys, threading
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind("\\0" + sys.argv[1]); listener.listen(4)
            print("ready", flush=True)
            def pump(a, b):
                while True:
                    data = a.recv(65536)
                    if not data:
                        b.shutdown(socket.SHUT_WR); return
                    b.sendall(data)
            while True:
                client, _ = listener.accept()
                bus = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); bus.connect(sys.argv[2])
                threading.Thread(target=pump, args=(client, bus), daemon=True).start()
                threading.Thread(target=pump, args=(bus, client), daemon=True).start()
            """
        let server = try ChildProcess(["python3", "-c", forwarder, name, path])
        defer { server.terminate(grace: 0.5) }
        #expect(server.firstLine(timeout: 10) == "ready", "the forwarder did not start (python3 is needed)")
        let result = try harness.run([harness.openurl, "-v", "https://example.org/abstract"],
                                     extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:abstract=\(name)"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("by openurld"), "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/abstract"]])
    }

    /// A 100 KB link goes out in one message and its answer, which repeats it, comes back in
    /// several reads; the browser gets it whole.
    @Test func aLongLinkAndItsLongAnswerCrossTheWire() throws {
        let harness = try DaemonHarness(config: Self.config, name: "wirelong")
        let url = "https://example.org/long?q=" + String(repeating: "0123456789", count: 10_000)
        let result = try harness.run([harness.openurl, "-v", url])
        #expect(result.status == 0, "\(result.status) \(result.stderr.prefix(500))")
        #expect(result.stderr.contains("by openurld"), "\(result.stderr.prefix(500))")
        #expect(harness.browser.waitForRecords(1) == [[url]])
    }

    /// A bus that answers the handshake with REJECTED is no bus: the link is routed in-process
    /// (embedded mode), not lost, and -v says why.
    @Test func aBusThatRefusesUsRoutesInProcess() throws {
        let harness = try DaemonHarness(config: Self.config, name: "wirerefused")
        let socketPath = harness.desktop.root + "/refusing.sock"
        let refuser = """
            import socket, sys
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(sys.argv[1]); listener.listen(4)
            print("ready", flush=True)
            while True:
                client, _ = listener.accept()
                client.recv(4096)
                client.sendall(b"REJECTED EXTERNAL\\r\\n")
                client.close()
            """
        let server = try ChildProcess(["python3", "-c", refuser, socketPath])
        defer { server.terminate(grace: 0.5) }
        #expect(server.firstLine(timeout: 10) == "ready", "the refusing server did not start (python3 is needed)")
        let result = try harness.run([harness.openurl, "-v", "https://example.org/refused"],
                                     extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socketPath)"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("refused us") && result.stderr.contains("routing in-process"), "\(result)")
        #expect(harness.browser.waitForRecords(1) == [["https://example.org/refused"]])
    }

    /// The handler links libc alone: no libdbus (and none of its eight dependencies) to load.
    @Test func theHandlerLinksNoLibraryButLibc() throws {
        let needed = try MulticallTests.neededLibraries(try BuiltProduct.path("openurl"))
        #expect(needed == ["libc.so.6"], "\(needed)")
    }
}

// One private connection to the session bus, spoken directly: the client sends its
// authentication, `Hello` and its call in one write and reads the answers as they come, so a
// click pays one round trip to the bus and loads no library but libc (libdbus and its eight
// dependencies were most of this process's start, and its handshake three round trips more).
// The calls it makes: Router1.Open, and GetCapabilities + Notify to show a failure.
import COpenurl
import CRouterContract

/// An error reply, or a failure of the connection, named as libdbus names them.
struct BusError {
    /// The D-Bus error name, e.g. `org.freedesktop.DBus.Error.ServiceUnknown`.
    var name: String
    /// The human-readable message.
    var message: String

    /// True when no service could answer: the fallback is to route in-process, not to report.
    var meansServiceUnavailable: Bool { openurl_means_service_unavailable(name) != 0 }

    /// True when the daemon did not answer in time (stopped or hung).
    var isTimeout: Bool { openurl_is_timeout(name) != 0 }

    static func disconnected(_ why: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.Disconnected", message: why)
    }
}

/// One value of an `a{sv}` option or hint.
enum OptionValue {
    case string(String)
    case bool(Bool)
    case byte(UInt8)
    case uint32(UInt32)
    case uint64(UInt64)
    /// An `a{ss}`.
    case stringMap([(String, String)])
}

/// A method call being built: its address and its body, argument by argument.
struct Call {
    let destination: String, path: String, interface: String, method: String
    private(set) var signature: [UInt8] = []
    private(set) var body = WireWriter()

    init(destination: String, path: String, interface: String, method: String) {
        (self.destination, self.path, self.interface, self.method) = (destination, path, interface, method)
    }

    mutating func append(_ text: String) {
        signature.append(UInt8(ascii: "s"))
        body.string(text)
    }

    mutating func append(uint32 value: UInt32) {
        signature.append(UInt8(ascii: "u"))
        body.uint32(value)
    }

    mutating func append(int32 value: Int32) {
        signature.append(UInt8(ascii: "i"))
        body.uint32(UInt32(bitPattern: value))
    }

    mutating func append(strings: [String]) {
        signature += Array("as".utf8)
        body.array(alignment: 4) { array in
            for text in strings { array.string(text) }
        }
    }

    /// Appends an `a{sv}`, entries in the given order.
    mutating func append(options: [(String, OptionValue)]) {
        signature += Array("a{sv}".utf8)
        body.array(alignment: 8) { array in
            for (key, value) in options {
                array.pad(to: 8)
                array.string(key)
                switch value {
                case .string(let text):
                    array.signature([UInt8(ascii: "s")])
                    array.string(text)
                case .bool(let flag):
                    array.signature([UInt8(ascii: "b")])
                    array.uint32(flag ? 1 : 0)
                case .byte(let byte):
                    array.signature([UInt8(ascii: "y")])
                    array.byte(byte)
                case .uint32(let number):
                    array.signature([UInt8(ascii: "u")])
                    array.uint32(number)
                case .uint64(let number):
                    array.signature([UInt8(ascii: "t")])
                    array.uint64(number)
                case .stringMap(let pairs):
                    array.signature(Array("a{ss}".utf8))
                    array.array(alignment: 8) { map in
                        for (name, text) in pairs {
                            map.pad(to: 8)
                            map.string(name)
                            map.string(text)
                        }
                    }
                }
            }
        }
    }

    func message(serial: UInt32) -> [UInt8] {
        Wire.methodCall(serial: serial, destination: destination, path: path, interface: interface, member: method,
                        signature: signature, body: body.bytes)
    }
}

/// A private connection to the session bus.
final class SessionBus {
    private let socket: Int32
    private var serial: UInt32 = 1
    /// What is still to be written: the handshake and `Hello` wait here for the first call.
    private var outgoing: [UInt8]
    private var incoming: [UInt8] = []
    /// What one read fills, allocated once for the connection.
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    private var authenticated = false

    /// Connects to `DBUS_SESSION_BUS_ADDRESS` (its first `unix:path=` or `unix:abstract=`), else
    /// `$XDG_RUNTIME_DIR/bus`; nil when there is no bus to connect to (never autolaunches one, as
    /// DBusConnection.session). A bus that refuses us shows at the first call, as Disconnected.
    static func connect() -> SessionBus? {
        var address = environment("DBUS_SESSION_BUS_ADDRESS") ?? ""
        if address.isEmpty, let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty, access(runtime + "/bus", F_OK) == 0 {
            address = "unix:path=" + runtime + "/bus"
        }
        guard let (name, abstract) = unixSocket(in: address) else { return nil }
        let fd = name.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { copenurl_connect_unix($0.baseAddress, $0.count, abstract ? 1 : 0) }
        }
        guard fd >= 0 else { return nil }
        return SessionBus(socket: fd)
    }

    /// The socket of the first unix address in a D-Bus address list, its value unescaped.
    static func unixSocket(in addresses: String) -> (name: [UInt8], abstract: Bool)? {
        for address in Array(addresses.utf8).split(separator: UInt8(ascii: ";")) {
            guard address.starts(with: "unix:".utf8) else { continue }
            for pair in address.dropFirst(5).split(separator: UInt8(ascii: ",")) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let key = pair[pair.startIndex..<equals]
                let isPath = key.elementsEqual("path".utf8), isAbstract = key.elementsEqual("abstract".utf8)
                guard isPath || isAbstract, let value = unescaped(pair[(equals + 1)...]), !value.isEmpty else { continue }
                return (value, isAbstract)
            }
        }
        return nil
    }

    /// A value of a D-Bus address with its `%xx` escapes decoded; nil when one is malformed.
    static func unescaped(_ value: ArraySlice<UInt8>) -> [UInt8]? {
        var result: [UInt8] = []
        var index = value.startIndex
        while index < value.endIndex {
            if value[index] == UInt8(ascii: "%") {
                guard index + 2 < value.endIndex, let high = hexValue(value[index + 1]), let low = hexValue(value[index + 2]) else { return nil }
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(value[index])
                index += 1
            }
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private init(socket: Int32) {
        self.socket = socket
        // EXTERNAL: the bus checks the socket's peer credentials against the uid we name (in
        // hex of its decimal digits). BEGIN and Hello follow without waiting for OK; a bus that
        // rejects us closes the connection, which the first call reports.
        var handshake: [UInt8] = [0]
        handshake += Array("AUTH EXTERNAL ".utf8)
        let hex = Array("0123456789abcdef".utf8)
        for digit in "\(geteuid())".utf8 { handshake += [hex[Int(digit >> 4)], hex[Int(digit & 0xF)]] }
        handshake += Array("\r\nBEGIN\r\n".utf8)
        handshake += Wire.methodCall(serial: 1, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                     interface: "org.freedesktop.DBus", member: "Hello", signature: [], body: [])
        outgoing = handshake
    }

    deinit { close(socket) }

    /// Sends `call` and waits up to `timeoutMilliseconds` for its reply or error.
    func send(_ call: Call, timeoutMilliseconds: Int32) -> (reply: WireMessage?, error: BusError?) {
        serial += 1
        let mine = serial
        outgoing += call.message(serial: mine)
        let deadline = monotonicMicroseconds() + UInt64(max(0, timeoutMilliseconds)) * 1000
        if let failure = flush(until: deadline) { return (nil, failure) }
        while true {
            switch nextMessage() {
            case .failed(let failure): return (nil, failure)
            case .message(let message):
                guard message.replySerial == mine else { continue }
                if message.type == Wire.typeError {
                    return (nil, BusError(name: message.errorName ?? "org.freedesktop.DBus.Error.Failed",
                                          message: message.errorMessage ?? "calling \(call.method) failed"))
                }
                return (message, nil)
            case .needMore:
                if let failure = receive(until: deadline, method: call.method) { return (nil, failure) }
            }
        }
    }

    private enum Next {
        case message(WireMessage)
        case needMore
        case failed(BusError)
    }

    /// The next whole message in `incoming`, after the bus's answer to the handshake.
    private func nextMessage() -> Next {
        if !authenticated {
            guard let newline = incoming.firstIndex(of: UInt8(ascii: "\n")) else { return .needMore }
            guard incoming.starts(with: "OK ".utf8) else {
                let end = newline > 0 && incoming[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
                let line = String(decoding: incoming[..<end], as: UTF8.self)
                return .failed(.disconnected("the session bus refused us: \(line)"))
            }
            incoming.removeSubrange(...newline)
            authenticated = true
        }
        guard let length = Wire.messageLength(incoming[...]) else { return .needMore }
        guard length > 0 else { return .failed(.disconnected("the session bus sent a malformed message")) }
        guard incoming.count >= length else { return .needMore }
        let bytes = Array(incoming[..<length])
        incoming.removeSubrange(..<length)
        guard let message = WireMessage(bytes) else { return .failed(.disconnected("the session bus sent a malformed message")) }
        return .message(message)
    }

    /// Writes all of `outgoing`, waiting for room until `deadline`.
    private func flush(until deadline: UInt64) -> BusError? {
        var offset = 0
        defer { outgoing.removeAll(keepingCapacity: true) }
        while offset < outgoing.count {
            let written = outgoing.withUnsafeBufferPointer { buffer in
                // send, not write: a bus that already hung up must not kill us with SIGPIPE.
                Int(COpenurl.send(socket, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Int32(MSG_NOSIGNAL)))
            }
            if written > 0 { offset += written; continue }
            let error = copenurl_errno()
            if written < 0, error == EINTR { continue }
            guard written < 0, error == EAGAIN else {
                return .disconnected("writing to the session bus: \(errnoDescription())")
            }
            guard wait(for: Int16(POLLOUT), until: deadline) else { return timedOut("writing to the session bus") }
        }
        return nil
    }

    /// Reads what has arrived, waiting for it until `deadline`.
    private func receive(until deadline: UInt64, method: String) -> BusError? {
        while true {
            let count = chunk.withUnsafeMutableBufferPointer { Int(read(socket, $0.baseAddress, $0.count)) }
            if count > 0 {
                incoming += chunk[..<count]
                return nil
            }
            if count == 0 { return .disconnected("the session bus closed the connection") }
            let error = copenurl_errno()
            if error == EINTR { continue }
            guard error == EAGAIN else { return .disconnected("reading from the session bus: \(errnoDescription())") }
            guard wait(for: Int16(POLLIN), until: deadline) else { return timedOut("calling \(method)") }
        }
    }

    /// Waits until the socket is ready for `events` (true) or `deadline` passes (false).
    private func wait(for events: Int16, until deadline: UInt64) -> Bool {
        while true {
            let now = monotonicMicroseconds()
            guard now < deadline else { return false }
            var entry = pollfd(fd: socket, events: events, revents: 0)
            let milliseconds = Int32(min(UInt64(Int32.max), (deadline - now + 999) / 1000))
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready < 0, copenurl_errno() != EINTR { return false }
        }
    }

    /// libdbus's name for a call that had no answer in time, which the client reads as a hung daemon.
    private func timedOut(_ what: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.NoReply", message: "\(what): no reply within the timeout")
    }
}

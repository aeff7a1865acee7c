import CDBus
@testable import DBus
import Foundation
import TestSupport
import Testing

/// Replies and signals written whole (`WireMessage`) against the same messages built by libdbus
/// through its iterator: the same body bytes, fields and arguments, for a table of values and
/// for generated ones.
@Suite struct WireMessageTests {
    static let tables: [[DBusValue]] = [
        [],
        [.string("https://example.org/"), .string("discard"), .string(""), .string("rule 1")],
        [.dictionary(keySignature: "s", valueSignature: "s", [DBusDictEntry(key: .string("outcome"), value: .string("done")),
                                                               DBusDictEntry(key: .string("final-url"), value: .string("https://bücher.de/straße"))])],
        [.byte(7), .bool(true), .int16(-2), .uint16(3), .int32(-4), .uint32(5), .int64(-6), .uint64(7), .double(8.5)],
        [.byte(1), .double(2), .byte(3), .int64(4), .int16(5), .structure([.byte(6), .uint64(7)])],
        [.objectPath("/io/github/openurld"), .signature("a{sv}"), .variant(.variant(.int32(1)))],
        [.array(elementSignature: "x", []), .array(elementSignature: "(yd)", []), .array(elementSignature: "s", [.string("a"), .string("")])],
        [.vardict(pairs: [("ask", .bool(false)), ("display", .vardict(pairs: [("DISPLAY", .string(":1"))])), ("n", .uint64(9))])],
        [.array(elementSignature: "ay", [.array(elementSignature: "y", [.byte(1)]), .array(elementSignature: "y", [])])],
        [.dictionary(keySignature: "u", valueSignature: "(sd)", [DBusDictEntry(key: .uint32(1), value: .structure([.string("x"), .double(1)]))])],
    ]

    @Test(arguments: Self.tables.indices)
    func aSignalIsWhatLibdbusBuilds(_ index: Int) throws {
        try compareSignal(Self.tables[index])
    }

    @Test(arguments: Self.tables.indices)
    func aMethodReturnIsWhatLibdbusBuilds(_ index: Int) throws {
        try compareReturn(Self.tables[index])
    }

    /// Generated trees of every type, nested up to four deep.
    @Test func generatedBodiesAreWhatLibdbusBuilds() throws {
        var random = SplitMix64(seed: 32)
        for _ in 0..<400 {
            let values = (0..<(1 + random.below(4))).map { _ in Self.value(&random, depth: 0) }
            try compareSignal(values)
            try compareReturn(values)
        }
    }

    @Test func serialsCountFromTheirOwnStart() throws {
        let bus = try PrivateBus()
        let connection = try bus.connect()
        let first = connection.takeWireSerial()
        #expect(first == WireMessage.firstSerial)
        #expect(connection.takeWireSerial() == first + 1)
    }

    /// A signal and a reply sent whole arrive with their arguments on a real bus.
    @Test func aSignalSentWholeArrives() throws {
        let bus = try PrivateBus()
        let sender = try bus.connect()
        let listener = try bus.connect()
        let heard = Locked<[DBusValue]?>(nil)
        try listener.onSignal(interface: "io.github.openurld.Test", member: "Routed") { signal in heard.value = signal.arguments }
        let arguments = Self.tables[1]
        try sender.emitSignal(path: "/io/github/openurld", interface: "io.github.openurld.Test", name: "Routed", arguments: arguments)
        sender.flush()
        let end = Date().addingTimeInterval(5)
        while heard.value == nil, Date() < end { _ = listener.readWriteDispatch(timeout: 0.05) }
        #expect(heard.value == arguments)
    }

    // MARK: - Helpers

    private func compareSignal(_ values: [DBusValue]) throws {
        for value in values { try value.validate() }
        let whole = try #require(WireMessage.signal(path: "/a/b", interface: "io.example.I", name: "Sig", destination: ":1.7", values: values, serial: 42))
        let built = try Message.signal(path: "/a/b", interface: "io.example.I", name: "Sig")
        dbus_message_set_destination(built.raw, ":1.7")
        try built.append(values)
        dbus_message_set_serial(built.raw, 42)
        try compare(whole, built, values)
        #expect(whole.path == "/a/b" && whole.interface == "io.example.I" && whole.member == "Sig")
        #expect(dbus_message_get_destination(whole.raw).map { String(cString: $0) } == ":1.7")
        #expect(dbus_message_get_no_reply(whole.raw) == dbus_message_get_no_reply(built.raw))
    }

    private func compareReturn(_ values: [DBusValue]) throws {
        for value in values { try value.validate() }
        let call = try Message.methodCall(destination: "io.example.S", path: "/", interface: "io.example.I", method: "M")
        dbus_message_set_serial(call.raw, 77)
        dbus_message_set_sender(call.raw, ":1.9")
        let whole = try #require(WireMessage.methodReturn(to: call, values: values, signature: DBusValue.signature(of: values), serial: 43))
        let built = try call.methodReturn()
        try built.append(values)
        dbus_message_set_serial(built.raw, 43)
        try compare(whole, built, values)
        #expect(dbus_message_get_reply_serial(whole.raw) == 77)
        #expect(dbus_message_get_destination(whole.raw).map { String(cString: $0) } == ":1.9")
        #expect(dbus_message_get_no_reply(whole.raw) == dbus_message_get_no_reply(built.raw))
    }

    private func compare(_ whole: Message, _ built: Message, _ values: [DBusValue]) throws {
        #expect(whole.type == built.type)
        #expect(whole.signature == built.signature)
        #expect(dbus_message_get_serial(whole.raw) == dbus_message_get_serial(built.raw))
        #expect(try whole.arguments() == values)
        #expect(body(of: whole) == body(of: built), "\(values)")
    }

    /// The body's bytes as libdbus sends them (after the header and its padding).
    private func body(of message: Message) -> [UInt8] {
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message.raw, &buffer, &length) != 0, let buffer else { return [] }
        defer { dbus_free(buffer) }
        let bytes = UnsafeBufferPointer(start: buffer, count: Int(length)).map { UInt8(bitPattern: $0) }
        // The body's length is the fixed header's second word (little-endian: the first byte is "l").
        guard bytes.count >= 16, bytes[0] == UInt8(ascii: "l") else { return [] }
        let bodyLength = bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        return Array(bytes.suffix(bodyLength))
    }

    private static let basics: [String] = ["y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g"]

    private static func basic(_ code: String, _ random: inout SplitMix64) -> DBusValue {
        switch code {
        case "y": return .byte(UInt8(truncatingIfNeeded: random.next()))
        case "b": return .bool(random.below(2) == 0)
        case "n": return .int16(Int16(truncatingIfNeeded: random.next()))
        case "q": return .uint16(UInt16(truncatingIfNeeded: random.next()))
        case "i": return .int32(Int32(truncatingIfNeeded: random.next()))
        case "u": return .uint32(UInt32(truncatingIfNeeded: random.next()))
        case "x": return .int64(Int64(bitPattern: random.next()))
        case "t": return .uint64(random.next())
        case "d": return .double(Double(random.below(1_000_000)) / 7)
        case "s": return .string(["", "a", "ü ✓", "https://example.org/?q=1&x=y", String(repeating: "z", count: random.below(40))][random.below(5)])
        case "o": return .objectPath(["/", "/io/github/openurld", "/a/b_c/d1"][random.below(3)])
        default: return .signature(["", "s", "a{sv}", "(yd)"][random.below(4)])
        }
    }

    /// A value of a random type; containers hold values of one generated type.
    static func value(_ random: inout SplitMix64, depth: Int) -> DBusValue {
        let choice = depth >= 4 ? random.below(basics.count) : random.below(basics.count + 4)
        switch choice {
        case ..<basics.count: return basic(basics[choice], &random)
        case basics.count: return .variant(value(&random, depth: depth + 1))
        case basics.count + 1:
            let shape = value(&random, depth: depth + 1)
            let items = (0..<random.below(4)).map { _ in Self.sameType(as: shape, &random, depth: depth + 1) }
            return .array(elementSignature: shape.signature, items)
        case basics.count + 2:
            let key = basics[random.below(basics.count)]
            let shape = value(&random, depth: depth + 1)
            let entries = (0..<random.below(4)).map { _ in
                DBusDictEntry(key: basic(key, &random), value: Self.sameType(as: shape, &random, depth: depth + 1))
            }
            return .dictionary(keySignature: key, valueSignature: shape.signature, entries)
        default:
            return .structure((0..<(1 + random.below(3))).map { _ in value(&random, depth: depth + 1) })
        }
    }

    /// Another value of `shape`'s type (its basic values drawn anew, its containers emptied or kept).
    static func sameType(as shape: DBusValue, _ random: inout SplitMix64, depth: Int) -> DBusValue {
        switch shape {
        case .variant: return .variant(value(&random, depth: depth + 1))
        case .array(let element, let items): return .array(elementSignature: element, random.below(2) == 0 ? [] : items)
        case .dictionary(let key, let value, let entries): return .dictionary(keySignature: key, valueSignature: value, random.below(2) == 0 ? [] : entries)
        case .structure(let fields): return .structure(fields.map { sameType(as: $0, &random, depth: depth + 1) })
        default: return basic(shape.signature, &random)
        }
    }
}

import CDBus

/// A reply or signal written in the D-Bus wire format in one pass and handed to libdbus whole
/// (`dbus_message_demarshal`, which validates it as it would a message off the socket).
/// Appending value by value through `DBusMessageIter` cost ~3.2k instructions a string, and
/// each top-level argument after the first rewrote the header's signature field (~19k): a
/// click's reply and `Routed` signal were ~155k instructions of the daemon's ~450k.
///
/// libdbus keeps a message's serial when it is not 0, and refuses 0 in a message it reads, so
/// these messages carry serials of their own, counted from 2³⁰ per connection: libdbus's own
/// count starts at 1, and the two would meet only after a billion messages. Nothing answers a
/// reply or a signal, so no serial of theirs is ever looked up.
enum WireMessage {
    /// The first serial given; libdbus counts its own from 1.
    static let firstSerial: UInt32 = 1 << 30

    /// A method return for `call` with `values` as its body, whose signature the caller has
    /// already worked out; nil when libdbus does not take the bytes (the caller then builds it
    /// through the iterator).
    static func methodReturn(to call: Message, values: [DBusValue], signature: String, serial: UInt32) -> Message? {
        var fields: [(code: UInt8, value: DBusValue)] = [(5, .uint32(dbus_message_get_serial(call.raw)))]
        if let sender = call.sender { fields.append((6, .string(sender))) }
        // libdbus marks every method return "no reply expected"; so do we.
        return demarshal(type: 2, flags: 1, serial: serial, fields: fields, values: values, signature: signature)
    }

    /// A signal; nil when libdbus does not take the bytes. The names must be valid already.
    static func signal(path: String, interface: String, name: String, destination: String?, values: [DBusValue], serial: UInt32) -> Message? {
        var fields: [(code: UInt8, value: DBusValue)] = [(1, .objectPath(path)), (2, .string(interface)), (3, .string(name))]
        if let destination { fields.append((6, .string(destination))) }
        // As `dbus_message_new_signal` does: a signal expects no reply.
        return demarshal(type: 4, flags: 1, serial: serial, fields: fields, values: values, signature: DBusValue.signature(of: values))
    }

    /// The message's bytes: the fixed header, the header fields, and the body at the next
    /// multiple of 8.
    private static func bytes(type: UInt8, flags: UInt8, serial: UInt32, fields: [(code: UInt8, value: DBusValue)], values: [DBusValue],
                      signature: String) -> [UInt8] {
        var body = WireWriter()
        body.bytes.reserveCapacity(1024)
        for value in values { body.write(value) }
        var header = WireWriter()
        header.bytes.reserveCapacity(256 + body.bytes.count)
        header.bytes += [UInt8(ascii: "l"), type, flags, 1]
        header.uint32(UInt32(body.bytes.count))
        header.uint32(serial)
        let all = signature.isEmpty ? fields : fields + [(8, .signature(signature))]
        header.array(alignment: 8) { writer in
            for field in all {
                writer.pad(to: 8)
                writer.bytes.append(field.code)
                writer.write(.variant(field.value))
            }
        }
        header.pad(to: 8)
        header.bytes += body.bytes
        return header.bytes
    }

    private static func demarshal(type: UInt8, flags: UInt8, serial: UInt32, fields: [(code: UInt8, value: DBusValue)], values: [DBusValue],
                                  signature: String) -> Message? {
        let data = bytes(type: type, flags: flags, serial: serial, fields: fields, values: values, signature: signature)
        let error = CErrorBox()
        let raw = data.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32(clamping: $0.count), &error.raw) }
        }
        return raw.map { Message(adopting: $0) }
    }
}

/// Little-endian D-Bus marshalling into bytes; offsets count from the start of the header or
/// the body, both of which begin at a multiple of 8.
struct WireWriter {
    var bytes: [UInt8] = []

    mutating func pad(to alignment: Int) {
        let missing = (alignment - bytes.count % alignment) % alignment
        if missing > 0 { bytes.append(contentsOf: repeatElement(0, count: missing)) }
    }

    mutating func uint32(_ value: UInt32) {
        pad(to: 4)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func fixed<T: FixedWidthInteger>(_ value: T) {
        pad(to: MemoryLayout<T>.size)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            uint32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0)
    }

    private mutating func signature(_ value: String) {
        bytes.append(UInt8(truncatingIfNeeded: value.utf8.count))
        bytes.append(contentsOf: value.utf8)
        bytes.append(0)
    }

    /// An array: its length, padding to its elements' alignment (not counted), then them.
    mutating func array(alignment: Int, _ elements: (inout WireWriter) -> Void) {
        uint32(0)
        let lengthAt = bytes.count - 4
        pad(to: alignment)
        let start = bytes.count
        elements(&self)
        let length = UInt32(bytes.count - start).littleEndian
        withUnsafeBytes(of: length) { for (offset, byte) in $0.enumerated() { bytes[lengthAt + offset] = byte } }
    }

    /// The alignment of the type a signature starts with.
    static func alignment(of signature: String) -> Int {
        switch signature.utf8.first {
        case UInt8(ascii: "n"), UInt8(ascii: "q"): return 2
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "a"): return 4
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): return 8
        default: return 1
        }
    }

    /// Writes a validated value.
    mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let v): bytes.append(v)
        case .bool(let v): uint32(v ? 1 : 0)
        case .int16(let v): fixed(v)
        case .uint16(let v): fixed(v)
        case .int32(let v): fixed(v)
        case .uint32(let v): fixed(v)
        case .int64(let v): fixed(v)
        case .uint64(let v): fixed(v)
        case .double(let v): fixed(v.bitPattern)
        case .string(let v), .objectPath(let v): text(v)
        case .signature(let v): signature(v)
        case .variant(let inner):
            signature(inner.signature)
            write(inner)
        case .array(let element, let items):
            array(alignment: Self.alignment(of: element)) { writer in
                for item in items { writer.write(item) }
            }
        case .dictionary(_, _, let entries):
            array(alignment: 8) { writer in
                for entry in entries {
                    writer.pad(to: 8)
                    writer.write(entry.key)
                    writer.write(entry.value)
                }
            }
        case .structure(let fields):
            pad(to: 8)
            for field in fields { write(field) }
        }
    }
}

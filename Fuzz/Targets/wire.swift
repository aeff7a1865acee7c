/// The `openurl` handler's D-Bus wire format (Sources/openurl/WireFormat.swift, compiled in:
/// the handler is Embedded Swift and its files import nothing). Oracles: no crash on any bytes
/// the bus could send (a message, a body under any signature); a call the writer makes parses
/// back with its type and signature, and an `a{ss}` body gives back its pairs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let mode = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    if mode & 1 == 0 {
        _ = Wire.messageLength(rest[...])
        guard let message = WireMessage(rest) else { return 0 }
        _ = message.stringEntries
        _ = message.stringArray
        _ = message.errorMessage
        return 0
    }
    // Strings separated by NUL: a destination, then key/value pairs for an a{ss} body.
    let words = rest.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    var pairs: [(String, String)] = []
    var index = 1
    while index + 1 < words.count {
        pairs.append((words[index], words[index + 1]))
        index += 2
    }
    var body = WireWriter()
    body.array(alignment: 8) { array in
        for (key, value) in pairs {
            array.pad(to: 8)
            array.string(key)
            array.string(value)
        }
    }
    let bytesOut = Wire.methodCall(serial: 7, destination: words.first ?? "", path: "/p", interface: "a.b", member: "M",
                                   signature: Array("a{ss}".utf8), body: body.bytes)
    require(Wire.messageLength(bytesOut[...]) == bytesOut.count, "the written length does not read back")
    guard let message = WireMessage(bytesOut) else {
        require(false, "a written call does not parse")
        return 0
    }
    require(message.type == Wire.typeMethodCall && message.signature == Array("a{ss}".utf8), "type or signature changed")
    let back = message.stringEntries
    // Repaired UTF-8 may differ in bytes from what was written only where the input was not UTF-8.
    require(back.count == pairs.count, "\(pairs.count) pairs written, \(back.count) read back")
    for (written, read) in zip(pairs, back) {
        require(Array(written.0.utf8) == Array(read.0.utf8) && Array(written.1.utf8) == Array(read.1.utf8), "a pair changed")
    }
    return 0
}

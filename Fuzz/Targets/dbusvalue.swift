import CDBus
@testable import DBus

/// The D-Bus value decoder on raw wire bytes (a whole marshalled message, as libdbus would
/// receive it). Oracles: every decoded value validates, and appending it to a new message and
/// reading it back gives the same values, as does writing it whole (`WireMessage`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 16, size <= 1 << 20 else { return 0 }
    let error = CErrorBox()
    let raw = data.withMemoryRebound(to: CChar.self, capacity: size) { dbus_message_demarshal($0, Int32(size), &error.raw) }
    guard let raw else { return 0 }
    let message = Message(adopting: raw)
    var iter = DBusMessageIter()
    guard dbus_message_iter_init(message.raw, &iter) != 0 else { return 0 }
    guard let values = try? DBusValue.readAll(from: &iter) else { return 0 }
    for value in values { require((try? value.validate()) != nil, "a decoded value does not validate: \(value)") }
    guard let copy = try? Message.methodCall(destination: nil, path: "/fuzz", interface: "org.fuzz", method: "M") else { return 0 }
    guard (try? copy.append(values)) != nil else {
        require(false, "decoded values cannot be appended again")
        return 0
    }
    var again = DBusMessageIter()
    guard dbus_message_iter_init(copy.raw, &again) != 0 else {
        require(values.isEmpty, "values vanished on the way back")
        return 0
    }
    let reread = try? DBusValue.readAll(from: &again)
    require(reread.map { "\($0)" } == "\(values)", "values change on a round trip")
    // Written whole (`WireMessage`, how replies and signals are sent), libdbus takes the same
    // values and reads them back unchanged.
    guard let whole = WireMessage.signal(path: "/fuzz", interface: "org.fuzz", name: "S", destination: nil, values: values, serial: 1) else {
        require(false, "values libdbus appends are refused when written whole: \(values)")
        return 0
    }
    var written = DBusMessageIter()
    let back = dbus_message_iter_init(whole.raw, &written) != 0 ? try? DBusValue.readAll(from: &written) : []
    require(back.map { "\($0)" } == "\(values)", "values change when written whole")
    return 0
}

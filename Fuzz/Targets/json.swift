@testable import JSON

/// The JSON reader. Oracles: no crash on any bytes; whatever it accepts, the writer prints as text
/// that reads back as the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONValue(parsing: bytes) else { return 0 }
    let again = try? JSONValue(parsing: value.text)
    require(again == value, "the writer's text does not read back: \(value.text.debugDescription)")
    return 0
}

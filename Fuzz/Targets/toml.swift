import TOML

/// Our TOML reader against toml++ (the bridge that read configs before, compiled in for this
/// target with Tests/RoutingTests/TOMLOracle.swift). Oracles: no crash on any bytes; both accept
/// or both refuse, and what both accept is the same tree: keys in source order, values, and the
/// line and column of every value and key.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // toml++ reads bytes, and Swift's String would mend what is not UTF-8 before we saw it.
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    guard text.utf8.elementsEqual(bytes) else { return 0 }
    if let found = TOMLOracle.disagreement(text) {
        require(false, "our TOML reader and toml++ disagree on \(text.debugDescription): \(found)")
    }
    return 0
}

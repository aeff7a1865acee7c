@testable import URLModel
import RoutingCore

/// The URL parser on raw bytes. Oracles: the normal form re-parses to itself with the same
/// host; it fits the argv limit; hosts hold no byte a browser forbids; no control, space or
/// DEL is left anywhere; and for special schemes (the URL Standard's path state) the path
/// starts with `/`, has no `.` or `..` segment in any spelling and no `\`, and every byte of
/// the path, query, fragment and userinfo is one its percent-encode set lets through. The
/// `openurl doctor` probe check, which every routed link passes, on the same bytes: a token it
/// finds is short, of token bytes only, and found again in both probe forms.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = text(data, size)
    if let token = ProbeLink.token(in: raw) {
        require(!token.isEmpty && token.utf8.count <= ProbeLink.maximumTokenBytes, "probe token of \(token.utf8.count) bytes")
        require(token.utf8.allSatisfy { $0 < 0x80 && ($0 == 0x2D || $0 == 0x2E || $0 == 0x5F || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39)) },
                "probe token with a byte outside [A-Za-z0-9._-]: \(token.debugDescription)")
        require(ProbeLink.token(in: ProbeLink.web(token)) == token && ProbeLink.token(in: ProbeLink.mail(token)) == token, "probe token does not read back")
    }
    guard let url = try? ParsedURL(raw) else { return 0 }
    require(url.string.utf8.count <= ParsedURL.maximumLength, "normal form longer than the limit")
    guard let again = try? ParsedURL(url.string) else {
        require(false, "normal form does not re-parse: \(url.string.debugDescription)")
        return 0
    }
    require(again.string == url.string, "normal form changes on re-parse: \(url.string.debugDescription) -> \(again.string.debugDescription)")
    require(again.host == url.host, "host changes on re-parse")
    require(again.path == url.path && again.query == url.query && again.fragment == url.fragment, "parts change on re-parse")
    require(!url.host.utf8.contains { $0 < 0x21 || $0 == 0x7F }, "control byte in host \(url.host.debugDescription)")
    require(!url.string.utf8.contains { $0 <= 0x20 || $0 == 0x7F }, "control or space in \(url.string.debugDescription)")
    if ParsedURL.specialSchemes.contains(url.scheme) {
        require(!url.host.isEmpty, "special URL without a host")
        require(!url.host.utf8.contains { HostParser.isForbiddenInDomain($0) && $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "]") && $0 != UInt8(ascii: ":") },
                "forbidden code point in host \(url.host.debugDescription)")
        let path = Array(url.path.utf8)
        require(path.first == UInt8(ascii: "/"), "special path does not start with /: \(url.path.debugDescription)")
        for segment in path.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            require(URLTail.isDotSegment(segment) == nil, "dot segment left in \(url.path.debugDescription)")
        }
        require(URLTail.serializePath(path[...]) == path, "path is not its own serialisation: \(url.path.debugDescription)")
        require(!path.contains { $0 == UInt8(ascii: "\\") || URLTail.encodes(.path, $0) }, "unencoded byte in path \(url.path.debugDescription)")
        require(!(url.query ?? "").utf8.contains { URLTail.encodes(.specialQuery, $0) }, "unencoded byte in query")
        require(!(url.fragment ?? "").utf8.contains { URLTail.encodes(.fragment, $0) }, "unencoded byte in fragment")
        require(!(url.userinfo ?? "").utf8.contains { URLTail.encodes(.userinfo, $0) && $0 != UInt8(ascii: ":") }, "unencoded byte in userinfo")
    }
    _ = url.queryItems
    _ = url.unicodeHost
    return 0
}

import Testing
@testable import URLModel

/// URLTail's percent-encode sets (a switch, for speed) held to the URL Standard's lists, byte by
/// byte: C0 controls and everything above `~` are in every set; then each set adds its own.
struct URLEncodeSetTests {
    static let fragment = Array(" \"<>`".utf8)
    static let query = Array(" \"#<>".utf8)
    static let specialQuery = query + Array("'".utf8)
    static let path = query + Array("?^`{}".utf8)
    static let userinfo = path + Array("/:;=@[\\]|".utf8)

    @Test(arguments: [
        ("c0Control", URLTail.EncodeSet.c0Control, [UInt8]()),
        ("fragment", .fragment, fragment),
        ("query", .query, query),
        ("specialQuery", .specialQuery, specialQuery),
        ("path", .path, path),
        ("userinfo", .userinfo, userinfo),
    ])
    func everyByteIsEncodedAsTheStandardSays(name: String, set: URLTail.EncodeSet, adds: [UInt8]) {
        for value in 0...255 {
            let byte = UInt8(value)
            let expected = byte < 0x20 || byte > 0x7E || adds.contains(byte)
            #expect(URLTail.encodes(set, byte) == expected, "\(name): byte 0x\(String(byte, radix: 16))")
        }
    }
}

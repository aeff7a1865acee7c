@testable import BrowserCompanion
import JSON

/// The browser companion's host input: native-messaging frames as any browser (or anything that
/// starts the host) may write them, cut into reads at the input's first byte, and the requests
/// inside. Oracles: no crash; a frame the host writes reads back as the same bytes; the same-site
/// check of a request's link and origin is symmetric.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    // The first byte says where the stream is cut in two reads; the rest is the stream.
    let bytes = Array(input.dropFirst())
    let cut = input.isEmpty ? 0 : Int(input[0]) % (bytes.count + 1)
    var buffer = NativeMessageBuffer()
    buffer.append(bytes[..<cut])
    buffer.append(bytes[cut...])
    let sameSite = SameSite(listText: nil)
    while let body = try? buffer.next() {
        if let request = try? CompanionRequest(bytes: body) {
            switch request.kind {
            case .explain(let link), .open(let link):
                let forth = sameSite.holds(url: link.url, origin: link.origin)
                let back = link.origin.map { sameSite.holds(url: $0, origin: link.url) } ?? forth
                require(forth == back, "same site is not symmetric for \(link.url.debugDescription) and \(String(describing: link.origin).debugDescription)")
            case .hello:
                break
            }
        }
    }
    // Whatever JSON the input is, framed by the host, it cuts back into exactly that text.
    if let value = try? JSONValue(parsing: bytes) {
        var again = NativeMessageBuffer()
        again.append(NativeMessageFrame.frame(value)[...])
        let body = try? again.next()
        require(body == Array(value.text.utf8), "a frame did not read back: \(value.text.debugDescription)")
    }
    return 0
}

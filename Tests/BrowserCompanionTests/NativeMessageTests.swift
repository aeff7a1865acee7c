import BrowserCompanion
import JSON
import Testing

/// The native-messaging frames and the extension's requests.
@Suite struct NativeMessageTests {
    @Test func framesCarryTheirLengthLittleEndian() {
        let frame = NativeMessageFrame.frame(.object([("id", .number(1))]))
        #expect(Array(frame.prefix(4)) == [8, 0, 0, 0])
        #expect(String(decoding: frame.dropFirst(4), as: UTF8.self) == #"{"id":1}"#)
    }

    @Test func messagesAreCutWhereverTheReadsEnd() throws {
        let one = NativeMessageFrame.frame(.object([("type", .string("hello")), ("id", .number(1))]))
        let two = NativeMessageFrame.frame(.object([("type", .string("explain")), ("id", .number(2)), ("url", .string("https://x.org/"))]))
        let stream = one + two
        for cut in [1, 3, 4, 5, one.count, one.count + 2, stream.count - 1] {
            var buffer = NativeMessageBuffer()
            var bodies: [[UInt8]] = []
            buffer.append(stream[0..<cut])
            while let body = try buffer.next() { bodies.append(body) }
            buffer.append(stream[cut...])
            while let body = try buffer.next() { bodies.append(body) }
            #expect(bodies.count == 2, "cut at \(cut)")
            #expect(bodies.map { try? CompanionRequest(bytes: $0).id } == [.number(1), .number(2)])
        }
    }

    @Test func anOversizedFrameEndsTheStream() {
        var buffer = NativeMessageBuffer()
        buffer.append([0, 0, 0x20, 0][...])
        #expect(throws: NativeMessageBuffer.Failure.tooLong(0x200000)) { try buffer.next() }
    }

    static let requests: [(String, CompanionRequest.Kind?)] = [
        (#"{"id":1,"type":"hello","browser":"firefox","version":"0.1.0"}"#, .hello(browser: "firefox", version: "0.1.0", instance: nil)),
        (#"{"id":1,"type":"hello","browser":"chromium","version":"0.1.0","instance":"6f1c"}"#, .hello(browser: "chromium", version: "0.1.0", instance: "6f1c")),
        (#"{"id":2,"type":"explain","url":"https://x.org/","origin":"https://p.org/","text":"x.org"}"#,
         .explain(ClickedLink(url: "https://x.org/", origin: "https://p.org/", text: "x.org"))),
        (#"{"id":3,"type":"open","url":"mailto:a@x.org","sameSite":true}"#, .open(ClickedLink(url: "mailto:a@x.org", sameSite: true))),
        (#"{"id":4,"type":"explain"}"#, nil),
        (#"{"id":5,"type":"launch","url":"https://x.org/"}"#, nil),
        (#"{"id":6}"#, nil),
        (#"[1,2]"#, nil),
        (#"{"id":7,"type":"open","url":""}"#, nil),
        ("not json", nil),
    ]

    @Test(arguments: requests)
    func requestsAreReadOrRefusedWithWhy(_ text: String, _ kind: CompanionRequest.Kind?) {
        do {
            let request = try CompanionRequest(bytes: Array(text.utf8))
            #expect(request.kind == kind, "\(text)")
        } catch {
            #expect(kind == nil, "\(text): \(error)")
            #expect(!error.description.isEmpty)
        }
    }

    @Test func aRefusedRequestKeepsItsIDForTheAnswer() {
        #expect(throws: CompanionRequest.Problem.self) { try CompanionRequest(bytes: Array(#"{"id":9,"type":"x"}"#.utf8)) }
        do { _ = try CompanionRequest(bytes: Array(#"{"id":9,"type":"x"}"#.utf8)) } catch { #expect(error.id == .number(9)) }
    }

    static let sites: [(String, String?, Bool)] = [
        ("https://a.example.co.uk/x", "https://b.example.co.uk/", true),
        ("https://example.co.uk/x", "https://other.co.uk/", false),
        ("https://x.org/a", "https://x.org/b", true),
        ("http://x.org/a", "https://www.x.org/b", true),
        ("https://x.org/a", "https://y.org/", false),
        ("mailto:a@x.org", "https://x.org/", false),
        ("https://x.org/", nil, false),
        ("https://x.github.io/", "https://y.github.io/", false),
    ]

    @Test(arguments: sites)
    func sameSiteFollowsThePublicSuffixList(_ url: String, _ origin: String?, _ same: Bool) throws {
        let list = Array("// test list\ncom\norg\nco.uk\nuk\nio\ngithub.io\n".utf8)
        #expect(SameSite(listText: list).holds(url: url, origin: origin) == same)
    }
}

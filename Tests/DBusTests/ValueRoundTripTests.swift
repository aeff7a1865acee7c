import DBus
import Foundation
import TestSupport
import Testing

/// One value for the round-trip table, with its GVariant text form for `gdbus call` where given.
struct ValueCase: CustomTestStringConvertible, Sendable {
    let label: String
    let value: DBusValue
    let signature: String
    var testDescription: String { label }
}

let valueCases: [ValueCase] = [
    ValueCase(label: "byte", value: .byte(0xff), signature: "y"),
    ValueCase(label: "bool true", value: .bool(true), signature: "b"),
    ValueCase(label: "bool false", value: .bool(false), signature: "b"),
    ValueCase(label: "int16", value: .int16(-5), signature: "n"),
    ValueCase(label: "uint16", value: .uint16(65535), signature: "q"),
    ValueCase(label: "int32 min", value: .int32(.min), signature: "i"),
    ValueCase(label: "uint32 max", value: .uint32(.max), signature: "u"),
    ValueCase(label: "int64 min", value: .int64(.min), signature: "x"),
    ValueCase(label: "uint64 max", value: .uint64(.max), signature: "t"),
    ValueCase(label: "double", value: .double(-3.25), signature: "d"),
    ValueCase(label: "string unicode", value: .string("héllo ✓ 🎉"), signature: "s"),
    ValueCase(label: "string empty", value: .string(""), signature: "s"),
    ValueCase(label: "object path", value: .objectPath("/io/github/openurld"), signature: "o"),
    ValueCase(label: "signature", value: .signature("a{sv}"), signature: "g"),
    ValueCase(label: "variant", value: .variant(.int32(7)), signature: "v"),
    ValueCase(label: "variant in variant", value: .variant(.variant(.string("x"))), signature: "v"),
    ValueCase(label: "as", value: .stringArray(["a", "b", ""]), signature: "as"),
    ValueCase(label: "as empty", value: .stringArray([]), signature: "as"),
    ValueCase(
        label: "a{sv}",
        value: .vardict(["url": .string("https://example.org"), "dry-run": .bool(true), "n": .uint32(3)]),
        signature: "a{sv}"),
    ValueCase(label: "a{sv} empty", value: .vardict([:]), signature: "a{sv}"),
    ValueCase(
        label: "a(sisb)",
        value: .array(elementSignature: "(sisb)", [
            .structure([.string("Zoom"), .int32(1), .string("open"), .bool(true)]),
            .structure([.string("Mail"), .int32(2), .string("copy"), .bool(false)]),
        ]),
        signature: "a(sisb)"),
    ValueCase(
        label: "a(ss)",
        value: .array(elementSignature: "(ss)", [.structure([.string("firefox.desktop"), .string("Firefox")])]),
        signature: "a(ss)"),
    ValueCase(
        label: "aa{sv}",
        value: .vardictArray([["id": .uint32(1), "url": .string("https://a")], [:]]),
        signature: "aa{sv}"),
    ValueCase(
        label: "a{ia{sv}} nested",
        value: .dictionary(keySignature: "i", valueSignature: "a{sv}", [
            DBusDictEntry(key: .int32(1), value: .vardict(["x": .stringArray(["y"])])),
        ]),
        signature: "a{ia{sv}}"),
    ValueCase(label: "struct", value: .structure([.string("s"), .double(1.5), .objectPath("/")]), signature: "(sdo)"),
    ValueCase(label: "ay", value: .array(elementSignature: "y", [.byte(0), .byte(255)]), signature: "ay"),
]

/// An interface with one echo method per case: `Echo0(value) -> value`, …
func echoInterface() -> DBusInterface {
    DBusInterface(
        name: TestService.interface,
        methods: valueCases.enumerated().map { index, item in
            DBusMethod(
                "Echo\(index)", inputs: [DBusArgument("value", item.signature)],
                outputs: [DBusArgument("value", item.signature)]
            ) { arguments, _ in arguments }
        } + [DBusMethod("EchoAny", inputs: [DBusArgument("value", "v")], outputs: [DBusArgument("value", "v")]) { a, _ in a }])
}

@Suite struct ValueRoundTripTests {
    @Test(arguments: valueCases)
    func signatureIsComputedFromTheValue(_ item: ValueCase) throws {
        #expect(item.value.signature == item.signature)
        try item.value.validate()
    }

    @Test func everyValueRoundTripsThroughOurClient() throws {
        let fixture = try ServiceFixture(interfaces: [echoInterface()])
        for (index, item) in valueCases.enumerated() {
            let reply = try fixture.call("Echo\(index)", [item.value])
            #expect(reply == [item.value], "\(item.label)")
            // The same value inside a variant.
            let wrapped = try fixture.call("EchoAny", [.variant(item.value)])
            #expect(wrapped == [.variant(item.value)], "\(item.label) in a variant")
        }
    }

    @Test func accessorsReadCommonShapes() {
        let dict = DBusValue.vardict(["a": .string("x"), "b": .bool(true), "c": .uint32(5)])
        #expect(dict.dictionary?["a"]?.string == "x")
        #expect(dict.dictionary?["b"]?.bool == true)
        #expect(dict.dictionary?["c"]?.uint32 == 5)
        #expect(DBusValue.stringArray(["p", "q"]).stringArray == ["p", "q"])
        #expect(DBusValue.variant(.int64(-2)).int32 == -2)
        #expect(DBusValue.int32(-1).uint32 == nil)
        #expect(DBusValue.structure([.string("a")]).fields == [.string("a")])
        #expect(DBusValue.string("x").bool == nil)
    }

    @Test func oneMegabyteStringRoundTrips() throws {
        let fixture = try ServiceFixture(interfaces: [echoInterface()])
        let big = String(repeating: "abcdefghij✓", count: 1_048_576 / 13 + 1)
        #expect(big.utf8.count > 1_048_576)
        let index = try #require(valueCases.firstIndex { $0.signature == "s" })
        let reply = try fixture.call("Echo\(index)", [.string(big)])
        #expect(reply.first?.string == big)
    }
}

/// Values libdbus would abort on must be refused with an error instead.
struct InvalidValueCase: CustomTestStringConvertible, Sendable {
    let label: String
    let value: DBusValue
    var testDescription: String { label }
}

@Suite struct InvalidValueTests {
    static let cases: [InvalidValueCase] = [
        InvalidValueCase(label: "NUL in string", value: .string("a\u{0}b")),
        InvalidValueCase(label: "bad object path", value: .objectPath("not/a/path")),
        InvalidValueCase(label: "trailing slash path", value: .objectPath("/a/")),
        InvalidValueCase(label: "bad signature", value: .signature("a{vs}")),
        InvalidValueCase(label: "array element mismatch", value: .array(elementSignature: "s", [.int32(1)])),
        InvalidValueCase(label: "non-basic dict key", value: .dictionary(keySignature: "v", valueSignature: "s", [])),
        InvalidValueCase(label: "empty struct", value: .structure([])),
        InvalidValueCase(label: "NUL nested in a{sv}", value: .vardict(["k": .string("\u{0}")])),
    ]

    @Test(arguments: cases)
    func validationThrowsInvalidArgs(_ item: InvalidValueCase) {
        #expect(throws: DBusError.self) { try item.value.validate() }
    }

    @Test(arguments: cases)
    func sendingThrowsAndTheServiceSurvives(_ item: InvalidValueCase) throws {
        let fixture = try ServiceFixture(interfaces: [echoInterface()])
        let error = try #require(throws: DBusError.self) { try fixture.call("EchoAny", [.variant(item.value)]) }
        #expect(error.name == DBusError.Name.invalidArgs)
        #expect(try fixture.call("EchoAny", [.variant(.string("still up"))]) == [.variant(.string("still up"))])
    }

    @Test func invalidUTF8BytesAreRefused() throws {
        #expect(throws: DBusError.self) { try DBusValue.string(utf8Bytes: [0x61, 0xff, 0x62]) }
        #expect(throws: DBusError.self) { try DBusValue.string(utf8Bytes: [0xed, 0xa0, 0x80]) }  // surrogate
        #expect(throws: DBusError.self) { try DBusValue.string(utf8Bytes: [0x61, 0x00]) }
        #expect(try DBusValue.string(utf8Bytes: Array("ok ✓".utf8)) == .string("ok ✓"))
    }

    /// What a Swift String can hold D-Bus takes, but NUL: noncharacters and the last scalar go
    /// through a real bus and come back the same (only NUL is checked before appending).
    @Test(arguments: [[0xFFFE, 0xFFFF], [0x10FFFF], [0xFDD0, 0x20], [0x65, 0x301], [0x65E5, 0x672C, 0x2713]])
    func everyScalarButNULGoesThroughTheBus(_ scalars: [UInt32]) throws {
        let text = String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
        #expect(text.unicodeScalars.count == scalars.count)
        let fixture = try ServiceFixture(interfaces: [echoInterface()])
        #expect(try fixture.call("EchoAny", [.variant(.string(text))]) == [.variant(.string(text))])
    }

    @Test func invalidNamesInACallAreRefused() throws {
        let fixture = try ServiceFixture(interfaces: [echoInterface()])
        #expect(throws: DBusError.self) {
            try fixture.client.call(destination: "no dots", path: "/", interface: nil, method: "Ping")
        }
        #expect(throws: DBusError.self) {
            try fixture.client.call(destination: TestService.name, path: "bad", interface: nil, method: "Ping")
        }
        #expect(throws: DBusError.self) {
            try fixture.client.call(destination: TestService.name, path: "/", interface: "x", method: "Ping")
        }
        #expect(throws: DBusError.self) {
            try fixture.client.call(destination: TestService.name, path: "/", interface: nil, method: "a.b")
        }
    }
}

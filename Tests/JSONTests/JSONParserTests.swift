import JSON
import Testing

/// The JSON reader against RFC 8259: what it accepts, what it refuses and where it says the
/// fault is, and that what the writer prints reads back the same.
@Suite struct JSONParserTests {
    @Test(arguments: [
        ("null", JSONValue.null),
        (" true ", .bool(true)),
        ("false", .bool(false)),
        ("0", .number(0)),
        ("-12", .number(-12)),
        ("9223372036854775807", .number(Int.max)),
        ("9223372036854775808", .fraction(9223372036854775808.0)),
        ("1.5", .fraction(1.5)),
        ("-2e3", .fraction(-2000)),
        ("\"\"", .string("")),
        ("\"a\\\"b\\\\c\\/d\\n\\t\"", .string("a\"b\\c/d\n\t")),
        ("\"\\u00e9\\u4e2d\"", .string("é中")),
        ("\"\\ud83d\\ude00\"", .string("😀")),
        ("\"bücher\"", .string("bücher")),
        ("[]", .array([])),
        ("[1, [2, {}], \"x\"]", .array([.number(1), .array([.number(2), .object([])]), .string("x")])),
        ("{\"b\": 1, \"a\": [null]}", .object([("b", .number(1)), ("a", .array([.null]))])),
    ] as [(String, JSONValue)])
    func accepts(text: String, value: JSONValue) throws {
        #expect(try JSONValue(parsing: text) == value)
    }

    @Test(arguments: [
        ("", "line 1, column 1: unexpected end of text, expected a value"),
        ("{", "line 1, column 2: expected a member name in double quotes"),
        ("[1,]", "line 1, column 4: unexpected character, expected a value"),
        ("[1 2]", "line 1, column 4: expected ',' or ']' in an array"),
        ("{\"a\" 1}", "line 1, column 6: expected ':' after a member name"),
        ("{\"a\": 1,}", "line 1, column 9: expected a member name in double quotes"),
        ("01", "line 1, column 1: a number must not start with 0"),
        ("1.", "line 1, column 1: a fraction needs a digit after '.'"),
        ("-", "line 1, column 1: a number needs a digit"),
        ("tru", "line 1, column 1: unexpected word, expected true"),
        ("\"abc", "line 1, column 1: unterminated string"),
        ("\"a\u{1}\"", "line 1, column 3: a control character must be escaped in a string"),
        ("\"\\x\"", "line 1, column 2: unknown escape"),
        ("\"\\u12\"", "line 1, column 2: a \\u escape needs four hex digits"),
        ("\"\\ud800\"", "line 1, column 2: a high surrogate \\u escape without its low half"),
        ("\"\\udc00\"", "line 1, column 2: a low surrogate \\u escape without its high half"),
        ("{}\n  x", "line 2, column 3: unexpected text after the value"),
        ("'a'", "line 1, column 1: unexpected character, expected a value"),
    ])
    func refuses(text: String, message: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: text) }
        do { _ = try JSONValue(parsing: text) } catch { #expect(error.description == message) }
    }

    @Test func refusesInvalidUTF8InAString() {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x22]
        do {
            _ = try JSONValue(parsing: bytes)
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.description == "line 1, column 1: a string is not valid UTF-8")
        }
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: JSONValue.maximumDepth + 1) + String(repeating: "]", count: JSONValue.maximumDepth + 1)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: deep) }
        let limit = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        #expect((try? JSONValue(parsing: limit)) != nil)
    }

    @Test func writtenTextReadsBackTheSame() throws {
        let value = JSONValue.object([
            ("s", .string("quote \" backslash \\ tab \t nul \u{0} del \u{7F} é")), ("n", .number(-3)),
            ("f", .fraction(0.25)), ("a", .array([.bool(true), .null])), ("o", .object([("k", .string("v"))])),
        ])
        #expect(try JSONValue(parsing: value.text) == value)
    }

    @Test func lookupsTakeTheLastMemberOfAName() throws {
        let value = try JSONValue(parsing: "{\"a\": 1, \"b\": [\"x\"], \"a\": 2}")
        #expect(value["a"] == .number(2))
        #expect(value["b"]?.items?.first?.string == "x")
        #expect(value["missing"] == nil)
        #expect(value.members?.map(\.0) == ["a", "b", "a"])
        #expect(JSONValue.string("x")["a"] == nil)
    }
}

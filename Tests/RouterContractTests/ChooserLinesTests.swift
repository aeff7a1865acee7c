import JSON
import RouterContract
import RoutingCore
import Testing

/// The chooser's line protocol: what the daemon writes the chooser reads back whole, and the
/// exact lines (the protocol between two processes that may be of different builds).
@Suite struct ChooserLinesTests {
    static let question = ChooserQuestion(
        id: 3, url: "https://example.org/", original: "https://t.co/x", opener: "slack",
        safety: .object([("verdict", .string("warn"))]),
        choices: [OfferedChoice(key: "firefox.desktop", label: "Firefox\tESR\nnow", icon: "firefox-esr"), OfferedChoice(key: "copy", label: "Copy", icon: "")],
        token: "tok")

    @Test func aQuestionRoundTripsWithLabelsWhole() throws {
        let text = Self.question.json.text
        #expect(ChooserQuestion(json: try JSONValue(parsing: text)) == Self.question)
        #expect(text == #"{"id":3,"url":"https://example.org/","original":"https://t.co/x","opener":"slack","safety":{"verdict":"warn"},"#
                + #""choices":[{"key":"firefox.desktop","label":"Firefox\tESR\nnow","icon":"firefox-esr"},{"key":"copy","label":"Copy","icon":""}],"token":"tok"}"#)
    }

    @Test func anUnchangedOriginalAndAnEmptyOpenerAreLeftOut() {
        var question = Self.question
        question.original = question.url
        question.opener = ""
        let keys = question.json.members?.map(\.0)
        #expect(keys == ["id", "url", "safety", "choices", "token"])
    }

    @Test(arguments: [#"{"url":"https://e.org/","choices":[]}"#, #"{"url":"https://e.org/","choices":[{"label":"x"}]}"#,
                      #"{"choices":[{"key":"copy"}]}"#, #"[1]"#, #"{"ping":1}"#])
    func whatIsNoQuestion(line: String) throws {
        #expect(ChooserQuestion(json: try JSONValue(parsing: line)) == nil)
    }

    @Test func aChoiceWithoutLabelReadsAsItsKey() throws {
        let question = ChooserQuestion(json: try JSONValue(parsing: #"{"url":"https://e.org/","choices":[{"key":"work"}]}"#))
        #expect(question?.choices == [OfferedChoice(key: "work", label: "work", icon: "")])
        #expect(question?.token == "" && question?.id == nil)
    }

    @Test(arguments: [(ChooserCommand.ping(4), #"{"ping":4}"#), (.close(9), #"{"close":9}"#)])
    func commands(command: ChooserCommand, line: String) throws {
        #expect(command.json.text == line)
        #expect(ChooserCommand(json: try JSONValue(parsing: line)) == command)
    }

    @Test(arguments: [
        (ChooserReply(.shown, id: 2), #"{"event":"shown","id":2}"#),
        (ChooserReply(.pong, id: 2), #"{"event":"pong","id":2}"#),
        (ChooserReply(.cancelled, id: nil), #"{"answer":"cancel"}"#),
        (ChooserReply(.chose(ChooserPick(key: "work", index: 1)), id: 5), #"{"answer":"choose","choice":"work","index":1,"id":5}"#),
        (ChooserReply(.chose(ChooserPick(key: "copy", index: nil, url: "https://e.org/x", remember: RememberRequest(scope: "domain", value: "e.org"), keep: true)), id: nil),
         #"{"answer":"choose","choice":"copy","url":"https://e.org/x","remember":{"scope":"domain","value":"e.org"},"keep":true}"#),
    ])
    func replies(reply: ChooserReply, line: String) throws {
        #expect(reply.json.text == line)
        #expect(ChooserReply(json: try JSONValue(parsing: line)) == reply)
    }

    @Test(arguments: [#"{"answer":"choose"}"#, #"{"answer":"maybe"}"#, #"{"event":"other"}"#, #"{"close":1}"#])
    func whatIsNoReply(line: String) throws {
        #expect(ChooserReply(json: try JSONValue(parsing: line)) == nil)
    }
}

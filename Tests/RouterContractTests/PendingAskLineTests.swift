import JSON
import RouterContract
import RoutingCore
import Testing

/// `pending-asks.jsonl`'s lines: a daemon of one build reads what another wrote, so the keys
/// and their order are the format.
@Suite struct PendingAskLineTests {
    static let question = PendingQuestion(
        id: 12, time: 1_764_000_000.25, url: "https://t.co/x", finalURL: "https://example.org/", rule: .named("Work"), forced: true,
        opener: "slack", choices: [OfferedChoice(key: "firefox.desktop", label: "Firefox", icon: "firefox")],
        environment: ["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"])

    @Test func aQuestionIsWrittenAsBeforeAndReadBack() throws {
        let text = PendingAskLine.question(Self.question).json.text
        #expect(text == #"{"ask":12,"time":1764000000.25,"url":"https://t.co/x","final_url":"https://example.org/","rule":"Work","forced":true,"#
                + #""opener":"slack","choices":[{"key":"firefox.desktop","label":"Firefox","icon":"firefox"}],"environment":{"DISPLAY":":0","WAYLAND_DISPLAY":"wayland-1"}}"#)
        #expect(PendingAskLine(json: try JSONValue(parsing: text)) == .question(Self.question))
    }

    @Test func theDefaultRuleAndAnUnforcedAskLeaveTheirKeysOut() throws {
        var question = Self.question
        question.rule = .index(4)
        question.forced = false
        question.opener = nil
        let keys = question.json.members?.map(\.0)
        #expect(keys == ["ask", "time", "url", "final_url", "rule_index", "choices", "environment"])
        question.rule = nil
        #expect(PendingAskLine(json: try JSONValue(parsing: question.json.text)) == .question(question))
    }

    @Test(arguments: [(PendingAskLine.shown(id: 3, notification: 77), #"{"shown":3,"notification":77}"#), (.done(id: 3), #"{"done":3}"#)])
    func marks(line: PendingAskLine, text: String) throws {
        #expect(line.json.text == text)
        #expect(PendingAskLine(json: try JSONValue(parsing: text)) == line)
    }

    @Test(arguments: [#"{"ask":0,"time":1,"url":"u","final_url":"u"}"#, #"{"ask":1,"url":"u","final_url":"u"}"#,
                      #"{"ask":4294967296,"time":1,"url":"u","final_url":"u"}"#, #"{"shown":1}"#, #"{"done":-1}"#, #"{}"#])
    func whatIsNoLine(text: String) throws {
        #expect(PendingAskLine(json: try JSONValue(parsing: text)) == nil)
    }

    @Test func aWholeSecondAndAMalformedChoiceStillRead() throws {
        let line = PendingAskLine(json: try JSONValue(parsing: #"{"ask":1,"time":5,"url":"u","final_url":"v","choices":[{"key":""},{"key":"copy"}],"environment":{"A":1}}"#))
        guard case .question(let question)? = line else { Issue.record("not a question: \(String(describing: line))"); return }
        #expect(question.time == 5 && question.choices.map(\.key) == ["copy"] && question.environment.isEmpty)
    }
}

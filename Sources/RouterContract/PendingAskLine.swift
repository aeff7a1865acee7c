import JSON
import RoutingCore

/// One line of `pending-asks.jsonl`, the questions a daemon leaves for the next one: a question
/// (written before it is shown), that it is shown in a notification, or that it is answered.
/// The daemon writes them and reads them back after a restart; this is the one place the keys
/// live.
public enum PendingAskLine: Sendable, Equatable {
    /// A question waiting for its answer.
    case question(PendingQuestion)
    /// `{"shown":ID,"notification":N}`: question `ID` is on notification `N`'s buttons.
    case shown(id: UInt32, notification: UInt32)
    /// `{"done":ID}`: question `ID` has its answer.
    case done(id: UInt32)

    /// The line's object.
    public var json: JSONValue {
        switch self {
        case .question(let question): return question.json
        case .shown(let id, let notification): return .object([("shown", .number(Int(id))), ("notification", .number(Int(notification)))])
        case .done(let id): return .object([("done", .number(Int(id)))])
        }
    }

    /// The line an object holds; nil for one that is none (a torn or foreign line).
    public init?(json: JSONValue) {
        if let id = json["done"]?.integer.flatMap(UInt32.init(exactly:)) {
            self = .done(id: id)
        } else if let id = json["shown"]?.integer.flatMap(UInt32.init(exactly:)) {
            guard let notification = json["notification"]?.integer.flatMap(UInt32.init(exactly:)) else { return nil }
            self = .shown(id: id, notification: notification)
        } else if let question = PendingQuestion(json: json) {
            self = .question(question)
        } else {
            return nil
        }
    }
}

/// A waiting question as the pending-asks file keeps it: `{"ask":ID,"time":…,"url":…,
/// "final_url":…,"rule":…|"rule_index":…,"forced":true,"opener":…,"choices":[…],
/// "environment":{…}}`.
public struct PendingQuestion: Sendable, Equatable {
    /// The click's id in `recent` (never 0).
    public var id: UInt32
    /// When the link was clicked, in seconds since the epoch.
    public var time: Double
    /// The link as clicked, and as it will open.
    public var url: String, finalURL: String
    /// The rule that asked, nil for the default.
    public var rule: Decision.RuleReference?
    /// True when the click itself asked to be asked (`ask` option, `openurl --ask`).
    public var forced: Bool
    /// The app the click came from, when known.
    public var opener: String?
    /// The choices as they were offered.
    public var choices: [OfferedChoice]
    /// The click's display variables, for the window.
    public var environment: [String: String]

    /// A waiting question.
    public init(id: UInt32, time: Double, url: String, finalURL: String, rule: Decision.RuleReference?, forced: Bool,
                opener: String?, choices: [OfferedChoice], environment: [String: String]) {
        self.id = id
        self.time = time
        self.url = url
        self.finalURL = finalURL
        self.rule = rule
        self.forced = forced
        self.opener = opener
        self.choices = choices
        self.environment = environment
    }

    /// The line's object; the environment in name order.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("ask", .number(Int(id))), ("time", .fraction(time)), ("url", .string(url)), ("final_url", .string(finalURL)),
        ]
        switch rule {
        case .named(let name)?: members.append(("rule", .string(name)))
        case .index(let index)?: members.append(("rule_index", .number(index)))
        case nil: break
        }
        if forced { members.append(("forced", .bool(true))) }
        if let opener { members.append(("opener", .string(opener))) }
        members.append(("choices", .array(choices.map(\.json))))
        members.append(("environment", .object(environment.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        return .object(members)
    }

    /// The question an object holds; nil without an id (0 is none), a time and both URLs. A
    /// malformed choice is left out; a non-string variable is dropped.
    public init?(json: JSONValue) {
        guard let id = json["ask"]?.integer.flatMap(UInt32.init(exactly:)), id != 0,
              let url = json["url"]?.string, let finalURL = json["final_url"]?.string else { return nil }
        let time: Double
        switch json["time"] {
        case .fraction(let seconds)?: time = seconds
        case .number(let seconds)?: time = Double(seconds)
        default: return nil
        }
        var rule: Decision.RuleReference?
        if let name = json["rule"]?.string { rule = .named(name) } else if let index = json["rule_index"]?.integer { rule = .index(index) }
        var environment: [String: String] = [:]
        for (name, variable) in json["environment"]?.members ?? [] { if let text = variable.string { environment[name] = text } }
        self.init(id: id, time: time, url: url, finalURL: finalURL, rule: rule, forced: json["forced"]?.bool ?? false,
                  opener: json["opener"]?.string, choices: (json["choices"]?.items ?? []).compactMap(OfferedChoice.init(json:)),
                  environment: environment)
    }
}

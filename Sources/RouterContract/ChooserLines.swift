import JSON
import RoutingCore

/// One choice as it travels to the chooser and into the pending-asks file: the key the config
/// writes (`firefox.desktop`, `work`, `copy`), what the button says and its icon. Only whoever
/// holds the rules in force turns a key back into a `Choice.Action`, so this is all the wire has.
public struct OfferedChoice: Sendable, Equatable {
    /// The choice as the config writes it.
    public var key: String
    /// What the button says.
    public var label: String
    /// An icon name or absolute path, empty for none.
    public var icon: String

    /// An offered choice.
    public init(key: String, label: String, icon: String) {
        self.key = key
        self.label = label
        self.icon = icon
    }

    /// The wire form of `choice`.
    public init(_ choice: Choice) {
        self.init(key: choice.key, label: choice.label, icon: choice.icon)
    }

    /// `{"key":…,"label":…,"icon":…}`.
    public var json: JSONValue {
        .object([("key", .string(key)), ("label", .string(label)), ("icon", .string(icon))])
    }

    /// The choice an object holds; nil without a key. A missing label reads as the key, a
    /// missing icon as none.
    public init?(json: JSONValue) {
        guard let key = json["key"]?.string, !key.isEmpty else { return nil }
        self.init(key: key, label: json["label"]?.string ?? key, icon: json["icon"]?.string ?? "")
    }
}

/// A question for `openurl-chooser --serve`, one JSON line from the daemon: `{"id":…,"url":…,
/// "original":…,"opener":…,"safety":{…},"choices":[{"key":…,"label":…,"icon":…},…],"token":…}`.
/// Every field is a JSON string, so a tab or a newline in a label survives.
public struct ChooserQuestion: Sendable, Equatable {
    /// The question's id: every line the chooser writes for it carries the same one.
    public var id: Int?
    /// The URL a choice opens.
    public var url: String
    /// The URL as clicked, when hygiene or a rewrite changed it.
    public var original: String?
    /// The app the click came from, when known.
    public var opener: String?
    /// The decision's safety object (as `openurl test --json` prints it).
    public var safety: JSONValue?
    /// The choices, in order.
    public var choices: [OfferedChoice]
    /// The activation token the window presents itself with, empty for none.
    public var token: String

    /// A question.
    public init(id: Int?, url: String, original: String?, opener: String?, safety: JSONValue?, choices: [OfferedChoice], token: String) {
        self.id = id
        self.url = url
        self.original = original
        self.opener = opener
        self.safety = safety
        self.choices = choices
        self.token = token
    }

    /// The line's object; `original` and an empty opener are left out.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let id { members.append(("id", .number(id))) }
        members.append(("url", .string(url)))
        if let original, original != url { members.append(("original", .string(original))) }
        if let opener, !opener.isEmpty { members.append(("opener", .string(opener))) }
        if let safety { members.append(("safety", safety)) }
        members.append(("choices", .array(choices.map(\.json))))
        members.append(("token", .string(token)))
        return .object(members)
    }

    /// The question a line holds; nil unless it has a URL and at least one well-formed choice.
    public init?(json: JSONValue) {
        guard json.members != nil, let url = json["url"]?.string, let items = json["choices"]?.items, !items.isEmpty else { return nil }
        var choices: [OfferedChoice] = []
        for item in items {
            guard let choice = OfferedChoice(json: item) else { return nil }
            choices.append(choice)
        }
        let token = json["token"]?.string ?? ""
        self.init(id: json["id"]?.integer, url: url, original: json["original"]?.string, opener: json["opener"]?.string,
                  safety: json["safety"], choices: choices, token: token)
    }
}

/// The daemon's other lines to a serving chooser.
public enum ChooserCommand: Sendable, Equatable {
    /// `{"ping":ID}`: answer at once, or be killed as frozen.
    case ping(Int)
    /// `{"close":ID}`: question `ID`'s time ran out; take its window down without an answer.
    case close(Int)

    /// The line's object.
    public var json: JSONValue {
        switch self {
        case .ping(let id): return .object([("ping", .number(id))])
        case .close(let id): return .object([("close", .number(id))])
        }
    }

    /// The command a line holds; nil for a line that is none (a question).
    public init?(json: JSONValue) {
        if let id = json["ping"]?.integer { self = .ping(id) } else if let id = json["close"]?.integer { self = .close(id) } else { return nil }
    }
}

/// One line from the chooser: an event or an answer, with the id of the question it is about
/// (none in one-shot mode). A line for another id than the question shown is stale.
public struct ChooserReply: Sendable, Equatable {
    /// What the line says.
    public enum Event: Sendable, Equatable {
        /// `{"event":"shown"}`: the window is mapped (a chooser that exits before could not ask).
        case shown
        /// `{"event":"pong"}`: the answer to a ping.
        case pong
        /// `{"answer":"choose",…}`.
        case chose(ChooserPick)
        /// `{"answer":"cancel"}`: dismissed.
        case cancelled
    }

    /// What the line says.
    public var event: Event
    /// The question it is about.
    public var id: Int?

    /// A reply.
    public init(_ event: Event, id: Int?) {
        self.event = event
        self.id = id
    }

    /// The line's object, `id` last.
    public var json: JSONValue {
        var members: [(String, JSONValue)]
        switch event {
        case .shown: members = [("event", .string("shown"))]
        case .pong: members = [("event", .string("pong"))]
        case .cancelled: members = [("answer", .string("cancel"))]
        case .chose(let pick): members = pick.members
        }
        if let id { members.append(("id", .number(id))) }
        return .object(members)
    }

    /// The reply a line holds; nil for a line that is none of these.
    public init?(json: JSONValue) {
        let id = json["id"]?.integer
        switch (json["event"]?.string, json["answer"]?.string) {
        case ("shown"?, _): self.init(.shown, id: id)
        case ("pong"?, _): self.init(.pong, id: id)
        case (nil, "cancel"?): self.init(.cancelled, id: id)
        case (nil, "choose"?):
            guard let pick = ChooserPick(json: json) else { return nil }
            self.init(.chose(pick), id: id)
        default: return nil
        }
    }
}

/// A choice made in the window: `{"answer":"choose","choice":KEY,"index":N,"url":…,
/// "remember":{"scope":…,"value":…},"keep":true}`.
public struct ChooserPick: Sendable, Equatable {
    /// The chosen choice's key (`copy` for Ctrl+C, offered or not).
    public var key: String
    /// Its place in the question's `choices`; nil for a Copy the question did not offer.
    public var index: Int?
    /// The link as the user edited it, when they did.
    public var url: String?
    /// "Remember for …", when ticked.
    public var remember: RememberRequest?
    /// Ctrl+Enter: the window stays open and more answers may follow.
    public var keep: Bool

    /// A pick.
    public init(key: String, index: Int?, url: String? = nil, remember: RememberRequest? = nil, keep: Bool = false) {
        self.key = key
        self.index = index
        self.url = url
        self.remember = remember
        self.keep = keep
    }

    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("answer", .string("choose")), ("choice", .string(key))]
        if let index { members.append(("index", .number(index))) }
        if let url { members.append(("url", .string(url))) }
        if let remember { members.append(("remember", .object([("scope", .string(remember.scope)), ("value", .string(remember.value))]))) }
        if keep { members.append(("keep", .bool(true))) }
        return members
    }

    init?(json: JSONValue) {
        let index = json["index"]?.integer
        guard let key = json["choice"]?.string ?? (index == nil ? nil : "") else { return nil }
        var remember: RememberRequest?
        if let fields = json["remember"], let scope = fields["scope"]?.string, let value = fields["value"]?.string {
            remember = RememberRequest(scope: scope, value: value)
        }
        self.init(key: key, index: index, url: json["url"]?.string, remember: remember, keep: json["keep"]?.bool ?? false)
    }
}

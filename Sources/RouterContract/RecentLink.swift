import DBus

/// One entry of `Recent(u limit) → aa{sv}`: a link the daemon routed and what became of it. The
/// daemon builds it from its recent list and `openurl recent` (and completion) read it back;
/// both go through `dbusValue` and `init(dbusValue:)`, the one place its keys live.
///
/// Reading is tolerant field by field, as `openurl recent` always was: a missing or mistyped
/// field reads as 0 or empty (`final_url` as `url`), so one odd entry never hides the list.
public struct RecentLink: Equatable, Sendable {
    /// Its id, for `openurl reopen`.
    public var id: UInt32
    /// When it was routed, in seconds since the epoch.
    public var time: Double
    /// The link as clicked, and as opened (after unwrapping and cleaning).
    public var url: String, finalURL: String
    /// The decision (`open`, `ask`, …) and its target, empty when none.
    public var decision: String, target: String
    /// The rule that decided, empty for the default; the program the click came from.
    public var rule: String, opener: String
    /// What became of it (`opened`, `failed: …`).
    public var outcome: String

    /// A recent link.
    public init(id: UInt32, time: Double, url: String, finalURL: String, decision: String, target: String, rule: String, opener: String, outcome: String) {
        self.id = id
        self.time = time
        self.url = url
        self.finalURL = finalURL
        self.decision = decision
        self.target = target
        self.rule = rule
        self.opener = opener
        self.outcome = outcome
    }

    /// The keys, in the order they are written.
    enum Key {
        static let id = "id", time = "time", url = "url", finalURL = "final_url", decision = "decision"
        static let target = "target", rule = "rule", opener = "opener", outcome = "outcome"
    }

    /// The `a{sv}` entry.
    public var dbusValue: DBusValue {
        .vardict(pairs: [
            (Key.id, .uint32(id)), (Key.time, .double(time)), (Key.url, .string(url)), (Key.finalURL, .string(finalURL)),
            (Key.decision, .string(decision)), (Key.target, .string(target)), (Key.rule, .string(rule)),
            (Key.opener, .string(opener)), (Key.outcome, .string(outcome)),
        ])
    }

    /// Reads an entry; anything that is not an `a{sv}`, or a field missing from it, reads as empty.
    public init(dbusValue value: DBusValue) {
        let item = value.dictionary ?? [:]
        let url = item[Key.url]?.string ?? ""
        self.init(id: item[Key.id]?.uint32 ?? 0, time: item[Key.time]?.double ?? 0, url: url, finalURL: item[Key.finalURL]?.string ?? url,
                  decision: item[Key.decision]?.string ?? "", target: item[Key.target]?.string ?? "", rule: item[Key.rule]?.string ?? "",
                  opener: item[Key.opener]?.string ?? "", outcome: item[Key.outcome]?.string ?? "")
    }

    /// A whole `Recent` reply, newest first as sent; no list at all is empty.
    public static func list(_ reply: DBusValue?) -> [RecentLink] {
        (reply?.array ?? []).map(RecentLink.init(dbusValue:))
    }
}

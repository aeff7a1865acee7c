import DBus
import RouterContract
import Testing

/// `Recent`'s entries: what the daemon encodes, `openurl recent` decodes back, and a missing or
/// mistyped field reads as empty (as `recent` always showed it), the other fields kept.
@Suite struct RecentLinkTests {
    static let sample = RecentLink(id: 7, time: 1_764_000_000.5, url: "https://t.co/x", finalURL: "https://example.com/", decision: "open",
                                   target: "firefox.desktop", rule: "Work", opener: "slack", outcome: "opened")

    @Test(arguments: [
        sample,
        RecentLink(id: 0, time: 0, url: "", finalURL: "", decision: "discard", target: "", rule: "", opener: "", outcome: "failed: x"),
    ])
    func roundTrips(link: RecentLink) {
        #expect(RecentLink(dbusValue: link.dbusValue) == link)
        #expect(RecentLink.list(.array(elementSignature: "a{sv}", [link.dbusValue, link.dbusValue])) == [link, link])
    }

    @Test func theKeysAndTheirOrderAreTheWireFormat() {
        #expect(Self.sample.dbusValue.dictionaryEntries?.compactMap(\.key.string)
                == ["id", "time", "url", "final_url", "decision", "target", "rule", "opener", "outcome"])
    }

    @Test(arguments: [
        ("id", nil, { $0.id == 0 }),
        ("time", DBusValue.string("now"), { $0.time == 0 }),
        ("final_url", nil, { $0.finalURL == "https://t.co/x" }),
        ("target", DBusValue.uint32(1), { $0.target == "" }),
        ("outcome", nil, { $0.outcome == "" }),
    ] as [(String, DBusValue?, @Sendable (RecentLink) -> Bool)])
    func aMissingOrMistypedFieldReadsEmpty(key: String, replacement: DBusValue?, readsEmpty: @Sendable (RecentLink) -> Bool) {
        var entries = Self.sample.dbusValue.dictionary ?? [:]
        entries[key] = replacement
        let decoded = RecentLink(dbusValue: .vardict(entries))
        #expect(readsEmpty(decoded))
        #expect(decoded.url == "https://t.co/x" && decoded.decision == "open" && decoded.rule == "Work")
    }

    @Test func aReplyThatIsNotAListIsEmpty() {
        #expect(RecentLink.list(.string("x")) == [])
        #expect(RecentLink.list(nil) == [])
        #expect(RecentLink(dbusValue: .uint32(1)) == RecentLink(id: 0, time: 0, url: "", finalURL: "", decision: "", target: "", rule: "", opener: "", outcome: ""))
    }
}

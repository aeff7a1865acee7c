import Testing
import RoutingCore

/// `Outcome(recorded:)` reads back exactly what `description` writes to `recent.tsv`, and any
/// other text survives unchanged.
struct OutcomeRecordedTests {
    @Test(arguments: [
        (Outcome.done, "done"), (.decidedOnly, "dry-run"), (.duplicate, "duplicate"), (.asking, "asking"),
        (.cancelled, "cancelled"), (.expired, "expired"), (.interrupted, "interrupted"), (.abandoned, "abandoned"),
        (.failed("could not open x: no such file"), "failed: could not open x: no such file"), (.failed(""), "failed: "),
        (.blocked("google"), "blocked by google"), (.held("on a block list: urlhaus"), "held: on a block list: urlhaus"),
        (.held("failed: not a failure"), "held: failed: not a failure"), (.failed("\u{301}é"), "failed: \u{301}é"),
    ])
    func roundTrips(outcome: Outcome, text: String) {
        #expect(outcome.description == text)
        #expect(Outcome(recorded: text) == outcome)
    }

    @Test(arguments: ["", "Done", "failed:no space", "held", "blocked", "blocked by", "some future outcome", "done "])
    func unknownTextIsKeptAsWritten(text: String) {
        let outcome = Outcome(recorded: text)
        #expect(outcome == .unknown(text))
        #expect(outcome.description == text)
    }
}

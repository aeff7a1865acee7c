import Records
import ConfigFiles
import ConfigLanguage
import Execution
import Foundation
import Launching
import Notifying
import Platform
import Routing
import RoutingCore
import TestSupport
import Testing

/// Issue 30: the time clicks are judged at is the session's clock, so duplicates, `ask_timeout`
/// and a pending question's expiry are driven here by a clock moved by hand, not by waiting.
/// The executor is the real one, in embedded mode's session (no bus, no loop), launching a
/// recording browser.
@Suite struct SessionClockTests {
    let desktop: IsolatedDesktop
    let browser: RecordingBrowser
    let clock = ManualClock(at: 1_800_000_000)

    init() throws {
        desktop = try IsolatedDesktop(name: "clock")
        browser = try RecordingBrowser(logFile: desktop.root + "/browser.log")
    }

    /// An executor over `settings` whose default opens the recording browser.
    func executor(_ settings: String = "", staysForAnswers: Bool = false, pending: PendingAsks? = nil,
                  record: RecentLinks? = nil) throws -> DecisionExecutor {
        let config = try ConfigLoader.load(text: """
            [settings]
            \(settings)
            [apps.rec]
            exec = ["\(browser.executable)", "{url}"]
            [default]
            open = "rec"
            """, path: desktop.configHome + "/openurld/config.toml")
        var environment = desktop.environment
        for (key, value) in browser.environment { environment[key] = value }
        let paths = XDGPaths(environment: environment)
        let session = Session(bus: nil, loop: nil, environment: environment, paths: paths, staysForAnswers: staysForAnswers, clock: clock.clock)
        return DecisionExecutor(session: session, rules: RulesInForce(engine: RuleEngine(config: config), paths: paths, environment: environment),
                                record: record, pending: pending, notices: Notices(session: session))
    }

    func carryOut(_ executor: DecisionExecutor, _ url: String, forceAsk: Bool = false, clickedAt time: Double? = nil) throws -> Outcome? {
        let decision = try executor.rules.engine.decide(url, forceAsk: forceAsk)
        var outcome: Outcome?
        executor.carryOut(decision, click: Click(time: time ?? clock.now)) { outcome = $0.outcome }
        return outcome
    }

    @Test func theSameLinkWithinDedupeOpensOnceAndAgainOnceTheWindowHasPassed() throws {
        let executor = try executor("dedupe_ms = 1000")
        let url = "https://example.org/twice"
        #expect(try carryOut(executor, url) == .done)
        clock.advance(by: 0.5)
        #expect(try carryOut(executor, url) == .duplicate)
        clock.advance(by: 0.6)
        #expect(try carryOut(executor, url) == .done)
        #expect(browser.waitForRecords(2) == [[url], [url]])
    }

    /// Issue 32: a click whose effect is over within the call (a launch, a discard) writes one
    /// line, with its outcome, before the reply: not an "asking" line and then another.
    @Test(arguments: ["https://example.org/launched", "mailto:someone@example.org"])
    func aClickOverWithinTheCallWritesOneLine(url: String) throws {
        let path = desktop.stateHome + "/recent-one-\(url.hasPrefix("mailto") ? "mail" : "web").tsv"
        let record = RecentLinks(path: path)
        let executor = try executor(record: record)
        let outcome = try carryOut(executor, url)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasSuffix("\t\(outcome?.description ?? "?")") == true, "\(lines) \(String(describing: outcome))")
        #expect(outcome != .asking)
    }

    @Test(arguments: [(elapsed: 29.0, remaining: 1.0), (elapsed: 30.0, remaining: 0.0), (elapsed: 3600.0, remaining: 0.0)])
    func aQuestionsTimeLeftIsReadOnTheSessionsClock(elapsed: Double, remaining: Double) {
        let request = AskRequest(decision: Decision(url: "https://example.org/", finalURL: "https://example.org/", effect: .discard),
                                 expires: clock.elapsed + 30, clock: clock.clock)
        clock.advance(by: elapsed)
        #expect(request.remainingSeconds == remaining)
    }

    @Test func aClickWhoseAskTimeoutHasPassedIsExpiredNotAsked() throws {
        let record = RecentLinks(path: desktop.stateHome + "/recent-late.tsv")
        let executor = try executor("ask_timeout = 30", staysForAnswers: true, record: record)
        let clicked = clock.now
        clock.advance(by: 31)
        #expect(try carryOut(executor, "https://example.org/late", forceAsk: true, clickedAt: clicked) == .asking)
        let outcome = record.entries.last?.outcome
        #expect(outcome == .expired, "\(String(describing: outcome))")
    }

    @Test(arguments: [(elapsed: 10.0, interrupted: false), (elapsed: 31.0, interrupted: true)])
    func aPendingQuestionIsAskedAgainWithinAskTimeoutAndInterruptedAfter(elapsed: Double, interrupted: Bool) throws {
        let pendingPath = desktop.stateHome + "/pending-\(Int(elapsed)).json"
        let recentPath = desktop.stateHome + "/recent-\(Int(elapsed)).tsv"
        let record = RecentLinks(path: recentPath)
        let pending = PendingAsks(path: pendingPath, loop: nil)
        let executor = try executor("ask_timeout = 30", staysForAnswers: true, pending: pending, record: record)
        let decision = try executor.rules.engine.decide("https://example.org/pending", forceAsk: true)
        let id = try #require(record.add(decision, opener: nil, outcome: .asking))
        pending.add(PendingAsk(id: id, time: clock.now, decision: decision, opener: nil, environment: [:]))
        clock.advance(by: elapsed)
        executor.resumePendingAsks()
        let outcome = record.entry(id: id)?.outcome
        #expect((outcome == .interrupted) == interrupted, "\(String(describing: outcome))")
    }

    /// Issue 31 case 10: time limits run on the monotonic clock while running.
    @Test(arguments: [-3600.0, 3600.0])
    func settingTheWallClockMovesNoDuplicateWindow(by jump: Double) throws {
        let executor = try executor("dedupe_ms = 1000")
        let url = "https://example.org/jump"
        #expect(try carryOut(executor, url) == .done)
        // Set back an hour, the link clicked again 1.1 s later is no duplicate (it was, for an hour).
        clock.setWall(by: jump)
        clock.advance(by: 0.5)
        #expect(try carryOut(executor, url, clickedAt: clock.now) == .duplicate)
        clock.advance(by: 0.6)
        #expect(try carryOut(executor, url, clickedAt: clock.now) == .done)
    }

    @Test func aClickTimeInTheFutureCountsAsNow() {
        let future = Click(time: clock.now + 3600).stamped(on: clock.clock)
        #expect(future.arrived == clock.elapsed)
        let past = Click(time: clock.now - 10).stamped(on: clock.clock)
        #expect(past.arrived == clock.elapsed - 10)
        // Stamped once: a later wall clock change moves it not.
        clock.setWall(by: -3600)
        #expect(past.stamped(on: clock.clock).arrived == past.arrived)
    }

    /// A question left by a daemon whose click the wall clock now puts an hour ahead is read
    /// with the resume's time, and so rewritten: a second restart gives it no more than
    /// `ask_timeout` either.
    @Test func aPendingQuestionFromTheFutureIsReadWithTheTimeOfTheResume() throws {
        let pendingPath = desktop.stateHome + "/pending-future.json"
        let decision = Decision(url: "https://example.org/future", finalURL: "https://example.org/future", effect: .ask([], forced: true))
        PendingAsks(path: pendingPath, loop: nil).add(PendingAsk(id: 7, time: clock.now, decision: decision, opener: nil, environment: [:]))
        let resumedAt = clock.now - 3600
        #expect(PendingAsks(path: pendingPath, loop: nil).load(now: resumedAt) { _ in .copy }.map(\.time) == [resumedAt])
        #expect(PendingAsks(path: pendingPath, loop: nil).load { _ in .copy }.map(\.time) == [resumedAt])
        // One from the past keeps its time.
        #expect(PendingAsks(path: pendingPath, loop: nil).load(now: resumedAt + 10) { _ in .copy }.map(\.time) == [resumedAt])
    }
}

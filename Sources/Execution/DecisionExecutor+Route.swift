import Platform
import URLModel
import RoutingCore
import Routing
import ConfigFiles

/// Reads a click's moment for the facts `needs` names, with the click's display variables, and
/// hands it to `completion`: at once (embedded mode) or from beside the loop (the daemon).
public typealias MomentReading = (_ needs: MomentNeeds, _ click: [String: String], _ completion: @escaping (Moment) -> Void) -> Void

/// A link to route and how it came.
public struct RouteRequest {
    /// The link as clicked.
    public var url: String
    /// The click: its opener, display, token, deadline and time.
    public var click: Click
    /// Record every rule tried (`Explain`).
    public var explain = false
    /// Ask, whatever the rules say (`--ask`).
    public var forceAsk = false
    /// Decide only (`Explain`, `Open` with `dry-run`).
    public var dryRun = false
    /// The link's text and page, for the safety verdict.
    public var context: LinkContext?
    /// A held link sent again (`openurl reopen`): it goes where the rules send it, not held again.
    public var releasingHold = false
    /// Facts of the moment given by the caller (`Explain`'s `moment`): those are not read, and
    /// the rules see them instead.
    public var moment: MomentOverride?

    /// A request for `url` from `click`.
    public init(url: String, click: Click, explain: Bool = false, forceAsk: Bool = false, dryRun: Bool = false, context: LinkContext? = nil,
                releasingHold: Bool = false, moment: MomentOverride? = nil) {
        self.url = url
        self.click = click
        self.explain = explain
        self.forceAsk = forceAsk
        self.dryRun = dryRun
        self.context = context
        self.releasingHold = releasingHold
        self.moment = moment
    }
}

/// What became of a routed link: its decision, and unless it was only decided, its outcome and
/// the id it is recorded under.
public struct RoutedLink {
    /// The decision.
    public var decision: Decision
    /// The outcome (`decidedOnly` for a dry run).
    public var outcome: Outcome
    /// Its id in `recent`, when recorded.
    public var id: UInt32?
}

extension DecisionExecutor {
    /// The one way a link goes by the rules, for the daemon's clicks, embedded mode and a reopen:
    /// the moment the rules look at is read, the engine in force decides, and the decision is
    /// carried out (and settled: recorded, logged, signalled). `completion` runs on the loop's
    /// thread (without a loop, before this returns); it fails only when `url` is not a URL.
    public func route(_ request: RouteRequest, completion: @escaping (Result<RoutedLink, URLParseError>) -> Void) {
        if ProbeLink.token(in: request.url) != nil { return completion(.success(probe(request))) }
        let engine = self.engine
        let given = request.moment ?? MomentOverride()
        readMoment(engine.momentNeeds.subtracting(given.replaces), request.click.environment) { [weak self] seen in
            guard let self else { return }
            let moment = given.applied(to: seen)
            let input = DecisionInput(request.url, opener: request.click.opener, moment: moment, explain: request.explain,
                                      forceAsk: request.forceAsk, context: request.context)
            var decision: Decision
            do throws(URLParseError) { decision = try engine.decide(input) } catch { return completion(.failure(error)) }
            for failure in rules.newClearURLsFailures() {
                Log.warning("settings.clearurls: \(failure); that provider is skipped (openurl check shows every bad pattern)")
            }
            if request.dryRun { return completion(.success(RoutedLink(decision: decision, outcome: .decidedOnly))) }
            if request.releasingHold { decision = decision.releasingHold() }
            carryOut(decision, click: request.click) { carried in
                completion(.success(RoutedLink(decision: decision, outcome: carried.outcome, id: carried.id)))
            }
        }
    }

    /// An `openurl doctor` probe: recorded (and signalled, so the doctor sees it arrive), never
    /// decided by the rules, launched, notified or taken for a duplicate.
    private func probe(_ request: RouteRequest) -> RoutedLink {
        let decision = Decision(url: request.url, finalURL: request.url, effect: .discard, rule: .named(ProbeLink.ruleName))
        if request.dryRun { return RoutedLink(decision: decision, outcome: .decidedOnly) }
        let id = settle(decision, .probe, click: request.click.stamped(on: session.clock), id: nil, event: "probe")
        return RoutedLink(decision: decision, outcome: .probe, id: id)
    }

    /// No moment read: the rules see every fact unknown (a session with no way to read them).
    public static let noMoment: MomentReading = { _, _, completion in completion(Moment()) }
}

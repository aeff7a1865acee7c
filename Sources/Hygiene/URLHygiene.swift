import Platform
import URLModel

/// One thing URL hygiene did, for `openurl test` to show.
public enum HygieneStep: Sendable, Equatable {
    /// A redirector was unwrapped; `via` names it (`google`, `clearurls:google`).
    case unwrapped(from: String, to: String, via: String)
    /// Built-in tracking parameters were removed (raw names, in order).
    case cleaned(removed: [String])
    /// A ClearURLs provider removed parameters (`#name` for fragment items) or raw-rule matches.
    case clearURLs(provider: String, removed: [String])
    /// A ClearURLs `completeProvider` matched: the URL is blocked.
    case blocked(provider: String)

    var isUnwrap: Bool {
        if case .unwrapped = self { return true }
        return false
    }
}

/// The result of URL hygiene.
public struct HygieneResult: Sendable, Equatable {
    /// The final URL (the input when nothing applied; the last URL seen when blocked).
    public var url: String
    /// True when a ClearURLs `completeProvider` matched: the link should be discarded.
    public var blocked: Bool
    /// What was done, in order.
    public var steps: [HygieneStep]

    /// Creates a result.
    public init(url: String, blocked: Bool, steps: [HygieneStep]) {
        self.url = url
        self.blocked = blocked
        self.steps = steps
    }
}

/// URL hygiene: unwrap redirectors, strip tracking parameters, apply ClearURLs rules. Pure.
public struct URLHygiene: Sendable {
    /// How many redirector layers are unwrapped at most.
    public static let maxDepth = 10

    /// Unwrap redirectors (built-in, extra, and ClearURLs `redirections`).
    public let unwrap: Bool
    /// Remove tracking parameters (built-in list, ClearURLs rules and blocking).
    public let clean: Bool
    /// The redirector unwrapper (built-in plus extra).
    public let unwrapper: RedirectUnwrapper
    /// Loaded ClearURLs rules, if any.
    public let clearURLs: ClearURLsRules?

    /// Creates the hygiene pipeline from the settings.
    public init(unwrap: Bool = true, clean: Bool = true, extraRedirectors: [Redirector] = [], clearURLs: ClearURLsRules? = nil) {
        self.unwrap = unwrap
        self.clean = clean
        self.unwrapper = RedirectUnwrapper(extra: extraRedirectors)
        self.clearURLs = clearURLs
    }

    /// Applies hygiene: unwrap (repeatedly, up to `maxDepth` layers), then ClearURLs, then the
    /// built-in tracking list; repeats when ClearURLs uncovered another wrapped link.
    /// True when `url` has a `?` (asked on every decision).
    static func hasQuery(_ url: String) -> Bool { url.containsByte(UInt8(ascii: "?")) }

    public func apply(to url: String) -> HygieneResult {
        // Built-in redirectors and tracking parameters live in the query: without one there is
        // nothing to do (ClearURLs rules may also look at the path and fragment).
        if clearURLs == nil, !Self.hasQuery(url) { return HygieneResult(url: url, blocked: false, steps: []) }
        var current = url
        // Split once per URL seen, and handed from stage to stage.
        var split = URLSplit(url)
        var steps: [HygieneStep] = []
        var layers = 0
        for _ in 0..<Self.maxDepth {
            if unwrap {
                while layers < Self.maxDepth, let (target, via) = unwrapper.unwrapOnce(split) {
                    steps.append(.unwrapped(from: current, to: target, via: via))
                    current = target
                    split = URLSplit(current)
                    layers += 1
                }
            }
            var unwrappedByRules = false
            if let rules = clearURLs, unwrap || clean {
                let (outcome, newSplit) = rules.apply(
                    to: current, split: split, unwrap: unwrap && layers < Self.maxDepth, clean: clean)
                steps += outcome.steps
                var unwrapCount = 0
                for step in outcome.steps where step.isUnwrap { unwrapCount += 1 }
                layers += unwrapCount
                unwrappedByRules = unwrapCount > 0
                if outcome.blockedBy != nil {
                    return HygieneResult(url: outcome.url, blocked: true, steps: steps)
                }
                current = outcome.url
                split = newSplit
            }
            // A target uncovered by ClearURLs may itself be a known redirector.
            if unwrappedByRules, unwrap, layers < Self.maxDepth, unwrapper.unwrapOnce(split) != nil { continue }
            break
        }
        if clean {
            let (cleaned, removed) = TrackingCleaner.clean(current, split: split)
            if !removed.isEmpty {
                steps.append(.cleaned(removed: removed))
                current = cleaned
            }
        }
        return HygieneResult(url: current, blocked: false, steps: steps)
    }
}

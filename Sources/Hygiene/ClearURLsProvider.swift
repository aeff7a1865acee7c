import Patterns
import Platform
import Synchronization

extension ClearURLsRules {
    /// When a rule file's patterns are compiled.
    public enum PatternCompilation: Sendable {
        /// Every pattern while loading: a bad one is a `LoadError` naming its provider and field
        /// (`openurl check`, reloads).
        case atLoad
        /// Each provider's patterns the first time a URL reaches it (the daemon's start: ~660
        /// `pcre2_compile` calls, most for providers no link reaches). A bad pattern skips its
        /// provider and is listed once in `compileFailures`.
        case onFirstUse
    }

    /// One provider's pattern texts, as in the file.
    struct PatternSources: Sendable {
        var urlPattern: String
        var exceptions: [String]
        var redirections: [String]
        var rawRules: [String]
        /// Every `rules` entry, and the `referralMarketing` ones unless allowed, with its field.
        var parameterRules: [(field: String, rule: String)]
    }

    /// One provider's compiled patterns. A class: the apply loop reads several per URL, and
    /// copying a struct of arrays cost a retain and release per field.
    final class CompiledProvider: Sendable {
        let urlPattern: PatternRegex
        /// The exceptions; each is tested only when the index says it may match.
        let exceptions: [PatternRegex]
        let redirections: [PatternRegex]
        let rawRules: [PatternRegex]
        /// All `rules` (plus `referralMarketing` unless allowed) as one `^(?:a|b|...)$` pattern.
        let parameterNames: PatternRegex?

        init(urlPattern: PatternRegex, exceptions: [PatternRegex], redirections: [PatternRegex],
             rawRules: [PatternRegex], parameterNames: PatternRegex?) {
            self.urlPattern = urlPattern
            self.exceptions = exceptions
            self.redirections = redirections
            self.rawRules = rawRules
            self.parameterNames = parameterNames
        }

        /// Every pattern, for counting and JIT-compiling.
        var all: [PatternRegex] { [urlPattern] + exceptions + redirections + rawRules + (parameterNames.map { [$0] } ?? []) }
    }

    /// The failures of patterns compiled on first use, each listed once, in the order found.
    final class FailureLog: Sendable {
        let failures = Lock<[LoadError]>([])
    }

    /// One provider; its patterns are compiled once, at load or on first use (thread-safely,
    /// as `PatternRegex` JIT-compiles: an atomic state, a lock held only while compiling).
    public final class Provider: @unchecked Sendable {
        /// The provider's key in `providers`.
        public let name: String
        /// Every URL this provider matches is blocked.
        public let completeProvider: Bool
        /// Carried from the file; the add-on uses it to force a tab update, we have no tabs.
        public let forceRedirection: Bool
        let sources: PatternSources
        /// `.*` and the like: the pattern needs no matching.
        let matchesEverything: Bool
        /// Where this provider's exceptions sit among the index's patterns.
        let exceptionItems: Range<Int>
        /// Where a failure to compile on first use is listed; one per rule file, shared by its
        /// providers (not a field of `ClearURLsRules`: the hygiene pass copies that struct, and
        /// each field costs a retain and release per copy).
        let log: FailureLog
        /// 0: not compiled; 1: compiled (`compiled` is set); 2: failed (`failure` is set). Each
        /// field is written once, before the releasing store that publishes it.
        private let state = Atomic<UInt8>(0)
        /// Held while compiling; `compiled` and `failure` are read without it once `state` says.
        private let lock = Lock()
        private var compiled: CompiledProvider?
        private var failure: LoadError?

        init(name: String, completeProvider: Bool, forceRedirection: Bool, sources: PatternSources,
             matchesEverything: Bool, exceptionItems: Range<Int>, log: FailureLog) {
            self.name = name
            self.completeProvider = completeProvider
            self.forceRedirection = forceRedirection
            self.sources = sources
            self.matchesEverything = matchesEverything
            self.exceptionItems = exceptionItems
            self.log = log
        }

        /// The compiled patterns, compiling them now if this is the first use; nil when one of
        /// them does not compile (the failure goes to `log` the first time).
        @inline(__always)
        func patterns() -> CompiledProvider? {
            if state.load(ordering: .acquiring) == 1, let compiled { return compiled }
            return try? compileOnce().get()
        }

        /// True once the patterns are compiled.
        var isCompiled: Bool { state.load(ordering: .acquiring) == 1 }

        /// Compiles the patterns unless done; a failure is kept (and logged once), not retried.
        @discardableResult
        func compileOnce() -> Result<CompiledProvider, LoadError> {
            lock.withLock { compileHoldingLock() }
        }

        /// `compileOnce`'s work, with `lock` held.
        private func compileHoldingLock() -> Result<CompiledProvider, LoadError> {
            switch state.load(ordering: .acquiring) {
            case 1: if let compiled { return .success(compiled) }
            case 2: if let failure { return .failure(failure) }
            default: break
            }
            do {
                let result = try Self.compile(name: name, sources)
                compiled = result
                state.store(1, ordering: .releasing)
                return .success(result)
            } catch {
                failure = error
                state.store(2, ordering: .releasing)
                log.failures.withLock { $0.append(error) }
                return .failure(error)
            }
        }

        /// Compiles every pattern of a provider, naming the field of the first that fails.
        static func compile(name: String, _ sources: PatternSources) throws(LoadError) -> CompiledProvider {
            func compile(_ pattern: String, _ field: String) throws(LoadError) -> PatternRegex {
                do { return try PatternRegex(pattern, caseInsensitive: true) } catch {
                    throw LoadError(provider: name, field: field, message: error.description)
                }
            }
            func compileAll(_ patterns: [String], _ key: String) throws(LoadError) -> [PatternRegex] {
                var out: [PatternRegex] = []
                out.reserveCapacity(patterns.count)
                for (i, pattern) in patterns.enumerated() { out.append(try compile(pattern, "\(key)[\(i)]")) }
                return out
            }
            let urlPattern = try compile(sources.urlPattern, "urlPattern")
            let exceptions = try compileAll(sources.exceptions, "exceptions")
            let redirections = try compileAll(sources.redirections, "redirections")
            let rawRules = try compileAll(sources.rawRules, "rawRules")
            let named = sources.parameterRules
            var parameterNames: PatternRegex? = nil
            if !named.isEmpty {
                let combined = "^(?:" + named.map { "(?:\($0.rule))" }.joined(separator: "|") + ")$"
                do { parameterNames = try PatternRegex(combined, caseInsensitive: true) } catch {
                    // Find the culprit so the message names the rule, not the combined pattern.
                    for (field, rule) in named { _ = try compile("^(?:\(rule))$", field) }
                    throw LoadError(provider: name, field: "rules", message: error.description)
                }
                // A rule that closes the group early (`a)|(b`) would compile combined yet mean
                // something else: check each one alone when it contains a parenthesis.
                for (field, rule) in named where rule.contains(")") {
                    _ = try compile("^(?:\(rule))$", field)
                }
            }
            return CompiledProvider(
                urlPattern: urlPattern, exceptions: exceptions, redirections: redirections,
                rawRules: rawRules, parameterNames: parameterNames)
        }
    }
}

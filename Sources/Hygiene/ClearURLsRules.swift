import JSON
import Patterns
import Platform

/// A loaded ClearURLs rule file (`data.min.json`), applied with the semantics of the ClearURLs
/// add-on (`clearurls.js`, `removeFieldsFormURL` and `pureCleaning`):
/// a provider applies when its `urlPattern` matches (case-insensitively, anywhere) and none of its
/// `exceptions` do; then the first matching `redirections` pattern's first group, percent-decoded,
/// replaces the URL; a `completeProvider` blocks the URL; `rawRules` are removed from the whole URL;
/// `rules` (and `referralMarketing`) name parameters, matched as `^(?:rule)$` case-insensitively
/// against the decoded names of query and fragment items, which are removed. Providers run in
/// file order and the whole pass repeats until nothing changes.
///
/// Unlike the add-on, kept parameters are not re-serialised: every kept byte stays as it was, and a
/// redirection target must be an absolute http(s) URL to be followed.
public struct ClearURLsRules: Sendable {
    /// Why a rule file could not be loaded: names the provider and the field where possible.
    public struct LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The provider's name, nil for errors about the file as a whole.
        public var provider: String?
        /// The field (`urlPattern`, `rules[3]`), nil for errors about the provider as a whole.
        public var field: String?
        /// What is wrong.
        public var message: String

        /// `provider "amazon": urlPattern: missing closing parenthesis at offset 12`.
        public var description: String {
            var parts: [String] = []
            if let provider { parts.append("provider \"\(provider)\"") }
            if let field { parts.append(field) }
            parts.append(message)
            return parts.joined(separator: ": ")
        }
    }

    /// What one application did.
    public struct Outcome: Sendable, Equatable {
        /// The resulting URL.
        public var url: String
        /// Set when a `completeProvider` matched: the provider's name.
        public var blockedBy: String?
        /// The steps, in order.
        public var steps: [HygieneStep]
    }

    /// The providers in file order.
    public let providers: [Provider]
    let index: ClearURLsIndex

    /// Loads a rule file from its JSON bytes. With `allowReferralMarketing`, `referralMarketing`
    /// parameters are kept (the add-on's "allow referral marketing" option; off by default).
    /// The file's structure is always checked at load; its patterns when `compiling` says.
    public init(json: [UInt8], allowReferralMarketing: Bool = false, compiling: PatternCompilation = .atLoad) throws(LoadError) {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: json)
        } catch {
            throw LoadError(provider: nil, field: nil, message: "not valid JSON: \(error)")
        }
        guard case .object = root else {
            throw LoadError(provider: nil, field: nil, message: "the top level must be an object with \"providers\"")
        }
        guard let table = root["providers"], let members = table.members else {
            throw LoadError(provider: nil, field: "providers", message: "missing or not an object")
        }
        // Providers run in file order; a name given twice takes its last body, at its first place.
        // Found in one pass: looking each name up in the object (`table[name]`) compared ~100
        // names a provider, 20,000 String compares a load.
        var names: [String] = []
        var bodies: [String: JSONValue] = [:]
        bodies.reserveCapacity(members.count)
        for (name, body) in members where bodies.updateValue(body, forKey: name) == nil { names.append(name) }
        var providers: [Provider] = []
        providers.reserveCapacity(names.count)
        // Index the URL patterns first (item i is provider i), then every exception.
        var exceptionStart = names.count
        let log = FailureLog()
        for name in names {
            guard let body = bodies[name], case .object = body else {
                throw LoadError(provider: name, field: nil, message: "must be an object")
            }
            let provider = try Self.provider(
                name: name, body: body, allowReferralMarketing: allowReferralMarketing, exceptionStart: exceptionStart, log: log)
            if compiling == .atLoad, case .failure(let error) = provider.compileOnce() { throw error }
            exceptionStart = provider.exceptionItems.upperBound
            providers.append(provider)
        }
        var patterns = providers.map(\.sources.urlPattern)
        for provider in providers { patterns += provider.sources.exceptions }
        self.providers = providers
        index = ClearURLsIndex(patterns: patterns)
    }

    /// Loads a rule file from its JSON text.
    public init(jsonText: String, allowReferralMarketing: Bool = false, compiling: PatternCompilation = .atLoad) throws(LoadError) {
        try self.init(json: Array(jsonText.utf8), allowReferralMarketing: allowReferralMarketing, compiling: compiling)
    }

    /// Compiles every provider's patterns not compiled yet; throws the first failure in file
    /// order, naming its provider and field, as loading `.atLoad` would have.
    public func compileEveryPattern() throws(LoadError) {
        for provider in providers {
            if case .failure(let error) = provider.compileOnce() { throw error }
        }
    }

    /// The patterns compiled on first use that failed, each once, in the order found; their
    /// providers are skipped. Empty when loaded `.atLoad` (a failure is a load error there).
    public var compileFailures: [LoadError] { providers.first?.log.failures.withLock { $0 } ?? [] }

    /// How many providers have their patterns compiled so far.
    public var compiledProviderCount: Int { providers.count { $0.isCompiled } }

    /// Every compiled provider's patterns.
    private var allPatterns: [PatternRegex] {
        providers.flatMap { provider in provider.isCompiled ? provider.patterns()?.all ?? [] : [] }
    }

    /// How many of the providers' patterns are JIT-compiled so far (they are on first use).
    public var jitCompiledPatternCount: Int { allPatterns.filter(\.isJITCompiled).count }

    /// Compiles and JIT-compiles every pattern now, as loading did before compilation became
    /// lazy (for the benchmark's comparison); providers that fail to compile are left out.
    public func jitCompileEveryPattern() {
        for provider in providers { provider.compileOnce() }
        for pattern in allPatterns { pattern.jitCompileNow() }
    }

    /// The number of providers whose `urlPattern` has a literal prefilter (for the benchmark).
    public var indexedProviderCount: Int { index.indexedCount(below: providers.count) }

    private static func provider(
        name: String, body: JSONValue, allowReferralMarketing: Bool, exceptionStart: Int, log: FailureLog
    ) throws(LoadError) -> Provider {
        func fail(_ field: String, _ message: String) -> LoadError {
            LoadError(provider: name, field: field, message: message)
        }
        func flag(_ key: String) throws(LoadError) -> Bool {
            switch body[key] {
            case nil: return false
            case .bool(let value)?: return value
            // Earlier versions read the file with corelibs Foundation, which took 0 and 1 too.
            case .number(let value)? where value == 0 || value == 1: return value == 1
            default: throw fail(key, "must be true or false")
            }
        }
        func strings(_ key: String) throws(LoadError) -> [String] {
            // Matched, not compared: JSONValue's == compares serialised text, which cost 8M
            // instructions (a third of the catalogue's load) writing every list out.
            guard let value = body[key] else { return [] }
            if case .null = value { return [] }
            guard let list = value.items else { throw fail(key, "must be a list of strings") }
            var out: [String] = []
            for (i, item) in list.enumerated() {
                guard let text = item.string else { throw fail("\(key)[\(i)]", "must be a string") }
                out.append(text)
            }
            return out
        }
        guard let pattern = body["urlPattern"]?.string else { throw fail("urlPattern", "missing or not a string") }
        let complete = try flag("completeProvider")
        let force = try flag("forceRedirection")
        let exceptions = try strings("exceptions")
        let redirections = try strings("redirections")
        let rawRules = try strings("rawRules")
        var named: [(field: String, rule: String)] = try strings("rules").enumerated().map { ("rules[\($0.offset)]", $0.element) }
        let referral = try strings("referralMarketing").enumerated().map { ("referralMarketing[\($0.offset)]", $0.element) }
        if !allowReferralMarketing { named += referral }
        return Provider(
            name: name, completeProvider: complete, forceRedirection: force,
            sources: PatternSources(
                urlPattern: pattern, exceptions: exceptions, redirections: redirections, rawRules: rawRules,
                parameterRules: named),
            matchesEverything: [".*", "", "^", ".*?", "^.*", "^.*$"].contains(pattern),
            exceptionItems: exceptionStart..<(exceptionStart + exceptions.count), log: log)
    }
}

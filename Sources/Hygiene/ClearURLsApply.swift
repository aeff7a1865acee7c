import URLModel
import Patterns
import Platform

extension ClearURLsRules {
    /// How many passes over the providers at most: each pass either changes the URL or ends.
    static let maxPasses = 16

    /// Applies the rules to `url`: redirections when `unwrap`, blocking, raw rules and parameter
    /// rules when `clean`.
    public func apply(to url: String, unwrap: Bool = true, clean: Bool = true) -> Outcome {
        apply(to: url, split: URLSplit(url), unwrap: unwrap, clean: clean).outcome
    }

    /// `apply(to:unwrap:clean:)` for a URL already split (`split` is `URLSplit(url)`); also returns
    /// the split of the resulting URL, so that the caller need not split it again.
    func apply(to url: String, split: URLSplit, unwrap: Bool, clean: Bool) -> (outcome: Outcome, split: URLSplit) {
        // Scratch lists on the stack: three heap arrays per URL cost more than the scan that fills them.
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: index.patternCount) { flags in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * providers.count) { scratch in
                apply(to: url, split: split, unwrap: unwrap, clean: clean, flags: flags,
                      candidates: UnsafeMutableBufferPointer(rebasing: scratch[0..<providers.count]),
                      filtered: UnsafeMutableBufferPointer(rebasing: scratch[providers.count...]))
            }
        }
    }

    private func apply(
        to url: String, split: URLSplit, unwrap: Bool, clean: Bool, flags: UnsafeMutableBufferPointer<Bool>,
        candidates: UnsafeMutableBufferPointer<Int32>, filtered: UnsafeMutableBufferPointer<Int32>
    ) -> (outcome: Outcome, split: URLSplit) {
        var current = url
        var split = split
        var steps: [HygieneStep] = []
        // Providers whose parameter filter ran since the URL last changed other than by parameter
        // filters (the first `filteredCount` of `filtered`). Such a filter would remove nothing
        // now (every item left is one it kept, byte for byte), so the confirming pass does not
        // run it again.
        var filteredCount = 0
        func isFiltered(_ number: Int32) -> Bool {
            for i in 0..<filteredCount where filtered[i] == number { return true }
            return false
        }
        passes: for _ in 0..<Self.maxPasses {
            let candidateCount = split.bytes.withUnsafeBufferPointer {
                index.fill(flags, candidates: candidates, below: providers.count, for: $0)
            }
            var changedInPass = false
            for slot in 0..<candidateCount {
                let number = candidates[slot]
                let provider = providers[Int(number)]
                // Compiled the first time a URL gets here; a provider whose patterns do not
                // compile is skipped (and listed once in `compileFailures`).
                guard let patterns = provider.patterns() else { continue }
                guard provider.matchesEverything || patterns.urlPattern.matches(current),
                      !patterns.isException(current, first: provider.exceptionItems.lowerBound,
                                            flags: UnsafeBufferPointer(flags)) else { continue }
                if unwrap, let target = patterns.redirectionTarget(current) {
                    steps.append(.unwrapped(from: current, to: target, via: "clearurls:" + provider.name))
                    current = target
                    split = URLSplit(current)
                    filteredCount = 0
                    continue passes
                }
                guard clean else { continue }
                if provider.completeProvider {
                    steps.append(.blocked(provider: provider.name))
                    return (Outcome(url: current, blockedBy: provider.name, steps: steps), split)
                }
                let filterKnownClean = isFiltered(number)
                // Nothing left for this provider to do: its filter ran and it has no raw rules.
                if filterKnownClean, patterns.rawRules.isEmpty { continue }
                if let change = patterns.clean(current, split: split, filterKnownClean: filterKnownClean) {
                    steps.append(.clearURLs(provider: provider.name, removed: change.removed))
                    current = change.url
                    split = change.split
                    if change.rawRuleChanged { filteredCount = 0 }
                    // Removing text cannot usually add a provider's host literal; the next pass,
                    // which a change always triggers, recomputes the candidates anyway.
                    changedInPass = true
                }
                if patterns.parameterNames != nil, !isFiltered(number) {
                    filtered[filteredCount] = number
                    filteredCount += 1
                }
            }
            if !changedInPass { break }
        }
        return (Outcome(url: current, blockedBy: nil, steps: steps), split)
    }
}

/// What `Provider.clean` changed.
struct ClearURLsChange {
    /// The new URL and its split.
    package var url: String
    var split: URLSplit
    /// Raw parameter names (`#name` for fragment items) and `rawRule:` entries.
    package var removed: [String]
    /// A raw rule changed the URL (not only parameter removal).
    var rawRuleChanged: Bool
}

extension ClearURLsRules.CompiledProvider {
    /// True when an exception matches; exceptions the index ruled out are not run. `first` is
    /// where the provider's exceptions start among the index's patterns.
    func isException(_ url: String, first: Int, flags: UnsafeBufferPointer<Bool>) -> Bool {
        // By index: enumerating the patterns retains and releases each of them, and globalRules
        // has ~50 exceptions that the index almost always rules out.
        for offset in 0..<exceptions.count where flags[first + offset] {
            if exceptions[offset].matches(url) { return true }
        }
        return false
    }

    /// The first redirection's target, decoded the way the add-on's `decodeURL` does (again while
    /// it holds no `http://` or `https://`), if it is an absolute http(s) URL.
    func redirectionTarget(_ url: String) -> String? {
        for redirection in redirections {
            guard let groups = redirection.firstMatch(in: url) else { continue }
            guard groups.count > 1, var target = groups[1], !target.isEmpty else { return nil }
            for _ in 0..<3 {
                guard let decoded = PercentEncoding.decode(target) else { return nil }
                let done = decoded == target || Self.containsWebScheme(decoded)
                target = decoded
                if done { break }
            }
            return RedirectUnwrapper.webTarget(decoded: target)
        }
        return nil
    }

    /// `text.contains("http://") || text.contains("https://")`, searching bytes when the text is
    /// ASCII (Foundation's search there is the same and costs microseconds).
    static func containsWebScheme(_ text: String) -> Bool {
        var text = text
        let ascii: Bool? = text.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            guard bytes.count >= 7 else { return false }
            for i in 0...(bytes.count - 7) where bytes[i] == UInt8(ascii: "h") {
                guard bytes[i + 1] == UInt8(ascii: "t"), bytes[i + 2] == UInt8(ascii: "t"),
                      bytes[i + 3] == UInt8(ascii: "p") else { continue }
                var j = i + 4
                if bytes[j] == UInt8(ascii: "s") { j += 1 }
                if j + 3 <= bytes.count, bytes[j] == UInt8(ascii: ":"), bytes[j + 1] == UInt8(ascii: "/"),
                   bytes[j + 2] == UInt8(ascii: "/") { return true }
            }
            return false
        }
        if let ascii { return ascii }
        return text.containsText("http://") || text.containsText("https://")
    }

    /// Removes raw rules and named parameters from `url` (split as `split`); nil when nothing
    /// changed. The removed list holds raw parameter names, and `rawRules` entries for raw-rule
    /// removals. With `filterKnownClean` the parameter filter is skipped unless a raw rule
    /// changed the URL: it already ran on a URL of which this one keeps only items it kept.
    func clean(_ url: String, split: URLSplit, filterKnownClean: Bool = false) -> ClearURLsChange? {
        var current = url
        var split = split
        var removed: [String] = []
        var rawRuleChanged = false
        for rule in rawRules {
            // A replacement of "" cannot be malformed; a failure leaves the URL as it was.
            if let replaced = try? rule.replacing(in: current, with: "", global: true), replaced != current {
                removed.append("rawRule:" + rule.pattern)
                current = replaced
                rawRuleChanged = true
            }
        }
        if rawRuleChanged { split = URLSplit(current) }
        if let names = parameterNames, rawRuleChanged || !filterKnownClean {
            let bytes = split.bytes
            var newQuery: [UInt8]? = nil
            var newFragment: [UInt8]? = nil
            let keep: (UnsafeBufferPointer<UInt8>) -> Bool = { !Self.nameMatches(names, $0) }
            if let range = split.queryRange, !range.isEmpty, let result = filterItems(bytes, range: range, keepName: keep) {
                newQuery = result.kept
                removed += result.removed.map { String(decoding: bytes[$0.nameRange], as: UTF8.self) }
            }
            if let range = split.fragmentRange, !range.isEmpty, let result = filterItems(bytes, range: range, keepName: keep) {
                newFragment = result.kept
                removed += result.removed.map { "#" + String(decoding: bytes[$0.nameRange], as: UTF8.self) }
            }
            if newQuery != nil || newFragment != nil {
                split = split.replacing(query: newQuery, fragment: newFragment)
                current = String(decoding: split.bytes, as: UTF8.self)
            }
        }
        return removed.isEmpty ? nil : ClearURLsChange(url: current, split: split, removed: removed, rawRuleChanged: rawRuleChanged)
    }

    /// Removes raw rules and named parameters; nil when nothing changed.
    func clean(_ url: String) -> (String, [String])? {
        clean(url, split: URLSplit(url)).map { ($0.url, $0.removed) }
    }

    /// Matches a raw parameter name, decoded as `URLSearchParams` decodes it (`+` is a space).
    static func nameMatches(_ names: PatternRegex, _ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        let needsDecoding = raw.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }
        guard needsDecoding else { return names.matches(utf8: raw) }
        let bytes = PercentEncoding.decodeBytes(Substring(String(decoding: raw, as: UTF8.self)), plusAsSpace: true)
        return bytes.withUnsafeBufferPointer { names.matches(utf8: $0) }
    }
}

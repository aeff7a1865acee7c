extension ClearURLsRules {
    /// How many passes over the providers at most: each pass either changes the URL or ends.
    static let maxPasses = 16

    /// Applies the rules to `url`: redirections when `unwrap`, blocking, raw rules and parameter
    /// rules when `clean`.
    public func apply(to url: String, unwrap: Bool = true, clean: Bool = true) -> Outcome {
        var current = url
        var steps: [HygieneStep] = []
        passes: for _ in 0..<Self.maxPasses {
            let flags = index.flags(for: current)
            var changedInPass = false
            // By index: copying every provider to test its flag costs a retain per field.
            for number in providers.indices where flags[number] {
                let provider = providers[number]
                guard provider.matchesEverything || provider.urlPattern.matches(current),
                      !provider.isException(current, flags: flags) else { continue }
                if unwrap, let target = provider.redirectionTarget(current) {
                    steps.append(.unwrapped(from: current, to: target, via: "clearurls:" + provider.name))
                    current = target
                    continue passes
                }
                guard clean else { continue }
                if provider.completeProvider {
                    steps.append(.blocked(provider: provider.name))
                    return Outcome(url: current, blockedBy: provider.name, steps: steps)
                }
                if let (cleaned, removed) = provider.clean(current) {
                    steps.append(.clearURLs(provider: provider.name, removed: removed))
                    current = cleaned
                    // Removing text cannot usually add a provider's host literal; the next pass,
                    // which a change always triggers, recomputes the candidates anyway.
                    changedInPass = true
                }
            }
            if !changedInPass { break }
        }
        return Outcome(url: current, blockedBy: nil, steps: steps)
    }
}

extension ClearURLsRules.Provider {
    /// True when an exception matches; exceptions the index ruled out are not run.
    func isException(_ url: String, flags: [Bool]) -> Bool {
        for (offset, exception) in exceptions.enumerated() where flags[exceptionItems.lowerBound + offset] {
            if exception.matches(url) { return true }
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
                let done = decoded == target || decoded.contains("http://") || decoded.contains("https://")
                target = decoded
                if done { break }
            }
            return RedirectUnwrapper.webTarget(decoded: target)
        }
        return nil
    }

    /// Removes raw rules and named parameters; nil when nothing changed. The removed list holds
    /// raw parameter names, and `rawRules` entries for raw-rule removals.
    func clean(_ url: String) -> (String, [String])? {
        var current = url
        var removed: [String] = []
        for rule in rawRules {
            // A replacement of "" cannot be malformed; a failure leaves the URL as it was.
            if let replaced = try? rule.replacing(in: current, with: "", global: true), replaced != current {
                removed.append("rawRule:" + rule.pattern)
                current = replaced
            }
        }
        if let names = parameterNames {
            let split = URLSplit(current)
            var newQuery: [UInt8]? = nil
            var newFragment: [UInt8]? = nil
            let keep: (QueryItem) -> Bool = { item in !Self.nameMatches(names, split.bytes[item.nameRange]) }
            if let range = split.queryRange, !range.isEmpty, let result = filterItems(split.bytes, range: range, keep: keep) {
                newQuery = result.kept
                removed += result.removed.map { String(decoding: split.bytes[$0.nameRange], as: UTF8.self) }
            }
            if let range = split.fragmentRange, !range.isEmpty, let result = filterItems(split.bytes, range: range, keep: keep) {
                newFragment = result.kept
                removed += result.removed.map { "#" + String(decoding: split.bytes[$0.nameRange], as: UTF8.self) }
            }
            if newQuery != nil || newFragment != nil {
                current = String(decoding: replacing(in: split, query: newQuery, fragment: newFragment), as: UTF8.self)
            }
        }
        return current == url && removed.isEmpty ? nil : (current, removed)
    }

    /// Matches a raw parameter name, decoded as `URLSearchParams` decodes it (`+` is a space).
    static func nameMatches(_ names: PatternRegex, _ raw: ArraySlice<UInt8>) -> Bool {
        let needsDecoding = raw.contains(UInt8(ascii: "%")) || raw.contains(UInt8(ascii: "+"))
        guard needsDecoding else { return raw.withUnsafeBufferPointer { names.matches(utf8: $0) } }
        let bytes = PercentEncoding.decodeBytes(Substring(String(decoding: raw, as: UTF8.self)), plusAsSpace: true)
        return bytes.withUnsafeBufferPointer { names.matches(utf8: $0) }
    }
}


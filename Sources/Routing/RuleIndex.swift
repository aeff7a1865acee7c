import URLModel
import Patterns
import ConfigLanguage
import Platform

/// Finds the rules worth trying for a URL without scanning them all.
///
/// Each rule is filed under the most selective thing it requires: a domain (looked up by the
/// host's parent domains), else the literal first path segment of its `path` globs, else its
/// schemes, else an opener (tried only when the opener is known), else it is always tried.
/// A rule filed anywhere can only match URLs that reach it there, so the candidates in file
/// order give the same first match as scanning every rule.
struct RuleIndex: Sendable {
    // Byte-keyed tables, so a host's parent domains and a path's first segment are looked up
    // as slices of the URL's bytes, without a String hash or allocation each.
    private var byDomain = ByteKeyTable(grouping: [])
    private var byPathSegment = ByteKeyTable(grouping: [])
    private var byScheme = ByteKeyTable(grouping: [])
    private var byRecipientDomain: [String: [Int]] = [:]
    private var needingOpener: [Int] = []
    private var always: [Int] = []
    /// Rules tried always whose `regex` must hold, and one alternation of all their patterns:
    /// when it finds nothing, none of them can match.
    private var regexGated: Set<Int> = []
    private var regexGate: PatternRegex?
    /// A literal each gated pattern needs, scanned for before the gate runs (nil: some pattern
    /// has none, and the gate always runs).
    private var regexGateLiterals: RequiredLiterals?
    /// `always` without the regex-gated rules, for URLs the gate rejects.
    private var alwaysUngated: [Int] = []

    init(rules: [Rule]) {
        var domainPairs: [(key: String, position: Int)] = []
        var segmentPairs: [(key: String, position: Int)] = []
        var schemePairs: [(key: String, position: Int)] = []
        for (position, rule) in rules.enumerated() {
            if let domains = rule.matchers.lazy.compactMap({ if case .domain(let d) = $0 { return d } else { return nil } }).first {
                // A rule names one domain, mostly: a Set for it was ~1k instructions a rule at load.
                for domain in domains.count == 1 ? domains : Array(Set(domains)) { domainPairs.append((domain, position)) }
            } else if let domains = Self.literalRecipientDomains(rule.matchers) {
                for domain in domains { byRecipientDomain[domain, default: []].append(position) }
            } else if let segments = Self.literalFirstSegments(rule.matchers) {
                for segment in Set(segments) { segmentPairs.append((segment, position)) }
            } else if let schemes = rule.matchers.lazy.compactMap({ if case .scheme(let s) = $0 { return s } else { return nil } }).first {
                for scheme in schemes { schemePairs.append((scheme, position)) }
            } else if rule.matchers.contains(where: { if case .opener = $0 { return true } else { return false } }) {
                needingOpener.append(position)
            } else {
                always.append(position)
            }
        }
        byDomain = ByteKeyTable(grouping: domainPairs)
        byPathSegment = ByteKeyTable(grouping: segmentPairs)
        byScheme = ByteKeyTable(grouping: schemePairs)
        buildRegexGate(rules)
        alwaysUngated = always.filter { !regexGated.contains($0) }
    }

    private mutating func buildRegexGate(_ rules: [Rule]) {
        var patterns: [String] = [], literalSources: [String] = []
        for position in always {
            guard let regexes = rules[position].matchers.lazy.compactMap({ if case .regex(let r) = $0 { return r } else { return nil } }).first else { continue }
            // Back-references would point at the wrong groups once patterns are joined.
            guard !regexes.contains(where: { Self.mayReferToGroups($0.pattern) }) else { continue }
            regexGated.insert(position)
            patterns += regexes.map { "(?:\($0.pattern))" }
            literalSources += regexes.map(\.pattern)
        }
        guard !patterns.isEmpty, let gate = try? PatternRegex(patterns.joined(separator: "|")) else {
            regexGated = []
            return
        }
        regexGate = gate
        regexGateLiterals = RequiredLiterals(patterns: literalSources)
    }

    private static func mayReferToGroups(_ pattern: String) -> Bool {
        let bytes = Array(pattern.utf8)
        for i in bytes.indices.dropLast() where bytes[i] == UInt8(ascii: "\\") {
            let next = bytes[i + 1]
            if (next >= UInt8(ascii: "1") && next <= UInt8(ascii: "9")) || next == UInt8(ascii: "g") || next == UInt8(ascii: "k") { return true }
        }
        return pattern.containsText("(?P=") || pattern.containsText("(?|") || pattern.containsText("(?R") || pattern.containsText("(?1")
    }

    /// Rule positions that may match `url`, in file order.
    func candidates(for url: ParsedURL, text: String, mailto: MailtoURL?, hasOpener: Bool) -> [Int] {
        var hits: [Int] = []
        if !byDomain.isEmpty, !url.host.isEmpty {
            var host = url.matchingHost
            host.withUTF8 { bytes in
                // The host and each parent domain: the bytes after each dot.
                var start = 0
                while start < bytes.count {
                    byDomain.append(UnsafeBufferPointer(rebasing: bytes[start...]), to: &hits)
                    guard let dot = bytes[start...].firstIndex(of: UInt8(ascii: ".")) else { break }
                    start = dot + 1
                }
            }
        }
        if !byPathSegment.isEmpty {
            var path = url.path
            path.withUTF8 { bytes in
                let start = bytes.first == UInt8(ascii: "/") ? 1 : 0
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
                byPathSegment.append(UnsafeBufferPointer(rebasing: bytes[start..<end]), to: &hits)
            }
        }
        if !byScheme.isEmpty { byScheme.append(url.scheme, to: &hits) }
        if !byRecipientDomain.isEmpty, let mailto {
            // Both forms, as `to` matches both: a glob may name `bücher.de` or `xn--bcher-kva.de`.
            func look(up recipient: String) {
                // By bytes: a Character search for the ASCII "@" walked the whole address (~5k instructions).
                if let at = recipient.utf8.lastIndex(of: UInt8(ascii: "@")),
                   let positions = byRecipientDomain[recipient[recipient.utf8.index(after: at)...].lowercased()] {
                    hits += positions
                }
            }
            for address in mailto.addresses {
                look(up: address.display)
                if address.ascii != address.display { look(up: address.ascii) }
                for spec in address.addressesInBrackets { look(up: spec) }
            }
        }
        if hasOpener { hits += needingOpener }
        let always = regexGate.map { gate in
            regexGateLiterals?.mayMatch(text) != false && gate.matches(text) ? self.always : alwaysUngated
        } ?? self.always
        if hits.isEmpty { return always }
        hits.sort()
        if always.isEmpty {
            // A rule is filed once, but two recipients (or both forms of one) can each find it.
            var kept = 1
            for next in hits.indices.dropFirst() where hits[next] != hits[kept - 1] {
                hits[kept] = hits[next]
                kept += 1
            }
            hits.removeLast(hits.count - kept)
            return hits
        }
        var merged: [Int] = []
        merged.reserveCapacity(hits.count + always.count)
        var i = 0, j = 0
        while i < hits.count || j < always.count {
            if j == always.count || (i < hits.count && hits[i] < always[j]) {
                if merged.last != hits[i] { merged.append(hits[i]) }
                i += 1
            } else {
                merged.append(always[j])
                j += 1
            }
        }
        return merged
    }

    /// The first segment of a path (`/j/123` → `j`).
    static func firstSegment(of path: String) -> Substring {
        let bytes = path.utf8
        let start = bytes.first == UInt8(ascii: "/") ? bytes.index(after: bytes.startIndex) : bytes.startIndex
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        return path[start..<end]
    }

    /// The literal domains of a rule's `to` globs (`*@corp.example.com`), when every glob has one.
    private static func literalRecipientDomains(_ matchers: [Matcher]) -> [String]? {
        guard let globs = matchers.lazy.compactMap({ if case .to(let g) = $0 { return g } else { return nil } }).first else { return nil }
        var domains: [String] = []
        for glob in globs {
            guard let at = glob.pattern.lastIndex(of: "@") else { return nil }
            let domain = glob.pattern[glob.pattern.index(after: at)...]
            guard !domain.isEmpty, !domain.contains(where: { "*?[\\".contains($0) }) else { return nil }
            domains.append(domain.lowercased())
        }
        return domains
    }

    /// The literal first segments of a rule's `path` globs, when every glob starts with one.
    private static func literalFirstSegments(_ matchers: [Matcher]) -> [String]? {
        guard let globs = matchers.lazy.compactMap({ if case .path(let g) = $0 { return g } else { return nil } }).first else { return nil }
        var segments: [String] = []
        for glob in globs {
            let pattern = glob.pattern
            guard pattern.hasPrefix("/") else { return nil }
            let segment = pattern.dropFirst().prefix(while: { $0 != "/" })
            // ASCII only: the index compares bytes, a literal glob compares text.
            guard !segment.isEmpty, segment.allSatisfy(\.isASCII), !segment.contains(where: { "*?[\\".contains($0) }) else { return nil }
            segments.append(String(segment))
        }
        return segments
    }
}

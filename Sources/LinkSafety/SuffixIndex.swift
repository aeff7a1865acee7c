import Platform
import URLModel

/// Registrable domains under the Public Suffix List, as `URLModel.PublicSuffixList` decides them
/// (the same rules: normal, `*.` wildcards, `!` exceptions, the implicit `*`), but from hash
/// sets built once on first use instead of a pass over the list's text per host: a look-up is a
/// few set probes (microseconds) where the pass costs milliseconds, and link text needs two per
/// decision. Rules are kept in ASCII, as hosts arrive.
final class SuffixIndex: Sendable {
    private struct Rules: Sendable {
        var normal = Set<String>()
        var wildcard = Set<String>()   // the part after `*.`
        var exception = Set<String>()  // the part after `!`
    }

    private let text: [UInt8]?
    private let rules = Lock<Rules?>(nil)

    /// An index of the list `text` (nil: URLModel's built-in fallback, which needs none).
    init(text: [UInt8]?) {
        self.text = text
    }

    /// The registrable domain of `host` (ASCII), nil for an IP address, a single label or a
    /// public suffix itself.
    func registrableDomain(of host: String) -> String? {
        guard let text else { return PublicSuffixList.registrableDomain(of: host, listText: nil) }
        let host = host.hasSuffix(".") ? String(host.dropLast()) : host
        let lowered = host.lowercased()
        // Where each label starts, by bytes: the suffixes looked up are the text from one of them
        // to the end (splitting and joining labels per suffix cost ~45k instructions a host).
        var starts: [String.Index] = [lowered.utf8.startIndex]
        for index in lowered.utf8.indices where lowered.utf8[index] == UInt8(ascii: ".") {
            starts.append(lowered.utf8.index(after: index))
        }
        let labelCount = starts.count
        guard labelCount >= 2, labelCount <= 128, !Self.hasEmptyLabel(lowered.utf8, starts: starts), !Self.isIPAddress(host) else { return nil }
        let rules = self.rules.withLock { state -> Rules in
            if let state { return state }
            let built = Self.build(text)
            state = built
            return built
        }
        var longest = 1
        var exception: Int?
        for count in 1...labelCount {
            let suffix = String(lowered[starts[labelCount - count]...])
            if rules.normal.contains(suffix) { longest = max(longest, count) }
            if rules.exception.contains(suffix) { exception = max(exception ?? 0, count) }
            if count >= 2, rules.wildcard.contains(String(lowered[starts[labelCount - count + 1]...])) { longest = max(longest, count) }
        }
        let publicLabels = exception.map { $0 - 1 } ?? longest
        guard labelCount > publicLabels else { return nil }
        // The answer keeps the host's own case, as before: its labels from the same position
        // (hosts arrive lowercased, so that is almost always the lowered text itself).
        if lowered == host { return String(lowered[starts[labelCount - publicLabels - 1]...]) }
        var original: [String.Index] = [host.utf8.startIndex]
        for index in host.utf8.indices where host.utf8[index] == UInt8(ascii: ".") { original.append(host.utf8.index(after: index)) }
        guard original.count == labelCount else { return String(lowered[starts[labelCount - publicLabels - 1]...]) }
        return String(host[original[labelCount - publicLabels - 1]...])
    }

    /// True when a label is empty: two dots in a row, or a dot first or last.
    private static func hasEmptyLabel(_ bytes: String.UTF8View, starts: [String.Index]) -> Bool {
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? bytes.index(before: starts[position + 1]) : bytes.endIndex
            if start == end { return true }
        }
        return false
    }

    /// The first word of each line that is not a `//` comment, sorted into the three sets.
    private static func build(_ text: [UInt8]) -> Rules {
        var rules = Rules()
        var start = 0
        while start < text.count {
            var stop = start
            while stop < text.count, text[stop] != 0x0A { stop += 1 }
            var end = start
            while end < stop, text[end] != 0x20, text[end] != 0x09, text[end] != 0x0D { end += 1 }
            if end > start, !(text[start] == UInt8(ascii: "/") && start + 1 < stop && text[start + 1] == UInt8(ascii: "/")) {
                var bytes = text[start..<end]
                let first = bytes.first
                if first == UInt8(ascii: "!") { bytes = bytes.dropFirst() }
                if first == UInt8(ascii: "*"), bytes.dropFirst().first == UInt8(ascii: ".") { bytes = bytes.dropFirst(2) }
                // The list is lowercase; most rules are ASCII and need no conversion.
                let rule = bytes.allSatisfy { $0 < 0x80 } ? String(decoding: bytes, as: UTF8.self)
                    : Punycode.toASCII(host: String(decoding: bytes, as: UTF8.self).lowercased())
                if let rule {
                    switch first {
                    case UInt8(ascii: "!"): rules.exception.insert(rule)
                    case UInt8(ascii: "*") where rule.utf8.count + 2 == end - start: rules.wildcard.insert(rule)
                    default: rules.normal.insert(rule)
                    }
                }
            }
            start = stop + 1
        }
        return rules
    }

    private static func isIPAddress(_ host: String) -> Bool {
        // Most hosts end in a letter: no IPv4 form (hex and octal ones included) ends so.
        if let last = host.utf8.last, (last | 0x20) >= UInt8(ascii: "a"), (last | 0x20) <= UInt8(ascii: "z"),
           !host.utf8.contains(UInt8(ascii: ":")), host.utf8.first != UInt8(ascii: "[") {
            return false
        }
        if host.hasPrefix("[") || host.utf8.contains(UInt8(ascii: ":")) { return true }
        return HostText.isIPv4(Array(host.utf8)) || host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}

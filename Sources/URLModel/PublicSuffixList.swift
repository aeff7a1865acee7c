/// The registrable domain of a host ("eTLD+1": `example.co.uk` for `www.example.co.uk`), from the
/// text of a Public Suffix List (Debian's `publicsuffix` package installs it at
/// `/usr/share/publicsuffix/public_suffix_list.dat`), or from a small built-in fallback.
///
/// The list is not parsed into a table: one lookup only needs the rules that could apply to one
/// host, so a single pass over the text compares each rule with the host's few suffixes. That
/// costs about a millisecond for the whole list, which matters because the chooser window does it
/// on every start.
public enum PublicSuffixList {
    /// Where Debian's `publicsuffix` package puts the list.
    public static let debianPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    /// The registrable domain of `host` (ASCII or Unicode; answered in the form given) under the
    /// list `text`, or under `fallbackRegistrableDomain` when `text` is nil. Nil for an IP
    /// address, a single label, or a host that is itself a public suffix.
    public static func registrableDomain(of host: String, listText text: [UInt8]?) -> String? {
        let host = host.hasSuffix(".") ? String(host.dropLast()) : host
        let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard labels.count >= 2, !labels.contains(where: \.isEmpty), !isIPAddress(host) else { return nil }
        guard let text else { return fallbackRegistrableDomain(labels) }
        // Candidate rule texts: every suffix, every suffix with its first label as "*", and "!suffix".
        // Rules in the list are written in Unicode; compare in the Unicode form of the host.
        let unicodeLabels = labels.map { Punycode.toUnicode(host: $0) }
        var suffixes: [String: Int] = [:]  // rule text → number of labels it covers
        var wildcards: [String: Int] = [:]
        var exceptions: [String: Int] = [:]
        for count in 1...unicodeLabels.count {
            let suffix = unicodeLabels.suffix(count).joined(separator: ".")
            suffixes[suffix] = count
            exceptions["!" + suffix] = count
            if count >= 2 { wildcards["*." + unicodeLabels.suffix(count - 1).joined(separator: ".")] = count }
        }
        var longestRule = 1  // the implicit "*" rule: the last label is a public suffix
        var exceptionRule: Int?
        forEachRule(in: text) { rule in
            if let count = suffixes[rule] ?? wildcards[rule] { longestRule = max(longestRule, count) }
            if let count = exceptions[rule] { exceptionRule = max(exceptionRule ?? 0, count) }
        }
        // An exception rule's public suffix is the rule minus its leftmost label.
        let publicSuffixLabels = exceptionRule.map { $0 - 1 } ?? longestRule
        guard labels.count > publicSuffixLabels else { return nil }
        let original = host.split(separator: ".", omittingEmptySubsequences: false)
        return original.suffix(publicSuffixLabels + 1).joined(separator: ".")
    }

    /// Without a list: the last two labels, or three when the second-to-last is one of the usual
    /// second-level labels under a two-letter country code (`co.uk`, `com.au`, `ac.jp`).
    static func fallbackRegistrableDomain(_ labels: [String]) -> String {
        let secondLevel: Set<String> = ["co", "com", "net", "org", "ac", "gov", "edu", "or", "ne", "go", "gob", "nic", "mil"]
        let count = labels.count >= 3 && labels[labels.count - 1].count == 2 && secondLevel.contains(labels[labels.count - 2]) ? 3 : 2
        return labels.suffix(count).joined(separator: ".")
    }

    /// Calls `body` with each rule (the first word of each line that is not a comment).
    private static func forEachRule(in text: [UInt8], _ body: (String) -> Void) {
        var start = 0
        let end = text.count
        while start < end {
            var stop = start
            while stop < end, text[stop] != 0x0A { stop += 1 }
            var wordEnd = start
            while wordEnd < stop, text[wordEnd] != 0x20, text[wordEnd] != 0x09, text[wordEnd] != 0x0D { wordEnd += 1 }
            if wordEnd > start, !(text[start] == 0x2F && start + 1 < stop && text[start + 1] == 0x2F) {
                body(String(decoding: text[start..<wordEnd], as: UTF8.self))  // the list is lowercase
            }
            start = stop + 1
        }
    }

    private static func isIPAddress(_ host: String) -> Bool {
        if host.hasPrefix("[") || host.contains(":") { return true }
        return host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }
}

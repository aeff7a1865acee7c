/// The `$…` options of a filter, as far as a clicked link can be judged by them: a link opens a
/// page (uBlock's `document` type) from a page openurld does not know.
struct FilterOptions {
    enum Verdict {
        /// The entry applies to a clicked link (some options may be ignored).
        case usable
        /// It is about what a page loads (`$script`, `$image`, …) or rewrites requests.
        case notForPages
        /// It depends on something openurld cannot know (the page clicked on, the address a
        /// name resolves to) or on an option it does not know.
        case unsupported
    }

    var verdict = Verdict.usable
    /// Options dropped from a usable entry.
    var ignored = 0
    var toIncluded: [[UInt8]] = []
    var toExcluded: [[UInt8]] = []

    /// No options.
    static let none = FilterOptions()

    private init() {}

    /// Types that are a page opened from a link.
    private static let pageTypes: Set<String> = ["doc", "document", "all", "popup", "main_frame"]
    /// Types of what pages load.
    private static let otherTypes: Set<String> = [
        "script", "image", "stylesheet", "css", "xhr", "xmlhttprequest", "media", "font", "object", "subdocument",
        "frame", "ping", "websocket", "webrtc", "other", "beacon", "inline-script", "inline-font", "object-subrequest",
    ]
    /// Options that change a request instead of blocking it, or block only a part of the page.
    private static let modifiers: Set<String> = [
        "redirect", "redirect-rule", "removeparam", "queryprune", "csp", "permissions", "replace", "header",
        "urlskip", "uritransform", "urltransform", "empty", "mp4", "genericblock", "generichide", "ghide",
        "specifichide", "shide", "elemhide", "ehide", "cname", "badfilter",
    ]
    /// Options that do not change what a clicked link is.
    private static let neutral: Set<String> = [
        "important", "match-case", "1p", "3p", "first-party", "third-party", "strict1p", "strict3p", "strict-first-party",
        "strict-third-party", "reason",
    ]

    /// Reads `doc,to=~edu|~gov` (the text after `$`).
    init(_ text: ArraySlice<UInt8>) {
        var sawPageType = false, sawOtherType = false
        for raw in text.split(separator: UInt8(ascii: ",")) {
            var option = raw[...]
            let negated = option.first == UInt8(ascii: "~")
            if negated { option = option.dropFirst() }
            var value: ArraySlice<UInt8>?
            if let equals = option.firstIndex(of: UInt8(ascii: "=")) {
                value = option[(equals + 1)...]
                option = option[..<equals]
            }
            let name = String(decoding: option, as: UTF8.self).lowercased()
            if Self.pageTypes.contains(name) {
                if negated { sawOtherType = true } else { sawPageType = true }
            } else if Self.otherTypes.contains(name) {
                if negated { sawPageType = true } else { sawOtherType = true }
            } else if Self.modifiers.contains(name) {
                verdict = .notForPages
                return
            } else if Self.neutral.contains(name) {
                ignored += 1
            } else if name == "domain" || name == "from" {
                // Only exclusions: the entry holds on every page but those, so it holds here.
                let values = (value ?? []).split(separator: UInt8(ascii: "|"))
                guard values.allSatisfy({ $0.first == UInt8(ascii: "~") }) else {
                    verdict = .unsupported
                    return
                }
                ignored += 1
            } else if name == "to" {
                for domain in (value ?? []).split(separator: UInt8(ascii: "|")) {
                    if domain.first == UInt8(ascii: "~") {
                        toExcluded.append(domain.dropFirst().map(BlockListParser.lowercase))
                    } else {
                        toIncluded.append(domain.map(BlockListParser.lowercase))
                    }
                }
            } else {
                verdict = .unsupported
                return
            }
        }
        // Types named, none of them a page: the entry is about what pages load.
        if sawOtherType && !sawPageType { verdict = .notForPages }
    }
}

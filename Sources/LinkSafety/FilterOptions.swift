import Platform

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
    init() {}

    /// What an option is to a clicked link.
    enum Kind {
        /// A type that is a page opened from a link.
        case pageType
        /// A type of what pages load.
        case otherType
        /// It changes a request instead of blocking it, or blocks only a part of the page.
        case modifier
        /// It does not change what a clicked link is.
        case neutral
        /// `domain=` or `from=`: the pages the entry applies on.
        case domain
        /// `to=`: the domains the target must (or must not) be under.
        case to
    }

    /// The option names, shortest first, and where those of each length start in that list: a
    /// name is compared with the few of its length, byte by byte, instead of being made a String
    /// and hashed. Plain values (static strings, integers), so a look-up retains nothing.
    private struct Names {
        var names: [(name: StaticString, kind: Kind)] = []
        /// Those of `n` bytes are `names[starts[n]..<starts[n + 1]]`.
        var starts: [Int] = [0]

        init() {
            let kinds: [(Kind, [StaticString])] = [
                (.pageType, ["doc", "document", "all", "popup", "main_frame"]),
                (.otherType, ["script", "image", "stylesheet", "css", "xhr", "xmlhttprequest", "media", "font", "object", "subdocument",
                              "frame", "ping", "websocket", "webrtc", "other", "beacon", "inline-script", "inline-font", "object-subrequest"]),
                (.modifier, ["redirect", "redirect-rule", "removeparam", "queryprune", "csp", "permissions", "replace", "header",
                             "urlskip", "uritransform", "urltransform", "empty", "mp4", "genericblock", "generichide", "ghide",
                             "specifichide", "shide", "elemhide", "ehide", "cname", "badfilter"]),
                (.neutral, ["important", "match-case", "1p", "3p", "first-party", "third-party", "strict1p", "strict3p",
                            "strict-first-party", "strict-third-party", "reason"]),
                (.domain, ["domain", "from"]),
                (.to, ["to"]),
            ]
            // By length without a sort (a sort and ranges cost ~300,000 instructions at first use,
            // mostly the run time making their generic types).
            var longest = 0
            for (_, list) in kinds { for name in list { longest = max(longest, name.utf8CodeUnitCount) } }
            for length in 0...longest {
                for (kind, list) in kinds { for name in list where name.utf8CodeUnitCount == length { names.append((name, kind)) } }
                starts.append(names.count)
            }
        }
    }

    private static let table = Names()

    /// The kind of the option `name`, compared without case; nil for one openurld does not know.
    static func kind(of name: UnsafeBufferPointer<UInt8>) -> Kind? {
        guard name.allSatisfy({ $0 < 0x80 }) else {
            // Unicode lowercasing can still make a known name (a Kelvin sign is a `k`).
            var lowered = String(decoding: name, as: UTF8.self).lowercased()
            return lowered.withUTF8 { kind(ofASCII: $0) }
        }
        return kind(ofASCII: name)
    }

    /// The kind of `name` when its letters are ASCII (other bytes never match).
    private static func kind(ofASCII name: UnsafeBufferPointer<UInt8>) -> Kind? {
        let table = Self.table
        guard name.count + 1 < table.starts.count else { return nil }
        candidates: for candidate in table.starts[name.count]..<table.starts[name.count + 1] {
            let known = table.names[candidate].name.utf8Start
            for index in 0..<name.count where BlockListParser.lowercase(name[index]) != known[index] { continue candidates }
            return table.names[candidate].kind
        }
        return nil
    }

    /// Reads `doc,to=~edu|~gov` (the text after `$`).
    init(_ text: UnsafeBufferPointer<UInt8>) {
        var sawPageType = false, sawOtherType = false
        var start = 0
        while start < text.count {
            let end = text.index(of: UInt8(ascii: ","), from: start)
            // Empty options (`,,`) are skipped; an option that settles the verdict ends the reading.
            if end > start, !read(text.part(start..<end), sawPageType: &sawPageType, sawOtherType: &sawOtherType) { return }
            start = end + 1
        }
        // Types named, none of them a page: the entry is about what pages load.
        if sawOtherType && !sawPageType { verdict = .notForPages }
    }

    /// Reads one option; false when it settles the verdict, so the rest need not be read.
    private mutating func read(_ option: UnsafeBufferPointer<UInt8>, sawPageType: inout Bool, sawOtherType: inout Bool) -> Bool {
        let negated = option[0] == UInt8(ascii: "~")
        var name = negated ? option.part(1..<option.count) : option
        var value = name.part(name.count..<name.count)
        if let equals = name.firstIndex(of: UInt8(ascii: "=")) {
            value = name.part((equals + 1)..<name.count)
            name = name.part(0..<equals)
        }
        switch Self.kind(of: name) {
        case .pageType:
            if negated { sawOtherType = true } else { sawPageType = true }
        case .otherType:
            if negated { sawPageType = true } else { sawOtherType = true }
        case .modifier:
            verdict = .notForPages
            return false
        case .neutral:
            ignored += 1
        case .domain:
            // Only exclusions: the entry holds on every page but those, so it holds here.
            var onlyExclusions = true
            Self.forEachDomain(in: value) { if $0[0] != UInt8(ascii: "~") { onlyExclusions = false } }
            guard onlyExclusions else {
                verdict = .unsupported
                return false
            }
            ignored += 1
        case .to:
            Self.forEachDomain(in: value) { domain in
                if domain[0] == UInt8(ascii: "~") {
                    toExcluded.append(BlockListParser.lowercased(domain.part(1..<domain.count)))
                } else {
                    toIncluded.append(BlockListParser.lowercased(domain))
                }
            }
        case nil:
            verdict = .unsupported
            return false
        }
        return true
    }

    /// Calls `body` with each domain of `a|~b|c` (empty ones skipped).
    private static func forEachDomain(in value: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        while start < value.count {
            let end = value.index(of: UInt8(ascii: "|"), from: start)
            if end > start { body(value.part(start..<end)) }
            start = end + 1
        }
    }
}

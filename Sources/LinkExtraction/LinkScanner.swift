/// One pass over a text's UTF-8 that finds links the way linkify-it does, without regular
/// expressions: every position is looked at a bounded number of times, so the time is linear in
/// the input even for hostile text (long runs of dots, brackets, `@`, `:` or `/`).
struct LinkScanner {
    /// How a found link was recognised; decides how its `url` is normalised.
    enum Kind: Equatable {
        /// `scheme:…`; the scheme name is `nameLength` bytes long.
        case scheme(nameLength: Int)
        /// `//host/…`
        case protocolRelative
        /// `host.tld/…` with no scheme.
        case bareHost
        /// `name@host.tld` with no scheme.
        case bareEmail
    }

    /// A link's byte range and kind.
    struct Found {
        var start: Int
        var end: Int
        var kind: Kind
    }

    /// The result of a closer search: where it started and the first closer or break after it.
    struct CloserCache {
        var from = Int.max
        var result = -1
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let count: Int
    let schemes: Set<String>
    /// Bit `n` set when some scheme name is `n` bytes long: most `word:` are rejected unallocated.
    let schemeLengths: UInt64
    let hostLinks: Bool
    let emails: Bool
    let bareIPv4: Bool

    /// Next `@` and `:` at or after the last position asked about (or `count`): emails and
    /// schemes are only tried when one is near, and each search covers new text only.
    var nextAt = -1
    var nextColon = -1
    /// One cache per closing character `) ] } " '`, so runs of unclosed brackets are not rescanned.
    var closerCaches = [CloserCache](repeating: CloserCache(), count: 5)
    /// The email host after the last `@` tried (several local-part starts can share one `@`).
    var emailHostMemo: (at: Int, end: Int?) = (-1, nil)

    init(bytes: UnsafeBufferPointer<UInt8>, schemes: Set<String>, hostLinks: Bool, emails: Bool, bareIPv4: Bool) {
        self.bytes = bytes
        self.count = bytes.count
        self.schemes = schemes
        self.schemeLengths = schemes.reduce(0) { mask, name in
            name.utf8.count < 64 ? mask | 1 << UInt64(name.utf8.count) : mask
        }
        self.hostLinks = hostLinks
        self.emails = emails
        self.bareIPv4 = bareIPv4
    }

    // MARK: - Main loop

    /// Every link in the text, in order, none overlapping.
    mutating func scan() -> [Found] {
        var found: [Found] = []
        var i = 0
        // Right after a non-ASCII letter nothing can start: remembering it saves decoding back.
        var afterLetter = -1
        while i < count {
            let byte = bytes[i]
            if byte < 0x80 {
                if LinkChars.isAlnum(byte) {
                    var runEnd = i + 1
                    while runEnd < count && LinkChars.isAlnum(bytes[runEnd]) { runEnd += 1 }
                    if runEnd < count && LinkChars.continuesCandidate(bytes[runEnd]) && i != afterLetter {
                        let prefix = self.prefix(at: i)
                        if let link = best(at: i, prefix: prefix) {
                            found.append(link)
                            i = link.end
                            continue
                        }
                    }
                    i = runEnd
                    continue
                }
                if byte == UInt8(ascii: "/") {
                    if hostLinks, let end = protocolRelative(at: i) {
                        found.append(Found(start: i, end: end, kind: .protocolRelative))
                        i = end
                        continue
                    }
                } else if emails && LinkChars.isEmailNameStart(byte) && distanceToAt(from: i) <= 64
                            && prefix(at: i).email, let end = email(at: i) {
                    found.append(Found(start: i, end: end, kind: .bareEmail))
                    i = end
                    continue
                }
                i += 1
            } else {
                let (value, length) = scalar(at: i)
                if LinkChars.kind(value) == .letter {
                    if hostLinks && i != afterLetter && prefix(at: i).fuzzy, let end = bareHost(at: i) {
                        found.append(Found(start: i, end: end, kind: .bareHost))
                        i = end
                        continue
                    }
                    afterLetter = i + length
                }
                i += length
            }
        }
        return found
    }

    /// The longest link starting at `start` (an ASCII letter or digit); on a tie a scheme link
    /// wins over an email, and an email over a bare host, as in linkify-it.
    private mutating func best(at start: Int, prefix: LinkPrefix) -> Found? {
        var best: Found?
        if prefix.scheme, let (end, nameLength) = schemeLink(at: start) {
            best = Found(start: start, end: end, kind: .scheme(nameLength: nameLength))
        }
        if emails && prefix.email, let end = email(at: start), end > (best?.end ?? start) {
            best = Found(start: start, end: end, kind: .bareEmail)
        }
        if hostLinks && prefix.fuzzy, let end = bareHost(at: start), end > (best?.end ?? start) {
            best = Found(start: start, end: end, kind: .bareHost)
        }
        return best
    }

    // MARK: - Link kinds

    /// `scheme:` at `start` with a valid tail for that scheme; returns the end and name length.
    private mutating func schemeLink(at start: Int) -> (Int, Int)? {
        let first = bytes[start] | 0x20
        guard first >= 0x61 && first <= 0x7A, distanceToColon(from: start) <= 32 else { return nil }
        var colon = start + 1
        while colon < count && LinkChars.isSchemeChar(bytes[colon]) { colon += 1 }
        guard colon < count, bytes[colon] == UInt8(ascii: ":"), colon - start < 64,
              schemeLengths & 1 << UInt64(colon - start) != 0 else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<colon]), as: UTF8.self).lowercased()
        guard schemes.contains(name) else { return nil }
        let tail = colon + 1
        let end: Int?
        switch name {
        case "http", "https", "ftp": end = hierarchicalTail(at: tail)
        case "mailto": end = mailtoTail(at: tail)
        default: end = hierarchicalTail(at: tail) ?? opaqueTail(at: tail)
        }
        guard let end else { return nil }
        return (end, colon - start)
    }

    /// `//[user@]host[:port][/path]` after a scheme.
    private mutating func hierarchicalTail(at start: Int) -> Int? {
        guard start + 1 < count, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") else {
            return nil
        }
        let hostStart = start + 2
        if let afterAuth = userInfoEnd(at: hostStart), let hostEnd = anyHost(at: afterAuth) {
            return path(at: hostEnd)
        }
        guard let hostEnd = anyHost(at: hostStart) else { return nil }
        return path(at: hostEnd)
    }

    /// A scheme without `//` (for schemes passed in, e.g. `tel:`, `magnet:?…`): path rules only.
    private mutating func opaqueTail(at start: Int) -> Int? {
        let end = pathBody(from: start)
        return end > start ? end : nil
    }

    /// `name@host` after `mailto:`, plus a `?query` (kept because the mail router reads
    /// subject, cc and body from it; linkify-it stops at the host).
    private mutating func mailtoTail(at start: Int) -> Int? {
        guard start < count, LinkChars.isEmailNameStart(bytes[start]) else { return nil }
        var at = start + 1
        while at < count && at - start < 64 && LinkChars.isEmailName(bytes[at]) { at += 1 }
        guard at < count, bytes[at] == UInt8(ascii: "@"), let host = scanHost(from: at + 1),
              let end = hostTail(at: host.end, allowPort: false) else { return nil }
        if end < count && bytes[end] == UInt8(ascii: "?") { return path(at: end) }
        return end
    }

    /// `//host…` with no scheme. The caller has checked the byte at `start` is `/`.
    private mutating func protocolRelative(at start: Int) -> Int? {
        guard start + 1 < count, bytes[start + 1] == UInt8(ascii: "/") else { return nil }
        if start > 0 {
            let before = previousScalar(before: start)
            if before == UInt32(UInt8(ascii: ":")) || before == UInt32(UInt8(ascii: "/")) { return nil }
            guard LinkPrefix.after(before, kind: LinkChars.kind(before)).scheme else { return nil }
        }
        let hostStart = start + 2
        if let afterAuth = userInfoEnd(at: hostStart), let hostEnd = relativeHost(at: afterAuth) {
            return path(at: hostEnd)
        }
        guard let hostEnd = relativeHost(at: hostStart) else { return nil }
        return path(at: hostEnd)
    }

    /// `host.tld[:port][/path]` with no scheme: needs a known TLD (or, if enabled, an IPv4).
    private mutating func bareHost(at start: Int) -> Int? {
        guard let host = scanHost(from: start), host.labels >= 2 else { return nil }
        let last = UnsafeBufferPointer(rebasing: bytes[host.lastLabelStart..<host.end])
        guard TopLevelDomains.isKnown(last) || (bareIPv4 && host.isIPv4) else { return nil }
        guard let end = hostTail(at: host.end, allowPort: true) else { return nil }
        return path(at: end)
    }

    /// `name@host.tld` with no scheme, the local part starting at `start`.
    private mutating func email(at start: Int) -> Int? {
        guard LinkChars.isEmailNameStart(bytes[start]) else { return nil }
        let at = start + distanceToAt(from: start)
        guard at < count, at - start <= 64 else { return nil }
        var i = start + 1
        while i < at {
            guard LinkChars.isEmailName(bytes[i]) else { return nil }
            i += 1
        }
        if emailHostMemo.at == at { return emailHostMemo.end }
        var end: Int?
        if let host = scanHost(from: at + 1), host.labels >= 2,
           host.isIPv4 || TopLevelDomains.isKnown(UnsafeBufferPointer(rebasing: bytes[host.lastLabelStart..<host.end])) {
            end = hostTail(at: host.end, allowPort: false)
        }
        emailHostMemo = (at, end)
        return end
    }

    // MARK: - Hosts

    /// A maximal run of dot-separated host labels.
    struct HostRun {
        var end: Int
        var labels: Int
        var lastLabelStart: Int
        var lastLabelHasHyphen: Bool
        var isIPv4: Bool
    }

    /// The labels from `start` on; nil when a label is empty, too long (> 63) or starts or ends
    /// with `-` (linkify-it's host terminator rejects every shorter cut of such a run as well).
    func scanHost(from start: Int) -> HostRun? {
        var pos = start
        var labels = 0
        var lastStart = start
        var hyphen = false
        var ipv4 = true
        while true {
            let labelStart = pos
            var chars = 0, value = 0
            var digitsOnly = true, firstHyphen = false, lastHyphen = false
            hyphen = false
            while pos < count {
                let byte = bytes[pos]
                if byte < 0x80 {
                    if LinkChars.isDigit(byte) {
                        if value < 1000 { value = value * 10 + Int(byte - 0x30) }
                        lastHyphen = false
                    } else if LinkChars.isAlnum(byte) {
                        digitsOnly = false
                        lastHyphen = false
                    } else if byte == UInt8(ascii: "-") {
                        if chars == 0 { firstHyphen = true }
                        digitsOnly = false
                        lastHyphen = true
                        hyphen = true
                    } else {
                        break
                    }
                    pos += 1
                } else {
                    let (scalarValue, length) = scalar(at: pos)
                    guard LinkChars.kind(scalarValue) == .letter else { break }
                    digitsOnly = false
                    lastHyphen = false
                    pos += length
                }
                chars += 1
                if chars > 63 { return nil }
            }
            if chars == 0 || firstHyphen || lastHyphen { return nil }
            labels += 1
            lastStart = labelStart
            if !(digitsOnly && pos - labelStart <= 3 && value <= 255) { ipv4 = false }
            if pos + 1 < count && bytes[pos] == UInt8(ascii: ".") && startsLabel(at: pos + 1) {
                pos += 1
                continue
            }
            break
        }
        return HostRun(end: pos, labels: labels, lastLabelStart: lastStart, lastLabelHasHyphen: hyphen,
                       isIPv4: ipv4 && labels == 4)
    }

    private func startsLabel(at i: Int) -> Bool {
        let byte = bytes[i]
        if byte < 0x80 { return LinkChars.isAlnum(byte) || byte == UInt8(ascii: "-") }
        return LinkChars.kind(scalar(at: i).value) == .letter
    }

    /// A host after a scheme: any labels (`http://intranet`, `http://999`), port, terminator.
    private func anyHost(at start: Int) -> Int? {
        guard let host = scanHost(from: start) else { return nil }
        return hostTail(at: host.end, allowPort: true)
    }

    /// A host after `//`: `localhost` or at least two labels, the last without `-` (or punycode).
    private func relativeHost(at start: Int) -> Int? {
        guard let host = scanHost(from: start) else { return nil }
        if host.labels == 1 {
            let label = UnsafeBufferPointer(rebasing: bytes[start..<host.end])
            guard label.count == 9, zip(label, "localhost".utf8).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
        } else if host.lastLabelHasHyphen {
            let last = bytes[host.lastLabelStart..<host.end]
            guard last.count > 4, last.prefix(4).map({ $0 | 0x20 }) == Array("xn--".utf8) else { return nil }
        }
        return hostTail(at: host.end, allowPort: true)
    }

    /// `user[:password]@` (at most 50 characters, no spaces or `@/[]()`); returns the index
    /// after the `@`.
    private func userInfoEnd(at start: Int) -> Int? {
        var i = start, chars = 0
        while i < count && chars <= 50 {
            let (value, length) = scalar(at: i)
            switch value {
            case UInt32(UInt8(ascii: "@")): return chars > 0 ? i + 1 : nil
            case UInt32(UInt8(ascii: "/")), UInt32(UInt8(ascii: "[")), UInt32(UInt8(ascii: "]")),
                 UInt32(UInt8(ascii: "(")), UInt32(UInt8(ascii: ")")):
                return nil
            default:
                if LinkChars.isSpaceOrControl(value) { return nil }
            }
            i += length
            chars += 1
        }
        return nil
    }

    /// An optional `:port` (0–65535) after a host, then the host terminator; returns the end.
    private func hostTail(at hostEnd: Int, allowPort: Bool) -> Int? {
        var end = hostEnd
        if allowPort && end + 1 < count && bytes[end] == UInt8(ascii: ":") && LinkChars.isDigit(bytes[end + 1]) {
            var i = end + 1, value = 0
            while i < count && LinkChars.isDigit(bytes[i]) {
                if i - end > 5 { return nil }
                value = value * 10 + Int(bytes[i] - 0x30)
                i += 1
            }
            guard value <= 65535 else { return nil }
            end = i
        }
        return terminatesHost(at: end) ? end : nil
    }

    /// linkify-it's host terminator: the host must be followed by the end, a separator, space
    /// or punctuation, but not by `-`, `_`, `:digit`, `.-` or `.` and a letter.
    private func terminatesHost(at i: Int) -> Bool {
        guard i < count else { return true }
        let byte = bytes[i]
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "_"):
            return false
        case UInt8(ascii: ":"):
            return !(i + 1 < count && LinkChars.isDigit(bytes[i + 1]))
        case UInt8(ascii: "."):
            guard i + 1 < count else { return true }
            let next = scalar(at: i + 1).value
            if next == UInt32(UInt8(ascii: "-")) { return false }
            let kind = LinkChars.kind(next)
            return kind == .spaceOrControl || kind == .punctuation
        default:
            let kind = LinkChars.kind(scalar(at: i).value)
            return kind != .letter && kind != .asciiSymbol
        }
    }
}

import URLModel

/// `match.path` and `match.url` globs written as the URLs they are matched against are written.
///
/// The URL Standard percent-encodes controls, spaces, non-ASCII and a few ASCII characters in a
/// special URL's path (`/café` is handed on as `/caf%C3%A9`), and its host is in ASCII form
/// (`xn--`); a glob written the way a person reads the link would never match. So at load each
/// glob's literal text is encoded the same way (`*`, `?`, `[…]` and `\` keep their meaning),
/// and its host labels are mapped as hosts are. Other schemes (mailto, app schemes) keep
/// non-ASCII as written and encode only spaces and controls, so a glob that may meet one is
/// also compiled in that form.
enum GlobText {
    /// The patterns to compile for one glob, and what cannot be matched as written.
    struct Forms: Equatable {
        /// One or two patterns; the glob holds when any of them does.
        var patterns: [String]
        /// A part that no URL can hold as written (a class with non-ASCII, a wildcard label with
        /// non-ASCII), for `openurl check` to warn about.
        var warning: String?

        /// The forms of a glob.
        init(patterns: [String], warning: String? = nil) {
            self.patterns = patterns
            self.warning = warning
        }
    }

    /// A `match.path` glob: the special URLs' path form, and the other schemes' form when it differs.
    static func pathForms(_ pattern: String) -> Forms {
        let special = encodingLiterals(pattern) { PercentEncoding.encodes(.path, $0) }
        let generic = encodingLiterals(pattern, isGenericEncoded)
        let warning = special.badClass.map { classWarning($0, where: "a path") }
        return Forms(patterns: unique([special.text, generic.text]), warning: warning)
    }

    /// A `match.url` glob: by its scheme when it starts with one (`https://…` as the URL
    /// Standard writes it, `mailto:…` as other schemes are kept), else both forms.
    static func urlForms(_ pattern: String) -> Forms {
        let bytes = Array(pattern.utf8)
        guard bytes.contains(where: { $0 >= 0x80 || isGenericEncoded($0) || PercentEncoding.encodes(.everyPart, $0) }) else {
            return Forms(patterns: [pattern], warning: nil)
        }
        let generic = encodingLiterals(pattern, isGenericEncoded)
        let scheme = literalScheme(bytes)
        if let scheme, !ParsedURL.specialSchemes.contains(scheme) {
            return Forms(patterns: [generic.text], warning: nil)
        }
        var warning: String?
        var special = pattern
        var head = ""
        if let afterSeparator = pattern.endOfFirst("://") {
            // The authority: up to the first `/` after `://`; its host labels become ASCII.
            let rest = pattern[afterSeparator...]
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            let authority = asciiAuthority(String(rest[..<end]))
            warning = authority.warning
            head = String(pattern[..<afterSeparator]) + authority.text
            special = String(rest[end...])
        }
        let tail = encodingLiterals(special) { PercentEncoding.encodes(.everyPart, $0) }
        if warning == nil { warning = tail.badClass.map { classWarning($0, where: "a URL") } }
        let specialForm = encodingLiterals(head) { PercentEncoding.encodes(.everyPart, $0) }.text + tail.text
        return Forms(patterns: scheme == nil ? unique([specialForm, generic.text]) : [specialForm], warning: warning)
    }

    /// Bytes that URLs of other schemes percent-encode: spaces and controls.
    private static func isGenericEncoded(_ byte: UInt8) -> Bool { byte <= 0x20 || byte == 0x7F }

    private static func unique(_ patterns: [String]) -> [String] {
        patterns.count == 2 && patterns[0] == patterns[1] ? [patterns[0]] : patterns
    }

    private static func classWarning(_ klass: String, where part: String) -> String {
        "the class \(klass) holds characters that \(part) always holds percent-encoded, so it can never match them; write the %XX form instead"
    }

    /// The scheme a pattern starts with, lowercased, when it is literal text followed by `:`.
    private static func literalScheme(_ bytes: [UInt8]) -> String? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let isSchemeByte = { (b: UInt8) in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "+")
                || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
        }
        guard bytes[..<colon].allSatisfy(isSchemeByte) else { return nil }
        return String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
    }

    /// An authority glob with its non-ASCII host labels in ASCII form, label by label so
    /// wildcard labels stay wildcards; a label that mixes wildcards and non-ASCII cannot be.
    private static func asciiAuthority(_ authority: String) -> (text: String, warning: String?) {
        guard authority.utf8.contains(where: { $0 >= 0x80 }) else { return (authority, nil) }
        var userinfo = "", host = Substring(authority), port = ""
        if let at = host.lastIndex(of: "@") {
            userinfo = String(host[...at])
            host = host[host.index(after: at)...]
        }
        if let colon = host.lastIndex(of: ":"), !host.hasPrefix("[") {
            port = String(host[colon...])
            host = host[..<colon]
        }
        let isWildcard = { (c: Character) in c == "*" || c == "?" || c == "[" || c == "\\" }
        if !host.contains(where: isWildcard), let ascii = try? HostParser.parse(ArraySlice(host.utf8)) {
            return (userinfo + ascii + port, nil)
        }
        var warning: String?
        let labels = host.split(separator: ".", omittingEmptySubsequences: false).map { label -> String in
            guard label.utf8.contains(where: { $0 >= 0x80 }) else { return String(label) }
            if label.contains(where: isWildcard) {
                warning = warning ?? "the host label \"\(label)\" mixes wildcards and non-ASCII characters; a URL holds the label in its xn-- form, so write that (or use match.host, which matches both forms)"
                return String(label)
            }
            return (try? HostParser.parse(ArraySlice(label.utf8))) ?? String(label)
        }
        return (userinfo + labels.joined(separator: ".") + port, warning)
    }

    /// `pattern` with each literal byte `encodes` says into `%XX`; `*`, `?`, `[…]` and `\` keep
    /// their meaning (an escaped character that is encoded needs no escape). A class holding an
    /// encoded byte is kept as written and returned in `badClass`.
    static func encodingLiterals(_ pattern: String, _ encodes: (UInt8) -> Bool) -> (text: String, badClass: String?) {
        let bytes = Array(pattern.utf8)
        guard bytes.contains(where: encodes) else { return (pattern, nil) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var badClass: String?
        var i = 0
        func escaped(_ byte: UInt8) {
            let digits = Array("0123456789ABCDEF".utf8)
            out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
        }
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\\"):
                // The escaped character: one UTF-8 sequence.
                guard i + 1 < bytes.count else { out.append(byte); i += 1; continue }
                var end = i + 2
                while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                let character = bytes[(i + 1)..<end]
                if character.contains(where: encodes) { character.forEach(escaped) } else { out += bytes[i..<end] }
                i = end
            case UInt8(ascii: "["):
                // As `Glob` reads a class: a `]` right after `[` or `[!` is a member.
                var search = i + 1
                if search < bytes.count, bytes[search] == UInt8(ascii: "!") || bytes[search] == UInt8(ascii: "^") { search += 1 }
                if search < bytes.count, bytes[search] == UInt8(ascii: "]") { search += 1 }
                guard let close = bytes[min(search, bytes.count)...].firstIndex(of: UInt8(ascii: "]")) else {
                    out += bytes[i...]
                    i = bytes.count
                    continue
                }
                let klass = bytes[i...close]
                if badClass == nil, klass.contains(where: encodes) { badClass = String(decoding: klass, as: UTF8.self) }
                out += klass
                i = close + 1
            default:
                if byte != UInt8(ascii: "*") && byte != UInt8(ascii: "?") && encodes(byte) { escaped(byte) } else { out.append(byte) }
                i += 1
            }
        }
        return (String(decoding: out, as: UTF8.self), badClass)
    }
}

/// The URL Standard's path, query and fragment states for special URLs (http, https, ws, wss,
/// ftp), and its percent-encode sets: what follows the host is serialised exactly as a browser
/// serialises it, so a path rule sees `/admin/x` for `/x/../admin/x`, as the browser will.
enum URLTail {
    /// The URL Standard's percent-encode sets, as bit flags in `table`.
    struct EncodeSet: OptionSet {
        let rawValue: UInt8
        /// C0 controls and every byte above `~` (DEL and all of UTF-8's non-ASCII bytes).
        static let c0Control = EncodeSet(rawValue: 1)
        /// The fragment set: C0 control set, space, `"`, `<`, `>`, `` ` ``.
        static let fragment = EncodeSet(rawValue: 2)
        /// The query set: C0 control set, space, `"`, `#`, `<`, `>`.
        static let query = EncodeSet(rawValue: 4)
        /// The special-query set: the query set and `'`.
        static let specialQuery = EncodeSet(rawValue: 8)
        /// The path set: the query set and `?`, `^`, `` ` ``, `{`, `}`.
        static let path = EncodeSet(rawValue: 16)
        /// The userinfo set: the path set and `/`, `:`, `;`, `=`, `@`, `[` to `]`, `|`.
        static let userinfo = EncodeSet(rawValue: 32)
    }

    /// The sets that encode `byte`. A switch, not a table: a table is a lazy global, and the
    /// `swift_once` check on every byte of every URL was ~1k instructions a click.
    @inline(__always)
    static func sets(encoding byte: UInt8) -> EncodeSet {
        if byte < 0x20 || byte > 0x7E { return [.c0Control, .fragment, .query, .specialQuery, .path, .userinfo] }
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"): return [.fragment, .query, .specialQuery, .path, .userinfo]
        case UInt8(ascii: "`"): return [.fragment, .path, .userinfo]
        case UInt8(ascii: "#"): return [.query, .specialQuery, .path, .userinfo]
        case UInt8(ascii: "'"): return .specialQuery
        case UInt8(ascii: "?"), UInt8(ascii: "^"), UInt8(ascii: "{"), UInt8(ascii: "}"): return [.path, .userinfo]
        case UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: "["),
             UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "|"):
            return .userinfo
        default: return []
        }
    }

    /// True when `set` percent-encodes `byte`.
    @inline(__always)
    static func encodes(_ set: EncodeSet, _ byte: UInt8) -> Bool {
        sets(encoding: byte).rawValue & set.rawValue != 0
    }

    /// `bytes` with every byte in `set` as `%XX`; nil when none is (the text stays as it is).
    static func encoded(_ bytes: ArraySlice<UInt8>, _ set: EncodeSet) -> [UInt8]? {
        guard let first = bytes.firstIndex(where: { encodes(set, $0) }) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        out.append(contentsOf: bytes[bytes.startIndex..<first])
        for byte in bytes[first...] { append(byte, set, to: &out) }
        return out
    }

    /// Appends `byte` to `out`, as `%XX` when `set` encodes it.
    @inline(__always)
    static func append(_ byte: UInt8, _ set: EncodeSet, to out: inout [UInt8]) {
        if encodes(set, byte) { appendEscaped(byte, to: &out) } else { out.append(byte) }
    }

    /// Appends `byte` to `out` as `%XX` (uppercase hex, as the URL Standard writes it).
    static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "%"))
        out.append(hexDigit(byte >> 4))
        out.append(hexDigit(byte & 0xF))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x41 + value - 10 }

    /// The serialised path, query and fragment of a special URL, from the bytes after its host
    /// and port (empty, or starting with `/`, `\`, `?` or `#`). `changed` is false when they
    /// are the input bytes themselves.
    static func parse(_ tail: ArraySlice<UInt8>) -> (path: String, query: String?, fragment: String?, changed: Bool) {
        let fragmentMark = tail.firstIndex(of: UInt8(ascii: "#"))
        let beforeFragment = tail[tail.startIndex..<(fragmentMark ?? tail.endIndex)]
        let queryMark = beforeFragment.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = tail[tail.startIndex..<(queryMark ?? beforeFragment.endIndex)]
        var changed = false
        let path: String
        if isNormalPath(rawPath) {
            path = String(decoding: rawPath, as: UTF8.self)
        } else {
            path = String(decoding: serializePath(rawPath), as: UTF8.self)
            changed = true
        }
        var query: String? = nil
        if let queryMark {
            let raw = beforeFragment[(queryMark + 1)...]
            if let encoded = encoded(raw, .specialQuery) {
                query = String(decoding: encoded, as: UTF8.self)
                changed = true
            } else {
                query = String(decoding: raw, as: UTF8.self)
            }
        }
        var fragment: String? = nil
        if let fragmentMark {
            let raw = tail[(fragmentMark + 1)...]
            if let encoded = encoded(raw, .fragment) {
                fragment = String(decoding: encoded, as: UTF8.self)
                changed = true
            } else {
                fragment = String(decoding: raw, as: UTF8.self)
            }
        }
        return (path, query, fragment, changed)
    }

    /// True when `raw` already is its own serialisation: it starts with `/`, and has no `\`, no
    /// byte the path set encodes and no `.` or `..` segment (the check every URL pays, one pass).
    private static func isNormalPath(_ raw: ArraySlice<UInt8>) -> Bool {
        guard raw.first == UInt8(ascii: "/") else { return false }
        var segmentStart = raw.startIndex + 1
        for i in segmentStart..<raw.endIndex {
            let byte = raw[i]
            if byte == UInt8(ascii: "\\") || encodes(.path, byte) { return false }
            if byte == UInt8(ascii: "/") {
                if isDotSegment(raw[segmentStart..<i]) != nil { return false }
                segmentStart = i + 1
            }
        }
        return isDotSegment(raw[segmentStart..<raw.endIndex]) == nil
    }

    /// The URL Standard's path state on `raw` (the path start state first): segments split at
    /// `/` and `\`, each percent-encoded with the path set; a single-dot segment (`.`, `%2e`)
    /// is dropped and a double-dot one (`..`, `.%2e`, `%2e.`, `%2e%2e`, any case) drops the
    /// segment before it too; either one last leaves the path ending in `/`.
    static func serializePath(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count + 8)
        var segmentStarts: [Int] = []  // where each kept segment's `/` is in `out`
        var i = raw.startIndex
        if i < raw.endIndex, raw[i] == UInt8(ascii: "/") || raw[i] == UInt8(ascii: "\\") { i += 1 }
        var segmentStart = out.count
        out.append(UInt8(ascii: "/"))
        while true {
            let atEnd = i == raw.endIndex
            if !atEnd, raw[i] != UInt8(ascii: "/"), raw[i] != UInt8(ascii: "\\") {
                append(raw[i], .path, to: &out)
                i += 1
                continue
            }
            switch isDotSegment(out[(segmentStart + 1)...]) {
            case .double?:
                out.removeSubrange(segmentStart...)
                if let previous = segmentStarts.popLast() { out.removeSubrange(previous...) }
                if atEnd { segmentStarts.append(out.count); out.append(UInt8(ascii: "/")) }
            case .single?:
                out.removeSubrange(segmentStart...)
                if atEnd { segmentStarts.append(out.count); out.append(UInt8(ascii: "/")) }
            case nil:
                segmentStarts.append(segmentStart)
            }
            if atEnd { break }
            i += 1
            segmentStart = out.count
            out.append(UInt8(ascii: "/"))
        }
        return out
    }

    enum DotSegment { case single, double }

    /// Whether `segment` is the URL Standard's single-dot or double-dot segment.
    @inline(__always)
    static func isDotSegment(_ segment: ArraySlice<UInt8>) -> DotSegment? {
        let count = segment.count
        guard count >= 1, count <= 6 else { return nil }
        let first = segment[segment.startIndex]
        guard first == UInt8(ascii: ".") || first == UInt8(ascii: "%") else { return nil }
        var dots = 0
        var i = segment.startIndex
        while i < segment.endIndex {
            if segment[i] == UInt8(ascii: ".") {
                i += 1
            } else if segment.endIndex - i >= 3, segment[i] == UInt8(ascii: "%"), segment[i + 1] == UInt8(ascii: "2"),
                      segment[i + 2] | 0x20 == UInt8(ascii: "e") {
                i += 3
            } else {
                return nil
            }
            dots += 1
        }
        switch dots {
        case 1: return .single
        case 2: return .double
        default: return nil
        }
    }
}

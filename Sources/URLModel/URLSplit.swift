import Platform

/// Byte offsets of the parts of an absolute URL, found without decoding or re-encoding, so that
/// hygiene can cut parameters out of the raw text and leave every other byte as it was.
package struct URLSplit {
    /// The URL's UTF-8 bytes.
    package let bytes: [UInt8]
    /// `scheme` ends before this index (the `:`), or -1 when there is no scheme.
    let schemeEnd: Int
    /// Byte range of the host (without userinfo, port and a trailing dot); empty without authority.
    package let hostRange: Range<Int>
    /// Path bytes: `pathStart..<queryStart-or-fragment`.
    let pathStart: Int
    /// Index of `?`, or nil.
    package let queryMark: Int?
    /// Index of `#`, or nil.
    let fragmentMark: Int?

    package init(_ url: String) {
        // Through `withUTF8`: `Array(url.utf8)` copies byte by byte.
        var url = url
        self.init(bytes: url.withUTF8 { Array($0) })
    }

    /// A split whose parts are already known.
    private init(bytes: [UInt8], schemeEnd: Int, hostRange: Range<Int>, pathStart: Int, queryMark: Int?, fragmentMark: Int?) {
        self.bytes = bytes
        self.schemeEnd = schemeEnd
        self.hostRange = hostRange
        self.pathStart = pathStart
        self.queryMark = queryMark
        self.fragmentMark = fragmentMark
    }

    /// `replacing(in: self, query:fragment:)`, split. Everything before the query is unchanged
    /// (and the scheme, host and path are found there alone), so only the marks move.
    package func replacing(query newQuery: [UInt8]?, fragment newFragment: [UInt8]?) -> URLSplit {
        let rebuilt = URLModel.replacing(in: self, query: newQuery, fragment: newFragment)
        var position = queryMark ?? fragmentMark ?? bytes.count
        var newQueryMark: Int? = nil
        if let q = queryMark, let range = queryRange {
            if let newQuery {
                if !newQuery.isEmpty { newQueryMark = q; position += 1 + newQuery.count }
            } else {
                newQueryMark = q
                position += range.upperBound - q
            }
        }
        let newFragmentMark = fragmentMark != nil && position < rebuilt.count ? position : nil
        return URLSplit(
            bytes: rebuilt, schemeEnd: schemeEnd, hostRange: hostRange, pathStart: pathStart,
            queryMark: newQueryMark, fragmentMark: newFragmentMark)
    }

    init(bytes: [UInt8]) {
        self = bytes.withUnsafeBufferPointer { URLSplit(bytes: bytes, buffer: $0) }
    }

    /// Splits `bytes`, read through `buffer` (the same bytes) without bounds checks.
    private init(bytes array: [UInt8], buffer bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = array
        let count = bytes.count
        // With memchr: a byte loop looking for both marks was ~6 instructions a byte, the
        // larger part of a split (and hygiene splits every link with a query).
        let hash = bytes.index(of: UInt8(ascii: "#"), from: 0)
        let fragment: Int? = hash < count ? hash : nil
        let mark = UnsafeBufferPointer(rebasing: bytes[0..<hash]).index(of: UInt8(ascii: "?"), from: 0)
        let query: Int? = mark < hash ? mark : nil
        queryMark = query
        fragmentMark = fragment
        let beforeQuery = query ?? fragment ?? count
        var scheme = -1
        for i in 0..<beforeQuery {
            let b = bytes[i]
            if b == UInt8(ascii: ":") { scheme = i; break }
            let isSchemeByte = (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A)
                || (i > 0 && ((b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E))
            if !isSchemeByte { break }
        }
        schemeEnd = scheme
        var pathStart = scheme + 1
        var host = 0..<0
        if scheme >= 0, pathStart + 1 < beforeQuery,
           bytes[pathStart] == UInt8(ascii: "/"), bytes[pathStart + 1] == UInt8(ascii: "/") {
            let authorityStart = pathStart + 2
            let authorityEnd = UnsafeBufferPointer(rebasing: bytes[0..<beforeQuery]).index(of: UInt8(ascii: "/"), from: authorityStart)
            var hostStart = authorityStart
            for i in authorityStart..<authorityEnd where bytes[i] == UInt8(ascii: "@") { hostStart = i + 1 }
            var hostEnd = authorityEnd
            if hostStart < authorityEnd, bytes[hostStart] == UInt8(ascii: "[") {
                while hostEnd > hostStart, bytes[hostEnd - 1] != UInt8(ascii: "]") { hostEnd -= 1 }
            } else {
                for i in hostStart..<authorityEnd where bytes[i] == UInt8(ascii: ":") { hostEnd = i; break }
            }
            hostEnd = max(hostStart, hostEnd)
            // A trailing dot names the same host.
            if hostEnd > hostStart, bytes[hostEnd - 1] == UInt8(ascii: ".") { hostEnd -= 1 }
            host = hostStart..<hostEnd
            pathStart = authorityEnd
        }
        self.pathStart = pathStart
        self.hostRange = host
    }

    /// The host, lower-cased.
    var host: String {
        String(decoding: bytes[hostRange].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// True when the scheme is `http` or `https` (any case).
    var isHTTPScheme: Bool {
        guard schemeEnd == 4 || schemeEnd == 5 else { return false }
        let h = bytes[0] | 0x20, t1 = bytes[1] | 0x20, t2 = bytes[2] | 0x20, p = bytes[3] | 0x20
        guard h == 0x68, t1 == 0x74, t2 == 0x74, p == 0x70 else { return false }
        return schemeEnd == 4 || bytes[4] | 0x20 == 0x73
    }

    /// Byte range of the path.
    package var pathRange: Range<Int> { pathStart..<max(pathStart, queryMark ?? fragmentMark ?? bytes.count) }

    /// The scheme, lower-cased.
    var scheme: String {
        guard schemeEnd > 0 else { return "" }
        return String(decoding: bytes[0..<schemeEnd], as: UTF8.self).lowercased()
    }

    /// True for `http` / `https` URLs with a non-empty host.
    package var isWebURL: Bool { isHTTPScheme && !hostRange.isEmpty }

    /// The path, as raw text.
    var path: Substring {
        let end = queryMark ?? fragmentMark ?? bytes.count
        return Substring(String(decoding: bytes[pathStart..<max(pathStart, end)], as: UTF8.self))
    }

    /// Byte range of the query text (after `?`, before `#`), or nil without a `?`.
    package var queryRange: Range<Int>? {
        guard let q = queryMark else { return nil }
        return (q + 1)..<(fragmentMark ?? bytes.count)
    }

    /// Byte range of the fragment text (after `#`), or nil.
    package var fragmentRange: Range<Int>? {
        guard let f = fragmentMark else { return nil }
        return (f + 1)..<bytes.count
    }

    /// The first raw value of parameter `name` (exact, case-sensitive raw name) in the query.
    package func queryValue(named name: String) -> Substring? {
        guard let range = queryRange else { return nil }
        let nameCount = name.utf8.count
        for item in QueryItems(bytes: bytes, range: range) {
            guard item.nameRange.count == nameCount, let value = item.valueRange else { continue }
            if bytes[item.nameRange].elementsEqual(name.utf8) {
                return String(decoding: bytes[value], as: UTF8.self)[...]
            }
        }
        return nil
    }
}

/// One `name=value` item of a query or fragment, as byte ranges into the URL.
package struct QueryItem {
    /// The whole item (name, `=` and value).
    var range: Range<Int>
    /// The raw name.
    package var nameRange: Range<Int>
    /// The raw value after `=`, nil when the item has no `=`.
    var valueRange: Range<Int>?
}

/// The `&`-separated items of a byte range, empty items included.
struct QueryItems: Sequence, IteratorProtocol {
    let bytes: [UInt8]
    let range: Range<Int>
    private var position: Int
    private var finished = false

    init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.range = range
        self.position = range.lowerBound
    }

    mutating func next() -> QueryItem? {
        if finished { return nil }
        let start = position
        var end = start
        while end < range.upperBound, bytes[end] != UInt8(ascii: "&") { end += 1 }
        if end >= range.upperBound { finished = true } else { position = end + 1 }
        var equals: Int? = nil
        for i in start..<end where bytes[i] == UInt8(ascii: "=") { equals = i; break }
        if let equals {
            return QueryItem(range: start..<end, nameRange: start..<equals, valueRange: (equals + 1)..<end)
        }
        return QueryItem(range: start..<end, nameRange: start..<end, valueRange: nil)
    }
}

/// Rebuilds `bytes` with the items of `range` that `keep` accepts, joined by `&` and byte for
/// byte as they were. Returns nil when every item is kept (nothing to rewrite).
/// `dropEmpty` drops empty items once something else was removed, so `?a&&b` stays as it was
/// but `?utm_source=x&&a=1` becomes `?a=1` rather than `?&a=1`.
package func filterItems(
    _ bytes: [UInt8], range: Range<Int>, keepName: (UnsafeBufferPointer<UInt8>) -> Bool
) -> (kept: [UInt8], removed: [QueryItem])? {
    bytes.withUnsafeBufferPointer { buffer in
        // Nothing is allocated unless something is removed (the usual case is nothing).
        let removed = removedItems(buffer, range, keepName: keepName)
        guard !removed.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        forEachKeptItem(buffer, range, removed: removed) { item, first in
            if !first { out.append(UInt8(ascii: "&")) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[item.range]))
        }
        return (out, removed)
    }
}

/// `replacing(in: split, query: filterItems(…).kept, fragment: nil)` in one pass: the link
/// without the query items whose names `keepName` refuses, and those items; nil when every
/// item is kept. One buffer is filled, not the kept query's and then the link's (~400
/// instructions of each cleaned link).
package func removingItems(
    from split: URLSplit, keepName: (UnsafeBufferPointer<UInt8>) -> Bool
) -> (url: [UInt8], removed: [QueryItem])? {
    guard let mark = split.queryMark, let range = split.queryRange, !range.isEmpty else { return nil }
    return split.bytes.withUnsafeBufferPointer { buffer in
        let removed = removedItems(buffer, range, keepName: keepName)
        guard !removed.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(buffer.count)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<mark]))
        forEachKeptItem(buffer, range, removed: removed) { item, first in
            out.append(first ? UInt8(ascii: "?") : UInt8(ascii: "&"))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[item.range]))
        }
        if let fragment = split.fragmentMark { out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[fragment..<buffer.count])) }
        return (out, removed)
    }
}

/// The items of `range` whose names `keepName` refuses, in order.
@inline(__always)
private func removedItems(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, keepName: (UnsafeBufferPointer<UInt8>) -> Bool) -> [QueryItem] {
    var removed: [QueryItem] = []
    forEachItem(buffer, range) { item in
        if !keepName(UnsafeBufferPointer(rebasing: buffer[item.nameRange])) { removed.append(item) }
    }
    return removed
}

/// Calls `body` with each item of `range` that is not in `removed` (in order, as
/// `removedItems` gave them), and whether it is the first kept.
@inline(__always)
private func forEachKeptItem(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, removed: [QueryItem], _ body: (QueryItem, Bool) -> Void) {
    var nextRemoved = 0
    var kept = 0
    forEachItem(buffer, range) { item in
        if nextRemoved < removed.count, removed[nextRemoved].range == item.range { nextRemoved += 1; return }
        body(item, kept == 0)
        kept += 1
    }
}

/// Calls `body` with each non-empty `&`-separated item of `range` (the items `QueryItems` yields,
/// less the empty ones), in one pass over the bytes.
@inline(__always)
private func forEachItem(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (QueryItem) -> Void) {
    var start = range.lowerBound
    let end = range.upperBound
    while true {
        var i = start
        var equals = -1
        while i < end {
            let b = buffer[i]
            if b == UInt8(ascii: "&") { break }
            if b == UInt8(ascii: "="), equals < 0 { equals = i }
            i += 1
        }
        if i > start {
            body(equals >= 0
                ? QueryItem(range: start..<i, nameRange: start..<equals, valueRange: (equals + 1)..<i)
                : QueryItem(range: start..<i, nameRange: start..<i, valueRange: nil))
        }
        if i >= end { return }
        start = i + 1
    }
}

/// Replaces the query (and its `?`) or the fragment (and its `#`) of `split` with new item bytes,
/// dropping the mark when nothing is left.
package func replacing(
    in split: URLSplit, query newQuery: [UInt8]?, fragment newFragment: [UInt8]?
) -> [UInt8] {
    let bytes = split.bytes
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    let queryStart = split.queryMark ?? split.fragmentMark ?? bytes.count
    out.append(contentsOf: bytes[0..<queryStart])
    if let q = split.queryMark, let range = split.queryRange {
        if let newQuery {
            if !newQuery.isEmpty { out.append(UInt8(ascii: "?")); out.append(contentsOf: newQuery) }
        } else {
            out.append(contentsOf: bytes[q..<range.upperBound])
        }
    }
    if let f = split.fragmentMark {
        if let newFragment {
            if !newFragment.isEmpty { out.append(UInt8(ascii: "#")); out.append(contentsOf: newFragment) }
        } else {
            out.append(contentsOf: bytes[f..<bytes.count])
        }
    }
    return out
}
